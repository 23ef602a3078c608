// Which rows of one partition an UPDATE changes, and the rows its SET expressions are evaluated over.
// Without FROM that is the partition filtered by WHERE. With FROM, target rows pair with source rows: equality
// conjuncts of WHERE between a target-only and a source-only expression become hash keys (a hash join), the
// whole WHERE is then evaluated over the joined pairs, and the first matching pair of a target row wins.
import type { BoundExpr, ColumnBatch, Expr, Scope, Vector } from '../sql/compiler.js';
import { bindExpression, compileFilter, compileProjection, gatherBatch } from '../sql/compiler.js';
import type { createRuntime } from '../sql/compiler.js';
import { vectorValue } from './encode-batch.js';
import { sqlRuntimeError } from '../core/errors.js';
import { updateJoinPairsMax } from '../core/limits.js';

type Runtime = ReturnType<typeof createRuntime>;
type Filter = ReturnType<typeof compileFilter>;
type Projection = ReturnType<typeof compileProjection>;

/** The materialised FROM source of an UPDATE, with its equi-join keys when WHERE has any. */
export interface UpdateSource {
  readonly batch: ColumnBatch;
  /** Source rows by key text; undefined when WHERE has no usable equality (every pair is a candidate). */
  readonly index: Map<string, number[]> | undefined;
  /** Target-side key expressions, evaluated over each target partition. */
  readonly targetKeys: Projection | undefined;
}

export interface MatchedRows {
  /** Target rows that change, ascending. */
  readonly rows: Int32Array;
  readonly count: number;
  /** The rows SET expressions read: row k belongs to target row rows[k]. */
  readonly batch: ColumnBatch;
}

function conjuncts(expr: Expr): Expr[] {
  return expr.kind === 'binary' && expr.op === 'and' ? [...conjuncts(expr.left), ...conjuncts(expr.right)] : [expr];
}

/** 't' when every column an expression reads is a target column, 's' when all are source columns. */
function sideOf(expr: Expr, scope: Scope, targetWidth: number): 't' | 's' | 'mixed' | 'none' {
  const sides = new Set<string>();
  const visit = (node: Expr): void => {
    switch (node.kind) {
      case 'column': sides.add(scope.find(node.name, node.qualifier, node.position) < targetWidth ? 't' : 's'); return;
      case 'call': node.args.forEach(visit); return;
      case 'unary': visit(node.operand); return;
      case 'binary': visit(node.left); visit(node.right); return;
      case 'cast': visit(node.operand); return;
      default: sides.add('mixed');
    }
  };
  visit(expr);
  if (sides.size === 0) return 'none';
  return sides.size === 1 ? (sides.has('t') ? 't' : sides.has('s') ? 's' : 'mixed') : 'mixed';
}

function keyText(vectors: readonly Vector[], row: number): string {
  let text = '';
  for (const vector of vectors) {
    const value = vectorValue(vector, row);
    text += value === null || (typeof value === 'number' && value !== value) ? '\u0001' : `${String(value)}\u0000`;
  }
  return text;
}

/** Placeholder vectors for the target columns when evaluating source-side expressions (never read). */
function padded(batch: ColumnBatch, targetWidth: number): ColumnBatch {
  const pad: Vector[] = Array.from({ length: targetWidth }, () => ({ type: 'INT', data: new Int32Array(0) }));
  return { rowCount: batch.rowCount, vectors: [...pad, ...batch.vectors] };
}

export function prepareSource(batch: ColumnBatch, where: Expr | undefined, scope: Scope, targetWidth: number, rt: Runtime): UpdateSource {
  const targetKeys: BoundExpr[] = [];
  const sourceKeys: BoundExpr[] = [];
  for (const conjunct of where === undefined ? [] : conjuncts(where)) {
    if (conjunct.kind !== 'binary' || conjunct.op !== '=') continue;
    const left = sideOf(conjunct.left, scope, targetWidth);
    const right = sideOf(conjunct.right, scope, targetWidth);
    if (!((left === 't' && right === 's') || (left === 's' && right === 't'))) continue;
    const context = { scope, clause: 'WHERE' };
    targetKeys.push(bindExpression(left === 't' ? conjunct.left : conjunct.right, context));
    sourceKeys.push(bindExpression(left === 't' ? conjunct.right : conjunct.left, context));
  }
  if (targetKeys.length === 0) return { batch, index: undefined, targetKeys: undefined };
  const keyVectors = compileProjection(sourceKeys).run(padded(batch, targetWidth), rt);
  const index = new Map<string, number[]>();
  for (let row = 0; row < batch.rowCount; row++) {
    const key = keyText(keyVectors, row);
    const rows = index.get(key);
    if (rows === undefined) index.set(key, [row]);
    else rows.push(row);
  }
  return { batch, index, targetKeys: compileProjection(targetKeys) };
}

function identity(count: number): Int32Array {
  const rows = new Int32Array(count);
  for (let row = 0; row < count; row++) rows[row] = row;
  return rows;
}

export function matchRows(target: ColumnBatch, source: UpdateSource | undefined, filter: Filter | undefined, rt: Runtime): MatchedRows {
  if (source === undefined) {
    if (filter === undefined) return { rows: identity(target.rowCount), count: target.rowCount, batch: target };
    const selection = new Int32Array(target.rowCount);
    const count = filter.run(target, rt, selection);
    return { rows: selection, count, batch: gatherBatch(target, selection, count) };
  }
  const pairs = candidatePairs(target, source, rt);
  const joined: ColumnBatch = {
    rowCount: pairs.count,
    vectors: [...gatherBatch(target, pairs.target, pairs.count).vectors, ...gatherBatch(source.batch, pairs.source, pairs.count).vectors],
  };
  const selection = filter === undefined ? identity(pairs.count) : new Int32Array(pairs.count);
  const selected = filter === undefined ? pairs.count : filter.run(joined, rt, selection);
  // Pairs come in target-row order: the first selected pair of each target row is the one applied.
  const chosen = new Int32Array(selected);
  const rows = new Int32Array(selected);
  let count = 0;
  for (let k = 0; k < selected; k++) {
    const pair = selection[k];
    const row = pairs.target[pair];
    if (count > 0 && rows[count - 1] === row) continue;
    rows[count] = row;
    chosen[count++] = pair;
  }
  return { rows, count, batch: gatherBatch(joined, chosen, count) };
}

function candidatePairs(target: ColumnBatch, source: UpdateSource, rt: Runtime): { target: Int32Array; source: Int32Array; count: number } {
  const targetRows: number[] = [];
  const sourceRows: number[] = [];
  const keys = source.targetKeys === undefined ? undefined : source.targetKeys.run(target, rt);
  for (let row = 0; row < target.rowCount; row++) {
    const matches = keys === undefined || source.index === undefined ? undefined : source.index.get(keyText(keys, row));
    if (keys !== undefined && matches === undefined) continue;
    const count = matches === undefined ? source.batch.rowCount : matches.length;
    if (targetRows.length + count > updateJoinPairsMax) {
      throw sqlRuntimeError(`UPDATE ... FROM examines too many row pairs [max=${updateJoinPairsMax}]`, 0);
    }
    for (let k = 0; k < count; k++) {
      targetRows.push(row);
      sourceRows.push(matches === undefined ? k : matches[k]);
    }
  }
  return { target: Int32Array.from(targetRows), source: Int32Array.from(sourceRows), count: targetRows.length };
}
