// Out-of-order merge prefix copy: copyColumnPrefixes (copy_file_range of each file's prefix, through
// FilesFacade.copyRange) against pread/pwrite through one reused 1 MB block, as it copied before, and against a
// kernel copy of each whole file (fs.copyFileSync) cut to length. CPU ms per copy of this process (user +
// system: the kernel's copy counts) and wall ms, for a TSBS-sized partition.
import { copyFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFiles } from '../../src/core/files.js';
import { appendColumn, columnFilePaths, copyColumnPrefixes } from '../../src/storage/column-files.js';
import type { ColumnMeta } from '../../src/storage/table-meta.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const keptRows = rows - 5000;
const columns: ColumnMeta[] = Array.from({ length: 21 }, (_, k) => ({ name: `c${k}`, type: 'LONG', fileStem: `c${k}`, indexed: false, symbolCapacity: 0 }));
const session = { files: realFiles, durable: false };

const block = Buffer.allocUnsafe(1 << 20);

/** The copy as it was: pread/pwrite through one reused 1 MB block. */
function blockCopy(fromDir: string, toDir: string): void {
  for (const column of columns) {
    const source = realFiles.openRead(columnFilePaths(fromDir, column.fileStem).data);
    const target = realFiles.openWrite(columnFilePaths(toDir, column.fileStem).data);
    for (let done = 0; done < keptRows * 8;) {
      const read = realFiles.read(source, block.subarray(0, Math.min(block.length, keptRows * 8 - done)), done);
      realFiles.write(target, block.subarray(0, read), done);
      done += read;
    }
    realFiles.close(source);
    realFiles.close(target);
  }
}

function kernelCopy(fromDir: string, toDir: string): void {
  for (const column of columns) {
    const target = columnFilePaths(toDir, column.fileStem).data;
    copyFileSync(columnFilePaths(fromDir, column.fileStem).data, target);
    truncateSync(target, keptRows * 8);
  }
}

const root = mkdtempSync(join(tmpdir(), 'svc-copy-bench-'));
try {
  const old = join(root, 'old');
  realFiles.mkdirs(old);
  const bytes = Buffer.alloc(rows * 8, 3);
  for (const column of columns) appendColumn(session, old, column, { kind: 'fixed', width: 8, bytes }, 0);
  const results: Record<string, number[]> = { 'copyColumnPrefixes (copy_file_range)': [], 'pread/pwrite, one 1 MB block (before)': [], 'kernel copy of each file, cut to length': [] };
  const walls: Record<string, number[]> = Object.fromEntries(Object.keys(results).map((name) => [name, []]));
  for (let round = 0; round < 5; round++) {
    for (const name of Object.keys(results)) {
      const target = join(root, `new-${round}`);
      realFiles.mkdirs(target);
      const before = process.cpuUsage();
      const started = performance.now();
      if (name.startsWith('copyColumnPrefixes')) copyColumnPrefixes(session, old, target, columns, keptRows);
      else if (name.startsWith('kernel')) kernelCopy(old, target);
      else blockCopy(old, target);
      const used = process.cpuUsage(before);
      results[name]?.push((used.user + used.system) / 1000);
      walls[name]?.push(performance.now() - started);
      rmSync(target, { recursive: true });
    }
  }
  const megabytes = (keptRows * 8 * columns.length) / 1e6;
  process.stdout.write(`\nprefix copy of ${keptRows.toLocaleString('en-US')} rows x ${columns.length} LONG columns (${megabytes.toFixed(0)} MB)\n| method | CPU ms per copy (5 rounds) | best | wall ms (5 rounds) |\n|---|---|---:|---|\n`);
  for (const [name, samples] of Object.entries(results)) {
    process.stdout.write(`| ${name} | ${samples.map((ms) => ms.toFixed(0)).join(' ')} | ${Math.min(...samples).toFixed(0)} | ${(walls[name] ?? []).map((ms) => ms.toFixed(0)).join(' ')} |\n`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
