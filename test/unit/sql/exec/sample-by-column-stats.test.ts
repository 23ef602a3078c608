// SAMPLE BY aggregates over one column share a one-pass ColumnStats: their results must be bit-identical to the
// per-aggregate kernels (one kernel and one pass per aggregate), whatever the bucket layout (calendar strides
// with offsets, local days in a time zone, months, first-observation alignment), the nulls, the signed zeros and
// infinities, the empty buckets between rows and the batch boundaries, for runs (non-keyed) and grouped rows
// (keyed).
import test from 'ava';
import { createSampleKernel, createSampleKernels } from '../../../../src/sql/exec/sample-by-kernels.js';
import type { SampleKernel } from '../../../../src/sql/exec/sample-by-kernels.js';
import { SampleRuns } from '../../../../src/sql/exec/sample-by-runs.js';
import { createSampler } from '../../../../src/sql/exec/sample-by-sampler.js';
import type { SamplerSpec } from '../../../../src/sql/exec/sample-by-sampler.js';
import type { AggregateSpec } from '../../../../src/sql/exec/group-by.js';
import type { ColumnBatch } from '../../../../src/sql/exec/batch.js';
import { resolveTimeZone } from '../../../../src/types/time-zone-rules.js';
import type { TimeZoneRules } from '../../../../src/types/time-zone-rules.js';

const HOUR = 3_600_000_000;
const SPECIAL_VALUES = [0, -0, Infinity, -Infinity, 1e308, -1e308, 0.1, 0.2];

function spec(kind: string, argIndex: number, argType: AggregateSpec['argType'] = 'DOUBLE'): AggregateSpec {
  const resultType = kind === 'count' || kind === 'count_col' ? 'LONG' : 'DOUBLE';
  return { kind: kind as AggregateSpec['kind'], argIndex, argType: argIndex < 0 ? undefined : argType, resultType, name: `${kind}${argIndex}` };
}

/** Batches of [ts, x, y]: ascending timestamps with gaps of up to three days, about one null in six per column. */
function batchesOf(rowCount: number, batchRows: number, seed: number): ColumnBatch[] {
  let state = seed;
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const value = (): number => {
    const pick = random();
    if (pick < 1 / 6) return NaN;
    if (pick < 0.25) return SPECIAL_VALUES[Math.floor(random() * SPECIAL_VALUES.length)];
    return (random() - 0.5) * 1000;
  };
  let ts = Date.UTC(2024, 2, 28) * 1000;
  const batches: ColumnBatch[] = [];
  for (let lo = 0; lo < rowCount; lo += batchRows) {
    const count = Math.min(batchRows, rowCount - lo);
    const timestamps = new Float64Array(count);
    const xs = new Float64Array(count);
    const ys = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      ts += random() < 0.01 ? Math.floor(random() * 72 * HOUR) : Math.floor(random() * HOUR / 20);
      timestamps[k] = ts;
      xs[k] = value();
      ys[k] = random() < 0.3 ? NaN : value();
    }
    batches.push({ rowCount: count, vectors: [{ type: 'TIMESTAMP', data: timestamps }, { type: 'DOUBLE', data: xs }, { type: 'DOUBLE', data: ys }] });
  }
  return batches;
}

function zone(name: string): TimeZoneRules {
  const rules = resolveTimeZone(name);
  if (rules === undefined) throw new TypeError(`unknown zone ${name}`);
  return rules;
}

const SAMPLERS: ReadonlyArray<{ readonly name: string; readonly spec: SamplerSpec }> = [
  { name: '1h calendar', spec: { count: 1, unit: 'h', alignFirstObservation: false, offsetMicros: 0 } },
  { name: '15m calendar offset 7m', spec: { count: 15, unit: 'm', alignFirstObservation: false, offsetMicros: 7 * 60_000_000 } },
  { name: '1d calendar Europe/Berlin offset 2h', spec: { count: 1, unit: 'd', alignFirstObservation: false, offsetMicros: 2 * HOUR, timeZone: zone('Europe/Berlin') } },
  { name: '1M calendar', spec: { count: 1, unit: 'M', alignFirstObservation: false, offsetMicros: 0 } },
  { name: '7m first observation', spec: { count: 7, unit: 'm', alignFirstObservation: true, offsetMicros: 0 } },
];

