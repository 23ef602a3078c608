// Export bench: the standard table (BENCH_ROWS, default 10M) exported through GET /exp as CSV and as Parquet
// ZSTD (the /exp defaults), beside DuckDB's COPY ... TO of the same table in the same run (2 threads, to a
// file under /tmp). Prints rows/s and MB/s for both, and the server's peak RSS per process (VmHWM) after the
// exports, the memory bound the README documents.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../test/helpers/server.js';
import { printFigures } from './lib/figures.js';
import type { FigureRow } from './lib/figures.js';
import { loadDuckStandardTable, loadSvcStandardTable } from './lib/standard-table.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);

/** Streams the download and counts its bytes; seconds from request to last byte. */
async function download(url: string): Promise<{ bytes: number; seconds: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { signal: AbortSignal.timeout(3_600_000) });
  if (response.status !== 200) throw new Error(`${url} → ${response.status} ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return { bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

function peakRssMb(pid: number): string[] {
  const pids = [pid, ...execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number)];
  return pids.map((each) => `${each === pid ? 'primary' : `worker ${each}`} ${(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${each}/status`, 'utf8'))?.[1] ?? 0) / 1024).toFixed(0)} MB`);
}

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
  const duckFile = join(tmpdir(), `svc-export-bench-${process.pid}`);
  try {
    await loadSvcStandardTable(server.baseUrl, rowCount);
    await loadDuckStandardTable(duck, rowCount);
    const figures: FigureRow[] = [];
    const formats = [
      { name: 'CSV', params: '', copy: "(format csv, header true, timestampformat '%Y-%m-%dT%H:%M:%S.%gZ')" },
      { name: 'Parquet ZSTD', params: '&fmt=parquet', copy: '(format parquet, compression zstd)' },
    ];
    for (const format of formats) {
      const svc = await download(`${server.baseUrl}/exp?query=${encodeURIComponent('select * from t')}${format.params}`);
      const started = process.hrtime.bigint();
      await duck.run(`copy (select * from t order by ts) to '${duckFile}' ${format.copy}`);
      const duckSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const duckBytes = statSync(duckFile).size;
      rmSync(duckFile, { force: true });
      figures.push({ name: `${format.name} rows/s`, svc: rowCount / svc.seconds, duckdb: rowCount / duckSeconds, unit: 'rows/s', goal: '≥ 0.5 of DuckDB' });
      figures.push({ name: `${format.name} MB/s`, svc: svc.bytes / 1e6 / svc.seconds, duckdb: duckBytes / 1e6 / duckSeconds, unit: 'MB/s' });
      figures.push({ name: `${format.name} MB written`, svc: svc.bytes / 1e6, duckdb: duckBytes / 1e6, unit: 'MB' });
    }
    printFigures(`Export, ${rowCount} rows (svc GET /exp, 2 workers; DuckDB COPY TO a file, 2 threads)`, figures);
    process.stdout.write(`peak RSS after the exports: ${peakRssMb(server.process.pid as number).join(', ')}\n`);
  } finally {
    rmSync(duckFile, { force: true });
    duck.closeSync();
    await server.stop();
    server.cleanup();
  }
}

await main();
