// Import bench: writes the standard CSV (ts,sym,price,amount, ISO timestamps; BENCH_ROWS rows, default
// 10,000,000 ≈ 436 MB) once under bench/.data/, then imports it through POST /imp into svc and with DuckDB's
// read_csv in the same run, and prints rows/s and MB/s for both.
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../test/helpers/server.js';
import { standardCsvChunks } from '../test/helpers/csv-stream.js';
import { printFigures } from './lib/figures.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const dataDir = join(import.meta.dirname, '.data');
const csvPath = join(dataDir, `standard-${rowCount}.csv`);

function ensureCsv(): void {
  if (existsSync(csvPath)) return;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(csvPath, '');
  for (const chunk of standardCsvChunks(rowCount, 8 << 20)) appendFileSync(csvPath, chunk);
}

function upload(baseUrl: string): Promise<string> {
  const boundary = '----svc-bench-upload';
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/imp?name=t&timestamp=ts&partitionBy=DAY&fmt=json`, {
      method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
    }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="t.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    const file = createReadStream(csvPath, { highWaterMark: 1 << 20 });
    file.on('data', (chunk) => { if (!req.write(chunk)) { file.pause(); req.once('drain', () => file.resume()); } });
    file.on('end', () => req.end(`\r\n--${boundary}--\r\n`));
  });
}

async function main(): Promise<void> {
  ensureCsv();
  const megabytes = statSync(csvPath).size / 1e6;
  const server = await startServer({ workers: 2 });
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
  try {
    let started = Date.now();
    const report = JSON.parse(await upload(server.baseUrl)) as { status: string; rowsImported: number };
    const svcSeconds = (Date.now() - started) / 1000;
    if (report.status !== 'OK' || report.rowsImported !== rowCount) throw new Error(`import failed: ${JSON.stringify(report)}`);
    started = Date.now();
    await duck.run(`create table t as select * from read_csv('${csvPath}')`);
    const duckSeconds = (Date.now() - started) / 1000;
    printFigures(`CSV import, ${rowCount} rows, ${megabytes.toFixed(1)} MB (svc through POST /imp, 2 workers; DuckDB read_csv, 2 threads)`, [
      { name: 'rows/s', svc: rowCount / svcSeconds, duckdb: rowCount / duckSeconds, unit: 'rows/s', goal: '≥ 0.5 of DuckDB (issue), ≥ 0.67 (reference)' },
      { name: 'MB/s', svc: megabytes / svcSeconds, duckdb: megabytes / duckSeconds, unit: 'MB/s' },
      { name: 'seconds', svc: svcSeconds, duckdb: duckSeconds, unit: 's' },
    ]);
  } finally {
    duck.closeSync();
    await server.stop();
    server.cleanup();
  }
}

await main();
