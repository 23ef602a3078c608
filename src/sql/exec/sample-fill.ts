// SAMPLE BY ... FILL: adds the buckets SAMPLE BY left out. Input is SAMPLE BY's output [bucket start, keys...,
// aggregates...] in bucket order; output has one row per bucket (per key when keyed, every key seen anywhere in
// every bucket) from the first to the last non-empty bucket, or over [FROM, TO). Missing aggregate values are
// NULL, the previous row's value of the same key (PREV), a constant, or interpolated between the neighbouring
// non-empty buckets (LINEAR, non-keyed only). Rows are chosen as selection vectors (input row or -1), then each
// column is gathered once; no per-row objects.
import type { ColumnBatch, NumericVectorData, Vector } from './batch.js';
import { allocateVectorData } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent } from './operator.js';
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { SamplerSpec } from './sample-by-sampler.js';
import { createSampler } from './sample-by-sampler.js';
import { evaluateConstant } from './sample-by.js';
import { KeyIds } from './key-ids.js';
import { concatBatches, nullVector } from './vector-ops.js';
import { compileProjection } from '../codegen/compile.js';
import { vectorKindOfType } from '../../types/column-type.js';
import { sampleFillRowsMax } from '../../core/limits.js';
import { SqlError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';
import { computedResultCursor } from './result-cursor.js';
import type { FillMode } from '../plan/plan-specs.js';
export type { FillMode };

export interface SampleFillOptions {
  readonly keyCount: number;
  /** One per aggregate column, in output order. */
  readonly fills: readonly FillMode[];
  readonly sampler: SamplerSpec;
  readonly from?: BoundExpr;
  readonly to?: BoundExpr;
}

/** Which input row each output row takes: `rows` (-1: a filled row), `prev` and `keyRows` for filled rows. */
interface FillSelection {
  count: number;
  timestamps: Float64Array;
  rows: Int32Array;
  prev: Int32Array;
  keyRows: Int32Array;
}

export class SampleFillFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex = 0;

  /** Owns `child`. */
  constructor(private readonly child: QueryFactory, private readonly options: SampleFillOptions) {
    assert(child.columns.length === 1 + options.keyCount + options.fills.length, 'FILL input is [ts, keys..., aggregates...]');
    assert(!options.fills.some((fill) => fill.kind === 'linear') || options.keyCount === 0, 'LINEAR fill is rejected for keyed SAMPLE BY at bind time');
    this.columns = child.columns;
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return computedResultCursor(input, () => this.fill(concatBatches(drain(input, ctx), this.child.columns.map((column) => column.type)), ctx));
  }


  private fill(input: ColumnBatch, ctx: ExecContext): ColumnBatch {
    const from = this.options.from === undefined ? Number.NaN : evaluateConstant(this.options.from, ctx);
    const to = this.options.to === undefined ? Number.NaN : evaluateConstant(this.options.to, ctx);
    const rowCount = input.rowCount;
    if (rowCount === 0 && (from !== from || to !== to)) return input;
    const timestamps = (rowCount === 0 ? new Float64Array(0) : input.vectors[0]?.data) as Float64Array;
    const first = rowCount > 0 ? timestamps[0] : from;
    const spec = this.options.sampler;
    const sampler = createSampler(spec, spec.alignFirstObservation ? first : from === from ? from : undefined, first);
    const start = from === from ? sampler.bucketOf(from) : first;
    // Without TO the last non-empty bucket is the last one filled.
    const end = to === to ? to : timestamps[rowCount - 1] + 1;
    const { ids, keyTotal } = this.keyIdsOf(input);
    const selection = selectRows(timestamps, rowCount, ids, keyTotal, start, end, (bucket) => sampler.nextBucket(bucket), ctx);
    const vectors: Vector[] = [{ type: 'TIMESTAMP', data: selection.timestamps.subarray(0, selection.count) }];
    for (let k = 1; k <= this.options.keyCount; k++) vectors.push(gatherOrFallback(input.vectors[k], selection.keyRows, selection.count, undefined));
    this.options.fills.forEach((fill, j) => {
      const column = input.vectors[1 + this.options.keyCount + j];
      vectors.push(this.fillColumn(column, fill, selection, ctx));
    });
    return { rowCount: selection.count, vectors };
  }

  private keyIdsOf(input: ColumnBatch): { ids: Int32Array; keyTotal: number } {
    const ids = new Int32Array(input.rowCount);
    if (this.options.keyCount === 0) return { ids, keyTotal: 1 };
    const keys = new KeyIds(this.options.keyCount);
    keys.assign(input.vectors.slice(1, 1 + this.options.keyCount), input.rowCount, ids);
    return { ids, keyTotal: keys.count };
  }

  private fillColumn(column: Vector, fill: FillMode, selection: FillSelection, ctx: ExecContext): Vector {
    const count = selection.count;
    switch (fill.kind) {
      case 'null': return gatherOrFallback(column, selection.rows, count, undefined);
      case 'value': {
        const constant = compileProjection([fill.value]).run({ rowCount: 1, vectors: [] }, ctx.rt)[0];
        return gatherOrFallback(column, selection.rows, count, constant);
      }
      case 'prev': {
        const rows = new Int32Array(count);
        for (let k = 0; k < count; k++) rows[k] = selection.rows[k] >= 0 ? selection.rows[k] : selection.prev[k];
        return gatherOrFallback(column, rows, count, undefined);
      }
      case 'linear': {
        const gathered = gatherOrFallback(column, selection.rows, count, undefined);
        interpolate(gathered, selection);
        return gathered;
      }
    }
  }

  explain(depth: number): string[] {
    const modes = this.options.fills.map((fill) => fill.kind).join(',');
    return [indent(depth, `Fill values: [${modes}]${this.options.from === undefined && this.options.to === undefined ? '' : ' range: from-to'}`), ...this.child.explain(depth + 1)];
  }
}

