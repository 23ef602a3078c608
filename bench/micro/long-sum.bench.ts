// avg over a LONG column beside avg over a DOUBLE column, both read from memory-mapped column files in scan
// batches: the LONG kernel once the proof that each batch's values lie in [0, 2^32) is remembered per mapped
// range (small-int64-memo.ts), and the same kernel over a heap copy of the values, which it must prove again on
// every scan (what every scan cost before the memo). CPU ms per scan of BENCH_ROWS rows, best and median of
// BENCH_ROUNDS rounds that alternate the variants.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetMappings, mapFileRange } from '../../src/storage/mmap.js';
import { LongSumAvgKernel } from '../../src/sql/exec/aggregates/long-sum-kernels.js';
import { SumAvgKernel } from '../../src/sql/exec/aggregates/sum-kernels.js';
import type { Vector } from '../../src/sql/exec/batch.js';
import { batchRowsMax } from '../../src/core/limits.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 15);

const dir = mkdtempSync(join(tmpdir(), 'svc-long-sum-bench-'));
const longPath = join(dir, 'amount.d');
const doublePath = join(dir, 'price.d');
const longs = new BigInt64Array(rowCount);
const doubles = new Float64Array(rowCount);
for (let row = 0; row < rowCount; row++) {
  longs[row] = BigInt((row * 48271) % 10000 + 1);
  doubles[row] = ((row * 7919) % 100_000) / 100;
}
writeFileSync(longPath, Buffer.from(longs.buffer));
writeFileSync(doublePath, Buffer.from(doubles.buffer));

type Scan = () => number;

/** One avg in scan batches, as the table scan hands them to the aggregate (views of `bytes`). */
function scanLong(bytes: () => Buffer): Scan {
  return () => {
    const memory = bytes();
    const kernel = new LongSumAvgKernel(true);
    for (let start = 0; start < rowCount; start += batchRowsMax) {
      const count = Math.min(batchRowsMax, rowCount - start);
      const exact = new BigInt64Array(memory.buffer, memory.byteOffset + start * 8, count);
      const vector: Vector = { type: 'LONG', exact, data: new Float64Array(0) };
      kernel.update(vector, count, undefined, 1);
    }
    return (kernel.result(1).data as Float64Array)[0] as number;
  };
}

function scanDouble(): number {
  const bytes = mapFileRange(doublePath, rowCount * 8);
  const kernel = new SumAvgKernel('DOUBLE', true);
  for (let start = 0; start < rowCount; start += batchRowsMax) {
    const count = Math.min(batchRowsMax, rowCount - start);
    kernel.update({ type: 'DOUBLE', data: new Float64Array(bytes.buffer, bytes.byteOffset + start * 8, count) }, count, undefined, 1);
  }
  return (kernel.result(1).data as Float64Array)[0] as number;
}

function cpuMs(scan: Scan): number {
  const before = process.cpuUsage();
  scan();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const heapCopy = Buffer.from(longs.buffer);
const variants: [string, Scan][] = [
  ['avg(DOUBLE)', scanDouble],
  ['avg(LONG), ranges remembered', scanLong(() => mapFileRange(longPath, rowCount * 8))],
  ['avg(LONG), proven on every scan', scanLong(() => heapCopy)],
];
const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, scan] of variants) times.get(name)?.push(cpuMs(scan));
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
const best = (values: number[]): number => Math.min(...values);
const doubleTimes = times.get('avg(DOUBLE)') ?? [];
process.stdout.write(`\nLONG vs DOUBLE avg, ${rowCount} rows from mapped files, CPU ms per scan (best / median of ${rounds})\n`);
process.stdout.write(`${'variant'.padEnd(34)}${'best'.padStart(10)}${'median'.padStart(10)}${'÷ DOUBLE'.padStart(12)}\n`);
for (const [name] of variants) {
  const values = times.get(name) ?? [];
  process.stdout.write(`${name.padEnd(34)}${best(values).toFixed(2).padStart(10)}${median(values).toFixed(2).padStart(10)}${(median(values) / median(doubleTimes)).toFixed(2).padStart(12)}\n`);
}
process.stdout.write('goal: avg(LONG) ÷ avg(DOUBLE) ≤ 1.1 (issue #24)\n');
forgetMappings(dir);
rmSync(dir, { recursive: true, force: true });
