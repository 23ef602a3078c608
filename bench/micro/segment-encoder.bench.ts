// The primary's segment encoder thread over the column files of BENCH_ROWS (default 1,000,000) standard ILP rows
// (timestamp, symbol key, price, amount, as a table of the standard rows stores them), in segments of
// BENCH_SEGMENT_ROWS rows (default 100,000: what a 500 ms capture holds at 200k rows/s): the thread's CPU per
// 1M rows (from /proc, utime + stime) and its minor page faults, for a fresh thread's first pass (what a
// just-started primary pays, and what the replication bench's fresh servers measure) and for later passes
// (a running primary), with byte planes (as shipped) beside the simplest alternative, bytes as they are.
import { mkdtempSync, openSync, closeSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SegmentEncoder } from '../../src/replication/segment-encoder.js';
import type { PartPlan } from '../../src/replication/capture-parts.js';
import type { FileOperation } from '../../src/replication/segment-codec.js';
import { standardCsvRow } from '../../test/helpers/csv-stream.js';
import { cpuSecondsOf } from '../lib/process-cpu.js';
import { statFields } from '../../test/helpers/proc-stat.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const segmentRows = Number(process.env['BENCH_SEGMENT_ROWS'] ?? 100_000);
const warmPasses = Number(process.env['BENCH_ROUNDS'] ?? 4);
const START_MICROS = BigInt(Date.UTC(2024, 0, 1)) * 1000n;

interface Column { readonly path: string; readonly fd: number; readonly valueBytes: number }

/** The standard rows' column files, written into `dir`. */
function writeColumns(dir: string): Column[] {
  const timestamps = new BigInt64Array(rowCount);
  const keys = new Int32Array(rowCount);
  const prices = new Float64Array(rowCount);
  const amounts = new BigInt64Array(rowCount);
  for (let i = 0; i < rowCount; i++) {
    const fields = standardCsvRow(i).split(',');
    timestamps[i] = START_MICROS + BigInt(i) * 100_000n;
    keys[i] = i % 100;
    prices[i] = Number(fields[2]);
    amounts[i] = BigInt(Number(fields[3]));
  }
  const files: [string, ArrayBufferView, number][] = [['timestamp.d', timestamps, 8], ['sym.d', keys, 4], ['price.d', prices, 8], ['amount.d', amounts, 8]];
  return files.map(([name, values, valueBytes]) => {
    writeFileSync(join(dir, name), new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    return { path: `db/trades/2024-01-01/${name}`, fd: openSync(join(dir, name), 'r'), valueBytes };
  });
}

/** One segment's plan: rows [first, first + rows) of every column, as a capture of appended rows plans it. */
function segmentPlan(columns: readonly Column[], first: number, rows: number, planed: boolean): PartPlan {
  const operations: FileOperation[] = columns.map((column) => ({ op: 'write', path: column.path, offset: first * column.valueBytes, length: rows * column.valueBytes, whole: false }));
  const ranges = columns.map((column) => ({
    source: { kind: 'pinned' as const, file: { fd: column.fd, ino: 0n, references: 1 } },
    position: first * column.valueBytes, length: rows * column.valueBytes, valueBytes: planed ? column.valueBytes : 1,
  }));
  return { operations, ranges };
}

/** CPU seconds and minor faults of one thread of this process. */
function threadUsage(threadId: string): { cpuSeconds: number; faults: number } {
  const fields = statFields(`self/task/${threadId}`);
  if (fields === undefined) throw new Error(`encoder thread ${threadId} is gone`);
  // minflt is field 10 of stat (index 7 after the command name).
  return { cpuSeconds: cpuSecondsOf(fields), faults: Number(fields[7]) };
}

interface Pass { readonly cpuSeconds: number; readonly faults: number; readonly bytes: number }

/** Encodes every segment once on `encoder`'s thread. */
async function pass(encoder: SegmentEncoder, threadId: string, columns: readonly Column[], planed: boolean): Promise<Pass> {
  const before = threadUsage(threadId);
  let bytes = 0;
  for (let first = 0, seq = 1; first < rowCount; first += segmentRows) {
    bytes += (await encoder.encode(seq++, segmentPlan(columns, first, Math.min(segmentRows, rowCount - first), planed))).object.length;
  }
  const after = threadUsage(threadId);
  return { cpuSeconds: after.cpuSeconds - before.cpuSeconds, faults: after.faults - before.faults, bytes };
}

/** A fresh encoder thread: its first pass, then the median of the warm ones. */
async function measure(columns: readonly Column[], planed: boolean): Promise<{ first: Pass; warm: Pass }> {
  const known = new Set(readdirSync('/proc/self/task'));
  const encoder = new SegmentEncoder({ lowPriority: true, store: null });
  try {
    // Starts the thread (module loading is not the encoder's work), then finds it among this process's threads.
    await encoder.encode(0, { operations: [], ranges: [] });
    const threadId = readdirSync('/proc/self/task').find((id) => !known.has(id)) ?? '';
    const first = await pass(encoder, threadId, columns, planed);
    const warm: Pass[] = [];
    for (let index = 0; index < warmPasses; index++) warm.push(await pass(encoder, threadId, columns, planed));
    warm.sort((a, b) => a.cpuSeconds - b.cpuSeconds);
    return { first, warm: warm[Math.floor(warm.length / 2)] ?? first };
  } finally {
    await encoder.close();
  }
}

function row(name: string, figures: Pass): string {
  const perMillion = 1e6 / rowCount;
  return `| ${name} | ${(figures.cpuSeconds * 1000 * perMillion).toFixed(0)} | ${Math.round(figures.faults * perMillion)} | ${(figures.bytes * perMillion / 1e6).toFixed(2)} |`;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-encoder-'));
const columns = writeColumns(dir);
try {
  const lines = ['| encoder thread | CPU ms per 1M rows | minor faults per 1M rows | MB per 1M rows |', '|---|---:|---:|---:|'];
  for (const planed of [true, false]) {
    const { first, warm } = await measure(columns, planed);
    const name = planed ? 'byte planes + Brotli q1' : 'bytes as they are + Brotli q1';
    lines.push(row(`${name}, fresh thread's first pass`, first), row(`${name}, later passes (median of ${warmPasses})`, warm));
  }
  process.stdout.write(`\nSegment encoder thread: ${rowCount} standard ILP rows, segments of ${segmentRows} rows (CPU from /proc, 10 ms ticks)\n${lines.join('\n')}\n`);
} finally {
  for (const column of columns) closeSync(column.fd);
  rmSync(dir, { recursive: true, force: true });
}
