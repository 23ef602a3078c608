// The FROM source of UPDATE t SET ... FROM source WHERE ...: run once at bind time and materialised, its rows
// joined with every partition of the target by the engine. Equality conjuncts of WHERE between a target-only
// and a source-only expression become hash keys (source rows indexed by key text here, target keys compiled
// for the engine to evaluate per partition); the whole WHERE is then evaluated over the joined pairs.
import type { Expr, FromSource, SelectQuery } from '../syntax/ast.js';
import type { BoundExpr } from './bound.js';
import type { ColumnBatch, Vector } from '../exec/batch.js';
import type { ValueType } from '../../types/column-type.js';
import type { RuntimeHelpers } from '../codegen/runtime.js';
import { createRuntime } from '../codegen/runtime.js';
import type { CompiledProjection } from '../codegen/compile.js';
import { compileProjection } from '../codegen/compile.js';
import { createExecContext, drain } from '../exec/operator.js';
import { concatBatches } from '../exec/vector-ops.js';
import { vectorValue } from '../exec/vector-value.js';
import { bindExpression } from './bind-expression.js';
import type { Scope } from './scope.js';
import type { SourceEnv } from './bind-source.js';

/** The materialised FROM source of an UPDATE, with its equi-join keys when WHERE has any. */
export interface UpdateSource {
  readonly batch: ColumnBatch;
  /** Source rows by key text (updateKeyText); undefined when WHERE has no usable equality (every pair is a candidate). */
  readonly index: Map<string, number[]> | undefined;
  /** Target-side key expressions, evaluated over each target partition. */
  readonly targetKeys: CompiledProjection | undefined;
}

/** The source's rows and the names its columns have in the UPDATE's scope. */
export interface LoadedUpdateSource {
  readonly batch: ColumnBatch;
  readonly qualifiers: readonly string[];
  readonly names: readonly { readonly name: string; readonly type: ValueType }[];
}

/** Runs the FROM source once; its rows are joined with every partition of the target. */
export function loadUpdateSource(from: FromSource, env: SourceEnv, nowMicros: number, timeoutMs: number): LoadedUpdateSource {
  const query: SelectQuery = {
    kind: 'select', position: from.position, with: [], distinct: false, columns: [{ expr: { kind: 'star', position: from.position } }],
    from, groupBy: [], orderBy: [],
  };
  const factory = env.compileQuery(query);
  const ctx = createExecContext(createRuntime(nowMicros), { deadlineMs: Date.now() + timeoutMs, cancelled: false }, timeoutMs);
  const cursor = factory.open(ctx);
  try {
    const batch = concatBatches(drain(cursor, ctx), factory.columns.map((column) => column.type));
    const alias = from.kind === 'join' ? undefined : from.alias;
    // An alias replaces the table name, so `UPDATE up ... FROM up up2` tells the two sides apart.
    const qualifiers = alias !== undefined ? [alias.name] : from.kind === 'table' ? [from.name] : [];
    return { batch, qualifiers, names: factory.columns.map((column) => ({ name: column.name, type: column.type })) };
  } finally {
    cursor.close();
  }
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

/** The join key of row `row` as text: one part per key vector, nulls (and NaN) apart from every value. */
export function updateKeyText(vectors: readonly Vector[], row: number): string {
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

/** Indexes the source rows by the equi-join keys WHERE gives (scope: target columns first, then the source's). */
export function prepareUpdateSource(batch: ColumnBatch, where: Expr | undefined, scope: Scope, targetWidth: number, rt: RuntimeHelpers): UpdateSource {
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
    const key = updateKeyText(keyVectors, row);
    const rows = index.get(key);
    if (rows === undefined) index.set(key, [row]);
    else rows.push(row);
  }
  return { batch, index, targetKeys: compileProjection(targetKeys) };
}
