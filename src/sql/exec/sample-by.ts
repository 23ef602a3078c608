// SAMPLE BY aggregation over timestamp-ordered input. Input columns are [ts, keys..., aggregate arguments...];
// output is [bucket start, keys..., aggregates...], one row per non-empty bucket (per key tuple when keyed), in
// bucket order. Each batch is cut into runs of rows sharing a bucket: one bucket computation per run and a binary
// search for its end over the ordered timestamps (a linear walk when the order is only promised by a subquery's
// TIMESTAMP(col)). Non-keyed aggregates fold whole runs into per-bucket slots, with no hashing at all.
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { AggregateSpec } from './group-by.js';
import type { Sampler, SamplerSpec } from './sample-by-sampler.js';
import { createSampler } from './sample-by-sampler.js';
import type { SampleKernel } from './sample-by-kernels.js';
import { createSampleKernels } from './sample-by-kernels.js';
import { SampleRuns } from './sample-by-runs.js';
import { KeyIds } from './key-ids.js';
import { gatherVector } from './vector-ops.js';
import { compileProjection } from '../codegen/compile.js';
import { assert } from '../../core/assert.js';
import { computedResultCursor } from './result-cursor.js';
import { microsBatchOfNanos } from './sample-by-nanos.js';

export interface SampleByOptions {
  /** Input columns 1..keyCount are the keys (column 0 is the timestamp). */
  readonly keyCount: number;
  readonly aggregates: readonly AggregateSpec[];
  readonly sampler: SamplerSpec;
  /** FROM / TO bounds (constant expressions, evaluated when a run starts). */
  readonly from?: BoundExpr;
  readonly to?: BoundExpr;
  /** The input is a table scan: timestamps are known to ascend, so run ends are found by binary search. */
  readonly ordered: boolean;
}

/** Value of a constant expression (FROM, TO, fill values) for this run of the query; NaN for null. */
export function evaluateConstant(expr: BoundExpr, ctx: ExecContext): number {
  const vector = compileProjection([expr]).run({ rowCount: 1, vectors: [] }, ctx.rt)[0];
  return Number(vector.data[0]);
}

export class SampleByFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex = 0;
  private readonly nanos: boolean;

  /** Owns `child`. */
  constructor(private readonly child: QueryFactory, private readonly options: SampleByOptions) {
    const timestamp = child.columns[0];
    assert(timestamp?.type === 'TIMESTAMP' || timestamp?.type === 'TIMESTAMP_NS', 'SAMPLE BY input starts with the designated timestamp');
    this.nanos = timestamp.type === 'TIMESTAMP_NS';
    const keys = child.columns.slice(1, 1 + options.keyCount);
    const values = options.aggregates.map((spec) => ({ name: spec.name, type: spec.resultType }));
    // ns input is sampled on its µs floors; NanosBucketFactory turns the bucket starts back into ns.
    this.columns = [{ ...timestamp, type: 'TIMESTAMP' }, ...keys, ...values];
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return computedResultCursor(input, () => this.aggregate(input, ctx));
  }


  private aggregate(input: Cursor, ctx: ExecContext): ColumnBatch {
    const { keyCount, aggregates } = this.options;
    const from = this.options.from === undefined ? undefined : evaluateConstant(this.options.from, ctx);
    const kernels = createSampleKernels(aggregates);
    const runs = new SampleRuns(this.options.ordered);
    const groups = keyCount === 0 ? undefined : new KeyedGroups(keyCount);
    let sampler: Sampler | undefined;
    for (let next = input.nextBatch(); next !== undefined; next = input.nextBatch()) {
      ctx.checkCancelled();
      if (next.rowCount === 0) continue;
      const batch = this.nanos ? microsBatchOfNanos(next) : next;
      if (sampler === undefined) {
        const first = SampleRuns.firstTimestamp(batch);
        // Rows with a null timestamp belong to no bucket; the sampler starts at the first that has one.
        if (first !== first) continue;
        sampler = this.startSampler(first, from);
      }
      const clean = runs.cut(batch, sampler);
      if (groups === undefined) {
        aggregates.forEach((spec, k) => feedRuns(kernels[k], argOf(clean, spec), clean.rowCount, runs));
      } else {
        const ids = groups.assign(clean, runs);
        aggregates.forEach((spec, k) => kernels[k].addRows(argOf(clean, spec), clean.rowCount, ids, groups.count));
      }
    }
    return groups === undefined ? this.nonKeyedResult(runs, kernels) : this.keyedResult(runs, groups, kernels);
  }

  private startSampler(firstTimestamp: number, from: number | undefined): Sampler {
    const origin = this.options.sampler.alignFirstObservation ? firstTimestamp : from === undefined || from !== from ? undefined : from;
    return createSampler(this.options.sampler, origin, origin ?? firstTimestamp);
  }

  private nonKeyedResult(runs: SampleRuns, kernels: readonly SampleKernel[]): ColumnBatch {
    const order = runs.slotOrder();
    const count = order.length;
    const starts = runs.slotStarts();
    const timestamps = new Float64Array(count);
    for (let k = 0; k < count; k++) timestamps[k] = starts[order[k]];
    const values = kernels.map((kernel) => gatherVector(kernel.result(runs.slotCount), order, count));
    return { rowCount: count, vectors: [{ type: 'TIMESTAMP', data: timestamps }, ...values] };
  }

  private keyedResult(runs: SampleRuns, groups: KeyedGroups, kernels: readonly SampleKernel[]): ColumnBatch {
    const count = groups.count;
    const starts = runs.slotStarts();
    const order = groups.order(starts);
    const timestamps = new Float64Array(count);
    const keyRows = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const group = order[k];
      timestamps[k] = starts[groups.slotOf(group)];
      keyRows[k] = groups.keyOf(group);
    }
    const keyTypes = this.columns.slice(1, 1 + this.options.keyCount).map((column) => column.type);
    const keys = groups.keyVectors(keyTypes).map((vector) => gatherVector(vector, keyRows, count));
    const values = kernels.map((kernel) => gatherVector(kernel.result(count), order, count));
    return { rowCount: count, vectors: [{ type: 'TIMESTAMP', data: timestamps }, ...keys, ...values] };
  }

  explain(depth: number): string[] {
    const { keyCount, aggregates, sampler } = this.options;
    const keys = keyCount === 0 ? '' : ` keys: [${this.columns.slice(1, 1 + keyCount).map((column) => column.name).join(',')}]`;
    const align = sampler.alignFirstObservation ? 'first observation' : `calendar${sampler.timeZone === undefined ? '' : ` tz: ${sampler.timeZone.name}`}`;
    return [
      indent(depth, `Sample By ${sampler.count}${sampler.unit} align: ${align}${keys} values: [${aggregates.map((spec) => spec.name).join(',')}]`),
      ...this.child.explain(depth + 1),
    ];
  }
}

