// INNER, LEFT and CROSS joins. The right (build) side is materialised once per run and its rows are chained
// by key id (Int32Array heads/next, chains in right-table order); the left (probe) side streams, so output
// keeps left order and, per left row, right order. A residual ON condition is evaluated on candidate pairs;
// a LEFT join emits a NULL-extended row for every left row none of whose candidates survived.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent, openBothSides } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { CompiledFilter, CompiledProjection } from '../codegen/compile.js';
import { compileFilter, compileProjection } from '../codegen/compile.js';
import { RowPairs, assembleJoinBatch } from './join-output.js';
import { JoinKeyIndex } from './join-keys.js';
import { concatBatches, gatherBatch } from './vector-ops.js';
import { batchRowsMax } from '../../core/limits.js';
import { assert } from '../../core/assert.js';
import type { HashJoinSpec } from '../plan/plan-specs.js';
export type { HashJoinSpec };

/** The materialised right side with its rows chained by key id. */
interface BuildTable {
  readonly batch: ColumnBatch;
  readonly index: JoinKeyIndex | undefined;
  readonly heads: Int32Array;
  readonly next: Int32Array;
}

export class HashJoinFactory implements QueryFactory {
  private readonly leftKeys: CompiledProjection | undefined;
  private readonly rightKeys: CompiledProjection | undefined;
  private readonly residual: CompiledFilter | undefined;

  constructor(
    private readonly left: QueryFactory, private readonly right: QueryFactory, private readonly spec: HashJoinSpec,
    readonly columns: readonly OutputColumn[], readonly timestampIndex: number,
  ) {
    assert(spec.leftKeys.length === spec.rightKeys.length, 'join keys come in pairs');
    assert(columns.length === spec.outputs.length, 'one output column per join output');
    this.leftKeys = spec.leftKeys.length === 0 ? undefined : compileProjection(spec.leftKeys);
    this.rightKeys = spec.rightKeys.length === 0 ? undefined : compileProjection(spec.rightKeys);
    this.residual = spec.residual === undefined ? undefined : compileFilter(spec.residual);
  }

  open(ctx: ExecContext): Cursor {
    const sides = openBothSides(this.left, this.right, ctx);
    const leftCursor = sides.left;
    const rightCursor = sides.right;
    const probe = new HashJoinProbe(this.spec, this.leftKeys, this.residual, ctx);
    let table: BuildTable | undefined;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        table ??= this.buildTable(rightCursor, ctx);
        return probe.next(leftCursor, table);
      },
      close: sides.close,
    };
  }

  private buildTable(cursor: Cursor, ctx: ExecContext): BuildTable {
    const batch = concatBatches(drain(cursor, ctx), this.right.columns.map((column) => column.type));
    const rowCount = batch.rowCount;
    const next = new Int32Array(rowCount).fill(-1);
    if (this.rightKeys === undefined) {
      // Without keys every right row is a candidate: one chain over the whole table, in order.
      for (let row = 0; row + 1 < rowCount; row++) next[row] = row + 1;
      return { batch, index: undefined, heads: Int32Array.of(rowCount > 0 ? 0 : -1), next };
    }
    const index = new JoinKeyIndex();
    const ids = new Int32Array(rowCount);
    index.assign({ rowCount, vectors: this.rightKeys.run(batch, ctx.rt) }, ids, true);
    const heads = new Int32Array(index.size).fill(-1);
    const tails = new Int32Array(index.size).fill(-1);
    for (let row = 0; row < rowCount; row++) {
      const id = ids[row];
      const tail = tails[id];
      if (tail < 0) heads[id] = row;
      else next[tail] = row;
      tails[id] = row;
    }
    return { batch, index, heads, next };
  }

  explain(depth: number): string[] {
    const kind = this.spec.joinType === 'inner' ? 'Hash Join' : this.spec.joinType === 'left' ? 'Hash Outer Join' : 'Cross Join';
    const filter = this.residual === undefined ? '' : ' filter: compiled';
    return [indent(depth, `${kind}${filter}`), ...this.left.explain(depth + 1), indent(depth + 1, 'Hash'), ...this.right.explain(depth + 2)];
  }
}

