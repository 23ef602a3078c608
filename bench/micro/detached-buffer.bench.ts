// What one detached ArrayBuffer costs the typed-array loops of its thread. V8 compiles typed-array access on the
// assumption that no buffer of the isolate was ever detached; the first detach (a postMessage transfer list,
// structuredClone with transfer) drops that assumption for the whole isolate, and every loop is recompiled with a
// detach check on each access. This times the grouped sum loop of the scan kernels (sum-kernels.ts) over a
// mapped-size column in fresh threads, alternately with and without one 8-byte buffer detached first: the
// parallel query threads used to transfer their result buffers and ran their kernels this much slower.
import { Worker } from 'node:worker_threads';

const ROWS = 4_000_000;
const BATCH_ROWS = 65_536;
const PASSES = 12;
const ROUNDS = Number(process.env['BENCH_RUNS'] ?? 5);

interface ThreadResult {
  /** Median CPU time of a warm pass over the column, ms (the thread's own, from /proc/thread-self/schedstat). */
  readonly passCpuMs: number;
}

/** The same loops as sumGroupedNaNNullable and assignDense, over batches of a column, keyed by a dense group id. */
function passOver(data: Float64Array, keys: Int32Array, groups: Int32Array, sums: Float64Array, counts: Float64Array): void {
  for (let lo = 0; lo < data.length; lo += groups.length) {
    const rowCount = Math.min(groups.length, data.length - lo);
    for (let row = 0; row < rowCount; row++) groups[row] = keys[lo + row];
    for (let row = 0; row < rowCount; row++) {
      const value = data[lo + row];
      if (value !== value) continue;
      const group = groups[row];
      sums[group] = sums[group] + value;
      counts[group] = counts[group] + 1;
    }
  }
}

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const threadCpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
${passOver.toString()}
if (workerData.detach) { const buffer = new ArrayBuffer(8); structuredClone(buffer, { transfer: [buffer] }); }
const data = new Float64Array(${ROWS}).map((_, row) => (row * 7919) % 100000 / 100);
const keys = new Int32Array(${ROWS}).map((_, row) => row % 100);
const groups = new Int32Array(${BATCH_ROWS});
const sums = new Float64Array(128);
const counts = new Float64Array(128);
const times = [];
for (let pass = 0; pass < ${PASSES}; pass++) {
  const cpu0 = threadCpuMs();
  passOver(data, keys, groups, sums, counts);
  times.push(threadCpuMs() - cpu0);
}
const warm = times.slice(${PASSES} / 3).sort((a, b) => a - b);
parentPort.postMessage({ passCpuMs: warm[warm.length >> 1] });
`;

function runThread(detach: boolean): Promise<ThreadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { detach } });
    worker.once('message', (result: ThreadResult) => resolve(result));
    worker.once('error', reject);
  });
}

async function main(): Promise<void> {
  const attached: number[] = [];
  const detached: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    attached.push((await runThread(false)).passCpuMs);
    detached.push((await runThread(true)).passCpuMs);
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1];
  const nsPerRow = (ms: number): string => ((ms * 1e6) / ROWS).toFixed(2);
  process.stdout.write([
    `\nDetached buffer cost, grouped sum over ${ROWS} rows in batches of ${BATCH_ROWS}, median of ${ROUNDS} fresh threads each`,
    '| thread | CPU ms per pass | ns per row |',
    '|---|---:|---:|',
    `| no buffer detached | ${median(attached).toFixed(1)} | ${nsPerRow(median(attached))} |`,
    `| one buffer detached first | ${median(detached).toFixed(1)} | ${nsPerRow(median(detached))} |`,
    `detached / attached: ${(median(detached) / median(attached)).toFixed(2)}\n`,
  ].join('\n'));
}

await main();
