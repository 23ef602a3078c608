// The machine's floor for splitting one scan over two threads: the same work run by one thread, then by two
// threads on disjoint halves at once. Two probes: summing an 80 MB mapped DOUBLE column (memory bandwidth) and a
// pure arithmetic loop over a small array that stays in L1 (compute). On two real cores both halve; when the two
// vCPUs share a physical core (SMT siblings on the host) or the memory bus, two threads take more than half.
// Each thread's CPU time is read from /proc/thread-self/schedstat, so a thread that waited for a core is seen.
// The threads run plain JavaScript built from the functions below (a worker does not inherit tsx's loader).
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const COLUMN_ROWS = 10_000_000;
const COMPUTE_ITERATIONS = 400_000_000;
const ROUNDS = Number(process.env['BENCH_RUNS'] ?? 7);

interface Job {
  readonly probe: 'sum' | 'compute';
  readonly path: string;
  /** Share of the work: [lo, hi) of the rows (sum) or of the iterations (compute). */
  readonly lo: number;
  readonly hi: number;
  /** Int32 counter of the threads that are warm; each waits until all `threads` of its round are. */
  readonly gate: SharedArrayBuffer;
  readonly threads: number;
}

interface JobResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly value: number;
}

/** The mapping binding the storage layer uses (src/storage/mmap.ts), loaded by path inside each thread. */
const MMAP_BINDING = resolve(import.meta.dirname, '..', '..', 'native', 'mmap', 'build', 'Release', 'svc_mmap.node');

function sumColumn(data: Float64Array, lo: number, hi: number): number {
  let sum = 0;
  for (let row = lo; row < hi; row++) sum += data[row];
  return sum;
}

function computeLoop(lo: number, hi: number): number {
  let x = lo | 0;
  for (let k = lo; k < hi; k++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  return x;
}

/** The thread's body: map the column (sum), warm up with one untimed pass, then time one pass over its share. */
const THREAD_SOURCE = `
const { parentPort, workerData: job } = require('node:worker_threads');
const { readFileSync, openSync, closeSync } = require('node:fs');
const threadCpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
${sumColumn.toString()}
${computeLoop.toString()}
let data;
if (job.probe === 'sum') {
  const binding = require(${JSON.stringify(MMAP_BINDING)});
  const fd = openSync(job.path, 'r');
  data = new Float64Array(binding.map(${COLUMN_ROWS * 8}, fd, 0, binding.advice.sequential).buffer, 0, ${COLUMN_ROWS});
  closeSync(fd);
  sumColumn(data, job.lo, job.hi);
} else {
  computeLoop(job.lo, job.lo + 1000000);
}
// Barrier: every thread of the round is warm before any starts its timed pass, so the passes overlap.
const gate = new Int32Array(job.gate);
Atomics.add(gate, 0, 1);
while (Atomics.load(gate, 0) < job.threads) Atomics.wait(gate, 0, Atomics.load(gate, 0), 1);
const cpu0 = threadCpuMs();
const t0 = performance.now();
const value = data !== undefined ? sumColumn(data, job.lo, job.hi) : computeLoop(job.lo, job.hi);
parentPort.postMessage({ wallMs: performance.now() - t0, cpuMs: threadCpuMs() - cpu0, value });
`;

function runInThread(job: Job): Promise<JobResult> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: job });
    worker.once('message', (result: JobResult) => resolvePromise(result));
    worker.once('error', reject);
  });
}

async function measure(probe: Job['probe'], path: string, total: number): Promise<{ oneMs: number; twoMs: number; oneCpu: number; twoCpu: number }> {
  const one: JobResult[] = [];
  const two: JobResult[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    one.push(await runInThread({ probe, path, lo: 0, hi: total, gate: new SharedArrayBuffer(4), threads: 1 }));
    const half = total >> 1;
    const gate = new SharedArrayBuffer(4);
    two.push(await Promise.all([runInThread({ probe, path, lo: 0, hi: half, gate, threads: 2 }), runInThread({ probe, path, lo: half, hi: total, gate, threads: 2 })]));
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1];
  return {
    oneMs: median(one.map((r) => r.wallMs)),
    twoMs: median(two.map((pair) => Math.max(pair[0].wallMs, pair[1].wallMs))),
    oneCpu: median(one.map((r) => r.cpuMs)),
    twoCpu: median(two.map((pair) => pair[0].cpuMs + pair[1].cpuMs)),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-two-thread-floor-'));
  try {
    const path = join(dir, 'price.d');
    const column = new Float64Array(COLUMN_ROWS);
    for (let row = 0; row < COLUMN_ROWS; row++) column[row] = (row * 7919) % 100_000 / 100;
    writeFileSync(path, column);
    const lines = ['| probe | one thread ms | two threads ms (slower half) | two/one | CPU one ms | CPU two ms (both) |', '|---|---:|---:|---:|---:|---:|'];
    for (const [probe, total] of [['sum', COLUMN_ROWS], ['compute', COMPUTE_ITERATIONS]] as const) {
      const m = await measure(probe, path, total);
      lines.push(`| ${probe} | ${m.oneMs.toFixed(1)} | ${m.twoMs.toFixed(1)} | ${(m.twoMs / m.oneMs).toFixed(2)} | ${m.oneCpu.toFixed(1)} | ${m.twoCpu.toFixed(1)} |`);
    }
    process.stdout.write(`\nTwo-thread floor, median of ${ROUNDS} rounds (sum: ${COLUMN_ROWS} mapped doubles; compute: ${COMPUTE_ITERATIONS} LCG steps)\n${lines.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