/** Probe state of one run: the current left batch, its key ids and the next left row to pair. */
class HashJoinProbe {
  private batch: ColumnBatch | undefined;
  private ids = new Int32Array(0);
  private row = 0;
  private readonly pairs = new RowPairs();
  private readonly kept = new RowPairs();
  private selection = new Int32Array(0);

  constructor(
    private readonly spec: HashJoinSpec, private readonly keys: CompiledProjection | undefined,
    private readonly residual: CompiledFilter | undefined, private readonly ctx: ExecContext,
  ) {}

  next(input: Cursor, table: BuildTable): ColumnBatch | undefined {
    for (;;) {
      if (this.batch === undefined || this.row >= this.batch.rowCount) {
        const batch = input.nextBatch();
        if (batch === undefined) return undefined;
        this.ctx.checkCancelled();
        this.startBatch(batch, table);
        continue;
      }
      const firstRow = this.row;
      this.fillPairs(table);
      const out = this.residual === undefined ? this.plainChunk(table) : this.filteredChunk(table, firstRow);
      if (out !== undefined && out.rowCount > 0) return out;
    }
  }

  private startBatch(batch: ColumnBatch, table: BuildTable): void {
    this.batch = batch;
    this.row = 0;
    if (this.ids.length < batch.rowCount) this.ids = new Int32Array(batch.rowCount);
    if (this.keys === undefined || table.index === undefined) {
      this.ids.fill(0, 0, batch.rowCount);
      return;
    }
    table.index.assign({ rowCount: batch.rowCount, vectors: this.keys.run(batch, this.ctx.rt) }, this.ids, false);
  }

  /** Pairs whole left rows with their chains until the chunk reaches batchRowsMax pairs. */
  private fillPairs(table: BuildTable): void {
    const pairs = this.pairs;
    const ids = this.ids;
    const { heads, next } = table;
    const rowCount = (this.batch as ColumnBatch).rowCount;
    const nullExtend = this.spec.joinType === 'left' && this.residual === undefined;
    pairs.clear();
    let row = this.row;
    for (; row < rowCount && pairs.count < batchRowsMax; row++) {
      const id = ids[row];
      let right = id < 0 ? -1 : heads[id];
      if (right < 0 && nullExtend) pairs.push(row, -1);
      for (; right >= 0; right = next[right]) pairs.push(row, right);
    }
    this.row = row;
  }

  private plainChunk(table: BuildTable): ColumnBatch {
    const pairs = this.pairs;
    return assembleJoinBatch(this.spec.outputs, this.batch as ColumnBatch, pairs.left, table.batch, pairs.right, pairs.count);
  }

  /** Residual ON: keeps the candidates that pass; LEFT joins add a NULL row for left rows left without any. */
  private filteredChunk(table: BuildTable, firstRow: number): ColumnBatch | undefined {
    const candidates = this.plainChunk(table);
    if (this.selection.length < candidates.rowCount) this.selection = new Int32Array(candidates.rowCount);
    const matched = (this.residual as CompiledFilter).run(candidates, this.ctx.rt, this.selection);
    if (this.spec.joinType !== 'left') return matched === candidates.rowCount ? candidates : gatherBatch(candidates, this.selection, matched);
    const kept = this.kept;
    const pairs = this.pairs;
    kept.clear();
    let next = 0;
    for (let row = firstRow; row < this.row; row++) {
      const before = kept.count;
      while (next < matched && pairs.left[this.selection[next]] === row) {
        const pair = this.selection[next++];
        kept.push(row, pairs.right[pair]);
      }
      if (kept.count === before) kept.push(row, -1);
    }
    return assembleJoinBatch(this.spec.outputs, this.batch as ColumnBatch, kept.left, table.batch, kept.right, kept.count);
  }
}
