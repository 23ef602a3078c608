// SPLICE JOIN: a full as-of join in both directions. Both sides are materialised and merged by designated
// timestamp; every row of either side produces one output row pairing the latest left and the latest right
// row (of the same key) at or before it. On equal timestamps the right row goes first, so a left row sees a
// right row with its own timestamp, as ASOF does. Sides without a row yet read as NULL.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent, openBothSides } from './operator.js';
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import { RowPairs, assembleJoinBatch } from './join-output.js';
import { JoinKeyIndex } from './join-keys.js';
import { concatBatches } from './vector-ops.js';
import { compileProjection } from '../codegen/compile.js';
import { batchRowsMax } from '../../core/limits.js';
import { assert } from '../../core/assert.js';
import type { SpliceJoinSpec } from '../plan/plan-specs.js';
export type { SpliceJoinSpec };

/** Key ids of a materialised side; all zero without keys. */
function sideIds(batch: ColumnBatch, keys: readonly BoundExpr[], index: JoinKeyIndex, ctx: ExecContext): Int32Array {
  const ids = new Int32Array(batch.rowCount);
  if (keys.length > 0) index.assign({ rowCount: batch.rowCount, vectors: compileProjection(keys).run(batch, ctx.rt) }, ids, true);
  return ids;
}

/** The merged (left row, right row) sequence; -1 where a side has no row yet for the key. */
function splicePairs(
  leftTs: Float64Array, leftIds: Int32Array, leftCount: number, rightTs: Float64Array, rightIds: Int32Array, rightCount: number, idCount: number,
): RowPairs {
  const latestLeft = new Int32Array(idCount).fill(-1);
  const latestRight = new Int32Array(idCount).fill(-1);
  const pairs = new RowPairs();
  let l = 0;
  let r = 0;
  while (l < leftCount || r < rightCount) {
    if (r < rightCount && (l >= leftCount || rightTs[r] <= leftTs[l])) {
      const id = rightIds[r];
      latestRight[id] = r;
      pairs.push(latestLeft[id], r++);
    } else {
      const id = leftIds[l];
      latestLeft[id] = l;
      pairs.push(l++, latestRight[id]);
    }
  }
  return pairs;
}

export class SpliceJoinFactory implements QueryFactory {
  readonly timestampIndex = -1;

  constructor(private readonly left: QueryFactory, private readonly right: QueryFactory, private readonly spec: SpliceJoinSpec, readonly columns: readonly OutputColumn[]) {
    assert(spec.leftKeys.length === spec.rightKeys.length, 'join keys come in pairs');
  }

  open(ctx: ExecContext): Cursor {
    const sides = openBothSides(this.left, this.right, ctx);
    const leftCursor = sides.left;
    const rightCursor = sides.right;
    let merged: { left: ColumnBatch; right: ColumnBatch; pairs: RowPairs } | undefined;
    let emitted = 0;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        merged ??= this.merge(leftCursor, rightCursor, ctx);
        if (emitted >= merged.pairs.count) return undefined;
        const count = Math.min(batchRowsMax, merged.pairs.count - emitted);
        const leftRows = merged.pairs.left.subarray(emitted, emitted + count);
        const rightRows = merged.pairs.right.subarray(emitted, emitted + count);
        emitted += count;
        return assembleJoinBatch(this.spec.outputs, merged.left, leftRows, merged.right, rightRows, count);
      },
      close: sides.close,
    };
  }

  private merge(leftCursor: Cursor, rightCursor: Cursor, ctx: ExecContext): { left: ColumnBatch; right: ColumnBatch; pairs: RowPairs } {
    const left = concatBatches(drain(leftCursor, ctx), this.left.columns.map((column) => column.type));
    const right = concatBatches(drain(rightCursor, ctx), this.right.columns.map((column) => column.type));
    const index = new JoinKeyIndex();
    const leftIds = sideIds(left, this.spec.leftKeys, index, ctx);
    const rightIds = sideIds(right, this.spec.rightKeys, index, ctx);
    const idCount = Math.max(1, index.size);
    const leftTs = left.vectors[this.spec.leftTimestamp]?.data as Float64Array;
    const rightTs = right.vectors[this.spec.rightTimestamp]?.data as Float64Array;
    const pairs = splicePairs(leftTs, leftIds, left.rowCount, rightTs, rightIds, right.rowCount, idCount);
    return { left, right, pairs };
  }

  explain(depth: number): string[] {
    return [indent(depth, 'Splice Join'), ...this.left.explain(depth + 1), ...this.right.explain(depth + 1)];
  }
}
