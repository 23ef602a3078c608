// The window operator: materialises its input, evaluates the window functions' argument, PARTITION BY and
// ORDER BY expressions once, and appends one column per window function. Per window specification it sorts a
// row permutation by (partition keys, order keys) — stable, so ties keep input order — and runs the kernels
// partition by partition; results are scattered straight back to input rows, so output rows keep the input
// order (window functions never reorder) and the designated timestamp stays valid.
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent } from './operator.js';
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { CompiledProjection } from '../codegen/compile.js';
import { compileProjection } from '../codegen/compile.js';
import type { SortKey } from './sort.js';
import { sortPermutation } from './sort.js';
import { concatBatches } from './vector-ops.js';
import type { WindowCallPlan, WindowSpecPlan } from '../plan/window-plan.js';
import type { FrameInputs } from './window-frames.js';
import { fillFrameBounds, fillPeers, partitionStarts } from './window-frames.js';
import { frameEdgeRows, frameExtremes, frameSums, offsetRows, rankings } from './window-kernels.js';
import { gatherRows, nonNullByPosition, numbersByPosition } from './window-vectors.js';
import { assertBatch } from './batch.js';
import { computedResultCursor } from './result-cursor.js';

/** The rows of one window specification, sorted, with partitions and peer groups located. */
interface SortedRows {
  readonly n: number;
  readonly order: Int32Array;
  readonly starts: Int32Array;
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
  readonly orderKeys: readonly Vector[];
  /** Direction of the first ORDER BY key (RANGE offsets measure along it). */
  readonly firstDescending: boolean;
}

export class WindowFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
  private readonly projection: CompiledProjection;

  constructor(private readonly child: QueryFactory, exprs: readonly BoundExpr[], private readonly windows: readonly WindowSpecPlan[], private readonly calls: readonly WindowCallPlan[]) {
    this.columns = [...child.columns, ...calls.map((call, k) => ({ name: `window${k}`, type: call.type }))];
    // Rows keep their input order, so the input's designated timestamp is still ascending.
    this.timestampIndex = child.timestampIndex;
    this.projection = compileProjection(exprs);
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return computedResultCursor(input, () => this.compute(input, ctx));
  }


  explain(depth: number): string[] {
    return [
      indent(depth, 'CachedWindow'),
      indent(depth, `  functions: [${this.calls.map((call) => call.text).join(',')}]`),
      ...this.child.explain(depth + 1),
    ];
  }

  private compute(input: Cursor, ctx: ExecContext): ColumnBatch {
    const batch = concatBatches(drain(input, ctx), this.child.columns.map((column) => column.type));
    assertBatch(batch, this.child.columns.length, 'window input');
    const evaluated = this.projection.run(batch, ctx.rt);
    const results = new Array<Vector>(this.calls.length);
    this.windows.forEach((spec, w) => {
      const calls = this.calls.map((call, k) => ({ call, k })).filter((entry) => entry.call.window === w);
      if (calls.length === 0) return;
      ctx.checkCancelled();
      const sorted = sortRows(batch.rowCount, spec, evaluated);
      for (const { call, k } of calls) results[k] = evaluateCall(call, sorted, evaluated);
    });
    const out: ColumnBatch = { rowCount: batch.rowCount, vectors: [...batch.vectors, ...results] };
    assertBatch(out, this.columns.length, 'window output');
    return out;
  }
}

function sortRows(n: number, spec: WindowSpecPlan, evaluated: readonly Vector[]): SortedRows {
  const partitionKeys = spec.partitionBy.map((index) => evaluated[index]);
  const orderKeys = spec.orderBy.map((key) => evaluated[key.exprIndex]);
  let order: Int32Array;
  if (partitionKeys.length === 0 && orderKeys.length === 0) {
    order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = k;
  } else {
    const keys: SortKey[] = [
      ...partitionKeys.map((_, k): SortKey => ({ index: k, descending: false })),
      ...spec.orderBy.map((key, k): SortKey => ({ index: partitionKeys.length + k, descending: key.descending, ...(key.nullsFirst === undefined ? {} : { nullsFirst: key.nullsFirst }) })),
    ];
    order = sortPermutation({ rowCount: n, vectors: [...partitionKeys, ...orderKeys] }, keys);
  }
  const starts = partitionStarts(order, partitionKeys);
  const peerStart = new Int32Array(n);
  const peerEnd = new Int32Array(n);
  for (let p = 0; p + 1 < starts.length; p++) fillPeers(order, orderKeys, starts[p], starts[p + 1], peerStart, peerEnd);
  return { n, order, starts, peerStart, peerEnd, orderKeys, firstDescending: spec.orderBy[0]?.descending === true };
}

