// ASOF and LT joins: one merge pass over both sides' designated timestamps, O(n + m). The right side is
// materialised once per run; a single right cursor position advances while right.ts <= left.ts (ASOF) or
// right.ts < left.ts (LT), recording the latest right row per key id in an Int32Array, so several right
// rows with the same timestamp leave the last one in table order. Every left row is emitted, in order;
// right columns are NULL without a match or when the match is older than the TOLERANCE.
import type { ColumnBatch, Vector } from './batch.js';
import { applyToleranceNanos, matchKeyedNanos, matchUnkeyedNanos, nanosOfTimestampVector } from './asof-nanos.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent, openBothSides } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { CompiledProjection } from '../codegen/compile.js';
import { compileProjection } from '../codegen/compile.js';
import { assembleJoinBatch } from './join-output.js';
import { JoinKeyIndex } from './join-keys.js';
import { concatBatches } from './vector-ops.js';
import { assert } from '../../core/assert.js';
import type { AsofJoinSpec } from '../plan/plan-specs.js';
export type { AsofJoinSpec };

/** The materialised right side: timestamps as numbers, key ids (undefined without keys). */
interface RightSide {
  readonly batch: ColumnBatch;
  readonly timestamps: Float64Array;
  /** Both sides' timestamps as exact ns, when either is TIMESTAMP_NS. */
  readonly nanos: BigInt64Array | undefined;
  readonly ids: Int32Array | undefined;
  readonly index: JoinKeyIndex | undefined;
}

/**
 * Advances the right cursor over rows with ts <= bound(left ts) and writes each left row's match.
 * Returns the new right position. `latest` holds the last right row seen per key id.
 */
function matchKeyed(
  leftTs: Float64Array, leftIds: Int32Array, leftCount: number, rightTs: Float64Array, rightIds: Int32Array, rightCount: number,
  latest: Int32Array, start: number, strictOffset: number, out: Int32Array,
): number {
  let right = start;
  for (let row = 0; row < leftCount; row++) {
    const bound = leftTs[row] - strictOffset;
    while (right < rightCount && rightTs[right] <= bound) {
      latest[rightIds[right]] = right;
      right++;
    }
    const id = leftIds[row];
    out[row] = id < 0 ? -1 : latest[id];
  }
  return right;
}

function matchUnkeyed(leftTs: Float64Array, leftCount: number, rightTs: Float64Array, rightCount: number, start: number, strictOffset: number, out: Int32Array): number {
  let right = start;
  for (let row = 0; row < leftCount; row++) {
    const bound = leftTs[row] - strictOffset;
    while (right < rightCount && rightTs[right] <= bound) right++;
    out[row] = right - 1;
  }
  return right;
}

function applyTolerance(leftTs: Float64Array, rightTs: Float64Array, matches: Int32Array, count: number, toleranceMicros: number): void {
  for (let row = 0; row < count; row++) {
    const match = matches[row];
    if (match >= 0 && leftTs[row] - rightTs[match] > toleranceMicros) matches[row] = -1;
  }
}

export class AsofJoinFactory implements QueryFactory {
  private readonly leftKeys: CompiledProjection | undefined;
  private readonly rightKeys: CompiledProjection | undefined;
  private readonly nanos: boolean;

  constructor(
    private readonly left: QueryFactory, private readonly right: QueryFactory, private readonly spec: AsofJoinSpec,
    readonly columns: readonly OutputColumn[], readonly timestampIndex: number,
  ) {
    assert(spec.leftKeys.length === spec.rightKeys.length, 'join keys come in pairs');
    const leftType = left.columns[spec.leftTimestamp]?.type;
    const rightType = right.columns[spec.rightTimestamp]?.type;
    assert((leftType === 'TIMESTAMP' || leftType === 'TIMESTAMP_NS') && (rightType === 'TIMESTAMP' || rightType === 'TIMESTAMP_NS'), 'as-of inputs carry their timestamps');
    this.nanos = leftType === 'TIMESTAMP_NS' || rightType === 'TIMESTAMP_NS';
    this.leftKeys = spec.leftKeys.length === 0 ? undefined : compileProjection(spec.leftKeys);
    this.rightKeys = spec.rightKeys.length === 0 ? undefined : compileProjection(spec.rightKeys);
  }