const AGGREGATE_SETS: ReadonlyArray<readonly AggregateSpec[]> = [
  [spec('avg', 1), spec('min', 1), spec('max', 1), spec('count', -1)],
  [spec('sum', 1), spec('avg', 1), spec('count_col', 1), spec('min', 2), spec('max', 2), spec('first', 1), spec('last', 2)],
  [spec('max', 2), spec('min', 2), spec('count_col', 2), spec('avg', 1)],
  [spec('avg', 1)],
  [spec('avg', 1, 'LONG'), spec('count_col', 1, 'LONG')],
];

/** Feeds every batch to `kernels` the way SampleByFactory does: runs when non-keyed, per-row groups when keyed. */
function feed(kernels: readonly SampleKernel[], specs: readonly AggregateSpec[], sampler: SamplerSpec, batches: readonly ColumnBatch[], keyed: boolean): number {
  const runs = new SampleRuns(true);
  const first = SampleRuns.firstTimestamp(batches[0]);
  const live = createSampler(sampler, sampler.alignFirstObservation ? first : undefined, first);
  let groupCount = 0;
  for (const batch of batches) {
    const clean = runs.cut(batch, live);
    const slots = runs.rowSlots(clean.rowCount);
    // Keyed: three keys per bucket, so the groups of one bucket interleave row by row.
    const groups = new Int32Array(clean.rowCount);
    for (let row = 0; row < clean.rowCount; row++) groups[row] = slots[row] * 3 + (row % 3);
    groupCount = runs.slotCount * 3;
    specs.forEach((aggregate, k) => {
      const arg = aggregate.argIndex < 0 ? undefined : clean.vectors[aggregate.argIndex];
      const kernel = kernels[k];
      if (keyed || !kernel.runs) {
        kernel.addRows(arg, clean.rowCount, keyed ? groups : slots, keyed ? groupCount : runs.slotCount);
        return;
      }
      for (let r = 0; r < runs.runCount; r++) kernel.addRun(arg, runs.runLo[r], runs.runHi[r], runs.runSlot[r]);
    });
  }
  return keyed ? groupCount : runs.slotCount;
}

function resultsOf(kernels: readonly SampleKernel[], slotCount: number): number[][] {
  return kernels.map((kernel) => Array.from(kernel.result(slotCount).data as Float64Array));
}

for (const sampler of SAMPLERS) {
  for (const keyed of [false, true]) {
    test(`one-pass column stats equal the per-aggregate kernels bit for bit: ${sampler.name}${keyed ? ', keyed' : ''}`, (t) => {
      AGGREGATE_SETS.forEach((specs, set) => {
        for (const batchRows of [1, 7, 1000]) {
          const batches = batchesOf(3000, batchRows, 17 + set + batchRows);
          const shared = createSampleKernels(specs);
          const reference = specs.map(createSampleKernel);
          const slotCount = feed(shared, specs, sampler.spec, batches, keyed);
          t.is(feed(reference, specs, sampler.spec, batches, keyed), slotCount);
          const got = resultsOf(shared, slotCount);
          const want = resultsOf(reference, slotCount);
          for (let k = 0; k < specs.length; k++) {
            const differing = got[k].findIndex((value, slot) => !Object.is(value, want[k][slot]));
            t.is(differing, -1, `${specs[k].name}, set ${set}, batches of ${batchRows}: slot ${differing} ${got[k][differing]} vs ${want[k][differing]}`);
          }
        }
      });
    });
  }
}

test('column stats are shared only where a column would be read more than once', (t) => {
  const single = createSampleKernels([spec('min', 1), spec('max', 2)]);
  const reference = [spec('min', 1), spec('max', 2)].map(createSampleKernel);
  t.deepEqual(single.map((kernel) => kernel.constructor.name), reference.map((kernel) => kernel.constructor.name));
  const shared = createSampleKernels([spec('avg', 1), spec('min', 1), spec('max', 1), spec('count', -1)]);
  t.deepEqual(shared.map((kernel) => kernel.constructor.name), ['ColumnStatsKernel', 'ColumnStatsKernel', 'ColumnStatsKernel', 'Float64RunKernel']);
});