function argOf(batch: ColumnBatch, spec: AggregateSpec): Vector | undefined {
  return spec.argIndex < 0 ? undefined : batch.vectors[spec.argIndex];
}

/** Non-keyed: fast kernels fold each run; general kernels get per-row slot ids. */
function feedRuns(kernel: SampleKernel, arg: Vector | undefined, rowCount: number, runs: SampleRuns): void {
  if (!kernel.runs) {
    kernel.addRows(arg, rowCount, runs.rowSlots(rowCount), runs.slotCount);
    return;
  }
  for (let k = 0; k < runs.runCount; k++) kernel.addRun(arg, runs.runLo[k], runs.runHi[k], runs.runSlot[k]);
}

/** Keyed sampling: a group per (bucket slot, key id), numbered in order of first appearance. */
class KeyedGroups {
  count = 0;
  private readonly keys: KeyIds;
  private keyIds: Int32Array = new Int32Array(0);
  private rowGroups: Int32Array = new Int32Array(0);
  private groupSlot: Int32Array = new Int32Array(64);
  private groupKey: Int32Array = new Int32Array(64);
  /** Per key id: the slot (+1) its current group belongs to, and that group. */
  private keySlot: Int32Array = new Int32Array(64);
  private keyGroup: Int32Array = new Int32Array(64);

  constructor(private readonly keyCount: number) {
    this.keys = new KeyIds(keyCount);
  }

  assign(batch: ColumnBatch, runs: SampleRuns): Int32Array {
    const rowCount = batch.rowCount;
    if (this.keyIds.length < rowCount) {
      this.keyIds = new Int32Array(rowCount);
      this.rowGroups = new Int32Array(rowCount);
    }
    this.keys.assign(batch.vectors.slice(1, 1 + this.keyCount), rowCount, this.keyIds);
    if (this.keySlot.length < this.keys.count) {
      this.keySlot = grownInt32(this.keySlot, this.keys.count);
      this.keyGroup = grownInt32(this.keyGroup, this.keys.count);
    }
    for (let k = 0; k < runs.runCount; k++) this.assignRun(runs.runLo[k], runs.runHi[k], runs.runSlot[k] + 1);
    return this.rowGroups;
  }

  private assignRun(lo: number, hi: number, slotTag: number): void {
    const keyIds = this.keyIds;
    const rowGroups = this.rowGroups;
    const keySlot = this.keySlot;
    const keyGroup = this.keyGroup;
    for (let row = lo; row < hi; row++) {
      const key = keyIds[row];
      if (keySlot[key] !== slotTag) {
        keySlot[key] = slotTag;
        keyGroup[key] = this.newGroup(slotTag - 1, key);
      }
      rowGroups[row] = keyGroup[key];
    }
  }

  private newGroup(slot: number, key: number): number {
    if (this.groupSlot.length <= this.count) {
      this.groupSlot = grownInt32(this.groupSlot, this.count + 1);
      this.groupKey = grownInt32(this.groupKey, this.count + 1);
    }
    this.groupSlot[this.count] = slot;
    this.groupKey[this.count] = key;
    return this.count++;
  }

  slotOf(group: number): number {
    return this.groupSlot[group];
  }

  keyOf(group: number): number {
    return this.groupKey[group];
  }

  keyVectors(types: readonly OutputColumn['type'][]): Vector[] {
    return this.keys.keyVectors(types);
  }

  /** Groups by bucket start; creation order already is, unless the input revisited an earlier bucket. */
  order(starts: Float64Array): Int32Array {
    const order = new Int32Array(this.count);
    let sorted = true;
    for (let group = 0; group < this.count; group++) {
      order[group] = group;
      if (group > 0 && starts[this.slotOf(group)] < starts[this.slotOf(group - 1)]) sorted = false;
    }
    if (!sorted) order.sort((a, b) => (starts[this.slotOf(a)] - starts[this.slotOf(b)]) || a - b);
    return order;
  }
}

function grownInt32(array: Int32Array, size: number): Int32Array {
  const grown = new Int32Array(Math.max(size, array.length * 2));
  grown.set(array);
  return grown;
}