  open(ctx: ExecContext): Cursor {
    const sides = openBothSides(this.left, this.right, ctx);
    const leftCursor = sides.left;
    const rightCursor = sides.right;
    // LT excludes equal timestamps: with integer µs, `< t` is `<= t - 1`.
    const strictOffset = this.spec.joinType === 'lt' ? 1 : 0;
    let side: RightSide | undefined;
    let latest = new Int32Array(0);
    let position = 0;
    let leftIds = new Int32Array(0);
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (side === undefined) {
          side = this.materializeRight(rightCursor, ctx);
          latest = new Int32Array(side.index?.size ?? 0).fill(-1);
        }
        const batch = leftCursor.nextBatch();
        if (batch === undefined) return undefined;
        ctx.checkCancelled();
        const count = batch.rowCount;
        const leftTs = batch.vectors[this.spec.leftTimestamp]?.data as Float64Array;
        const rightCount = side.batch.rowCount;
        const matches = new Int32Array(count);
        if (side.nanos !== undefined) {
          const leftNanos = nanosOfTimestampVector(batch.vectors[this.spec.leftTimestamp], count);
          if (side.ids === undefined || side.index === undefined || this.leftKeys === undefined) {
            position = matchUnkeyedNanos(leftNanos, count, side.nanos, rightCount, position, BigInt(strictOffset), matches);
          } else {
            if (leftIds.length < count) leftIds = new Int32Array(count);
            side.index.assign({ rowCount: count, vectors: this.leftKeys.run(batch, ctx.rt) }, leftIds, false);
            position = matchKeyedNanos(leftNanos, leftIds, count, side.nanos, side.ids, rightCount, latest, position, BigInt(strictOffset), matches);
          }
          if (this.spec.toleranceMicros !== undefined) applyToleranceNanos(leftNanos, side.nanos, matches, count, BigInt(this.spec.toleranceMicros) * 1000n);
          return assembleJoinBatch(this.spec.outputs, batch, undefined, side.batch, matches, count);
        }
        if (side.ids === undefined || side.index === undefined || this.leftKeys === undefined) {
          position = matchUnkeyed(leftTs, count, side.timestamps, rightCount, position, strictOffset, matches);
        } else {
          if (leftIds.length < count) leftIds = new Int32Array(count);
          side.index.assign({ rowCount: count, vectors: this.leftKeys.run(batch, ctx.rt) }, leftIds, false);
          position = matchKeyed(leftTs, leftIds, count, side.timestamps, side.ids, rightCount, latest, position, strictOffset, matches);
        }
        if (this.spec.toleranceMicros !== undefined) applyTolerance(leftTs, side.timestamps, matches, count, this.spec.toleranceMicros);
        return assembleJoinBatch(this.spec.outputs, batch, undefined, side.batch, matches, count);
      },
      close: sides.close,
    };
  }

  private materializeRight(cursor: Cursor, ctx: ExecContext): RightSide {
    const batch = concatBatches(drain(cursor, ctx), this.right.columns.map((column) => column.type));
    const timestamps = batch.vectors[this.spec.rightTimestamp]?.data as Float64Array;
    const nanos = this.nanos ? nanosOfTimestampVector(batch.vectors[this.spec.rightTimestamp], batch.rowCount) : undefined;
    if (this.rightKeys === undefined) return { batch, timestamps, nanos, ids: undefined, index: undefined };
    const index = new JoinKeyIndex();
    const ids = new Int32Array(batch.rowCount);
    index.assign({ rowCount: batch.rowCount, vectors: this.rightKeys.run(batch, ctx.rt) }, ids, true);
    return { batch, timestamps, nanos, ids, index };
  }

  explain(depth: number): string[] {
    const name = this.spec.joinType === 'asof' ? 'AsOf Join' : 'Lt Join';
    const tolerance = this.spec.toleranceMicros === undefined ? '' : ` tolerance: ${this.spec.toleranceMicros}us`;
    return [indent(depth, `${name}${tolerance}`), ...this.left.explain(depth + 1), ...this.right.explain(depth + 1)];
  }
}
