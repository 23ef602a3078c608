// Out-of-order merge prefix copy: copyColumnPrefixes (pread/pwrite through one reused 1 MB block) against a
// fresh 8 MB block per file, as it copied before (the kernel faults in and zeroes 8 MB of new pages each time),
// and against a kernel copy of each whole file (fs.copyFileSync) cut to length. CPU ms per copy of this process
// (user + system: the kernel's copy counts), for a TSBS-sized partition.
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

/** The copy as it was: a new 8 MB block for each file. */
function blockCopy(fromDir: string, toDir: string): void {
  for (const column of columns) {
    const block = Buffer.allocUnsafe(8 << 20);
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
  const results: Record<string, number[]> = { 'copyColumnPrefixes (one 1 MB block reused)': [], 'a fresh 8 MB block per file (before)': [], 'kernel copy of each file, cut to length': [] };
  for (let round = 0; round < 5; round++) {
    for (const name of Object.keys(results)) {
      const target = join(root, `new-${round}`);
      realFiles.mkdirs(target);
      const before = process.cpuUsage();
      if (name.startsWith('copyColumnPrefixes')) copyColumnPrefixes(session, old, target, columns, keptRows);
      else if (name.startsWith('kernel')) kernelCopy(old, target);
      else blockCopy(old, target);
      const used = process.cpuUsage(before);
      results[name]?.push((used.user + used.system) / 1000);
      rmSync(target, { recursive: true });
    }
  }
  const megabytes = (keptRows * 8 * columns.length) / 1e6;
  process.stdout.write(`\nprefix copy of ${keptRows.toLocaleString('en-US')} rows x ${columns.length} LONG columns (${megabytes.toFixed(0)} MB)\n| method | CPU ms per copy (5 rounds) | best |\n|---|---|---:|\n`);
  for (const [name, samples] of Object.entries(results)) process.stdout.write(`| ${name} | ${samples.map((ms) => ms.toFixed(0)).join(' ')} | ${Math.min(...samples).toFixed(0)} |\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