/** Walks the buckets [start, end) and, per bucket, every key: its row there, or a filled row. */
function selectRows(timestamps: Float64Array, rowCount: number, ids: Int32Array, keyTotal: number, start: number, end: number, next: (bucket: number) => number, ctx: ExecContext): FillSelection {
  const firstRow = new Int32Array(keyTotal).fill(-1);
  for (let row = rowCount - 1; row >= 0; row--) firstRow[ids[row]] = row;
  const lastRow = new Int32Array(keyTotal).fill(-1);
  const bucketTag = new Int32Array(keyTotal);
  const bucketRow = new Int32Array(keyTotal);
  const out = new SelectionBuilder();
  let row = 0;
  let tag = 0;
  for (let bucket = start; bucket < end;) {
    const following = next(bucket);
    assert(following > bucket, 'buckets advance');
    tag++;
    while (row < rowCount && timestamps[row] < following) {
      if (timestamps[row] >= bucket) {
        bucketTag[ids[row]] = tag;
        bucketRow[ids[row]] = row;
      }
      row++;
    }
    if (out.count + keyTotal > sampleFillRowsMax) throw new SqlError(`SAMPLE BY FILL would produce too many rows [max=${sampleFillRowsMax}]`, 0, 'SVC_SQL_LIMIT');
    for (let key = 0; key < keyTotal; key++) {
      if (bucketTag[key] === tag) {
        const real = bucketRow[key];
        out.add(bucket, real, real, real);
        lastRow[key] = real;
      } else {
        out.add(bucket, -1, lastRow[key], firstRow[key]);
      }
    }
    if ((tag & 1023) === 0) ctx.checkCancelled();
    bucket = following;
  }
  return out;
}

class SelectionBuilder implements FillSelection {
  count = 0;
  timestamps: Float64Array = new Float64Array(64);
  rows: Int32Array = new Int32Array(64);
  prev: Int32Array = new Int32Array(64);
  keyRows: Int32Array = new Int32Array(64);

  add(bucket: number, row: number, prev: number, keyRow: number): void {
    if (this.count === this.rows.length) this.grow();
    this.timestamps[this.count] = bucket;
    this.rows[this.count] = row;
    this.prev[this.count] = prev;
    this.keyRows[this.count] = keyRow;
    this.count++;
  }

  private grow(): void {
    const size = this.rows.length * 2;
    const timestamps = new Float64Array(size);
    timestamps.set(this.timestamps);
    this.timestamps = timestamps;
    this.rows = grownInt32(this.rows, size);
    this.prev = grownInt32(this.prev, size);
    this.keyRows = grownInt32(this.keyRows, size);
  }
}

function grownInt32(array: Int32Array, size: number): Int32Array {
  const next = new Int32Array(size);
  next.set(array);
  return next;
}

/** Rows `selection[k]` of `vector`; -1 takes the fallback's first value (NULL when there is none). */
function gatherOrFallback(vector: Vector, selection: Int32Array, count: number, fallback: Vector | undefined): Vector {
  const source = vector.data;
  const filler = fallback ?? nullVector(vector.type, 1);
  const out = allocateVectorData(vector.type, count);
  if (ArrayBuffer.isView(source)) {
    const target = out as NumericVectorData;
    const fillValue = Number(filler.data[0]);
    const data = source;
    for (let k = 0; k < count; k++) {
      const row = selection[k];
      target[k] = row >= 0 ? data[row] : fillValue;
    }
  } else {
    const target = out as unknown[];
    const fillValue = filler.data[0] ?? null;
    for (let k = 0; k < count; k++) {
      const row = selection[k];
      target[k] = row >= 0 ? source[row] : fillValue;
    }
  }
  return vector.symbols === undefined ? { type: vector.type, data: out } : { type: vector.type, data: out, symbols: vector.symbols };
}

/** LINEAR: each filled row gets the value on the line between the non-empty buckets around it (by timestamp). */
function interpolate(vector: Vector, selection: FillSelection): void {
  const kind = vectorKindOfType(vector.type);
  if (kind !== 'f64' && kind !== 'f32' && kind !== 'i32' && kind !== 'i16' && kind !== 'i8') return;
  const data = vector.data as NumericVectorData;
  const integer = vector.type !== 'DOUBLE' && vector.type !== 'FLOAT';
  const intNull = vector.type === 'INT' ? -2147483648 : Number.NaN;
  const isNull = (value: number): boolean => value !== value || value === intNull;
  const { rows, timestamps, count } = selection;
  let before = -1;
  for (let k = 0; k < count; k++) {
    if (rows[k] >= 0) {
      before = k;
      continue;
    }
    let after = k + 1;
    while (after < count && rows[after] < 0) after++;
    for (let gap = k; gap < after; gap++) {
      if (before < 0 || after >= count || isNull(data[before]) || isNull(data[after])) continue;
      const y0 = data[before];
      const share = (timestamps[gap] - timestamps[before]) / (timestamps[after] - timestamps[before]);
      const value = y0 + (data[after] - y0) * share;
      data[gap] = integer ? y0 + Math.trunc((data[after] - y0) * share) : value;
    }
    k = after - 1;
  }
}