function evaluateCall(call: WindowCallPlan, rows: SortedRows, evaluated: readonly Vector[]): Vector {
  const { n, order, starts } = rows;
  const arg = call.argIndex < 0 ? undefined : evaluated[call.argIndex];
  switch (call.kind) {
    case 'row_number': case 'rank': case 'dense_rank': {
      const out = new Float64Array(n);
      for (let p = 0; p + 1 < starts.length; p++) rankings(call.kind, rows.peerStart, starts[p], starts[p + 1], order, out);
      return { type: 'LONG', data: out };
    }
    case 'lag': case 'lead': {
      const source = arg as Vector;
      const targets = new Int32Array(n);
      const nonNull = call.ignoreNulls ? nonNullByPosition(source, order) : undefined;
      const scratch = new Int32Array(nonNull === undefined ? 0 : n);
      for (let p = 0; p + 1 < starts.length; p++) offsetRows(call.kind === 'lag' ? -1 : 1, call.offset, starts[p], starts[p + 1], order, nonNull, scratch, targets);
      return gatherRows(source, targets, call.defaultIndex < 0 ? undefined : evaluated[call.defaultIndex]);
    }
    default:
      return evaluateFrameCall(call, rows, arg);
  }
}

/** first_value, last_value, sum, avg, count, min, max: functions of each row's frame. */
function evaluateFrameCall(call: WindowCallPlan, rows: SortedRows, arg: Vector | undefined): Vector {
  const { n, order, starts } = rows;
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const firstOrderKey = rows.orderKeys[0];
  const isOffset = (kind: string): boolean => kind === 'preceding' || kind === 'following';
  const rangeOffsets = call.frame.mode === 'range' && (isOffset(call.frame.start.kind) || isOffset(call.frame.end.kind));
  const inputs: FrameInputs = {
    peerStart: rows.peerStart, peerEnd: rows.peerEnd,
    keys: rangeOffsets && firstOrderKey !== undefined ? numbersByPosition(firstOrderKey, order, rows.firstDescending) : undefined,
  };
  for (let p = 0; p + 1 < starts.length; p++) fillFrameBounds(call.frame, starts[p], starts[p + 1], inputs, lo, hi);
  switch (call.kind) {
    case 'first_value': case 'last_value': {
      const source = arg as Vector;
      const targets = new Int32Array(n);
      const nonNull = call.ignoreNulls ? nonNullByPosition(source, order) : undefined;
      const scratch = new Int32Array(nonNull === undefined ? 0 : n);
      for (let p = 0; p + 1 < starts.length; p++) frameEdgeRows(call.kind === 'first_value' ? 'first' : 'last', lo, hi, starts[p], starts[p + 1], order, nonNull, scratch, targets);
      return gatherRows(source, targets, undefined);
    }
    case 'min': case 'max': {
      const values = numbersByPosition(arg as Vector, order, false);
      const deque = new Int32Array(n);
      const out = new Float64Array(n);
      for (let p = 0; p + 1 < starts.length; p++) frameExtremes(values, lo, hi, starts[p], starts[p + 1], order, call.kind === 'max', deque, out);
      return { type: call.type, data: out };
    }
    default: {
      // count(*) counts every row: a frame of ones; count(x) counts non-null x; sum/avg read the values.
      const values = arg === undefined ? new Float64Array(n).fill(1) : call.kind === 'count' ? presenceByPosition(arg, order) : numbersByPosition(arg, order, false);
      const sums = new Float64Array(n);
      const counts = new Float64Array(n);
      for (let p = 0; p + 1 < starts.length; p++) frameSums(values, lo, hi, starts[p], starts[p + 1], order, sums, counts);
      if (call.kind === 'count') return { type: 'LONG', data: counts };
      if (call.kind === 'avg') for (let row = 0; row < n; row++) sums[row] = sums[row] / counts[row];
      return { type: 'DOUBLE', data: sums };
    }
  }
}

function presenceByPosition(vector: Vector, order: Int32Array): Float64Array {
  const present = nonNullByPosition(vector, order);
  const out = new Float64Array(order.length);
  for (let i = 0; i < out.length; i++) out[i] = present[i] === 1 ? 1 : NaN;
  return out;
}
