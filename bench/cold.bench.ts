// Cold-storage bench, part one: the standard SQL bench queries on the standard table (BENCH_ROWS, default 10M)
// with native partitions, then with every partition but the active one converted to local Parquet. For each query
// it prints the median with native partitions, the first run on Parquet (decoding from the file) and the median
// on Parquet (decoded row groups cached in every worker), and the ratio Parquet/native; both formats must give
// the same rows.
// Also prints the conversion time and the size on disk of both formats. Then every Parquet partition is made
// cold in the S3 store (bench/lib/cold-phase.ts) and each query runs on fresh processes on local Parquet and on
// cold partitions: times, bytes fetched with column pruning against whole objects, and the coalescing factor.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../test/helpers/server.js';
import { exec } from '../test/helpers/http.js';
import { medianMs } from './lib/figures.js';
import { loadSvcAsofTables, loadSvcStandardTable } from './lib/standard-table.js';
import { coldLines, measureCold, type ColdQuery } from './lib/cold-phase.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 5);

const QUERIES: readonly ColdQuery[] = [
  { name: 'count(*)', sql: 'select count(*) from t', tables: ['t'] },
  { name: 'sum(price)', sql: 'select sum(price) from t', tables: ['t'] },
  { name: 'avg(price) by sym', sql: 'select sym, avg(price) from t order by sym', tables: ['t'] },
  { name: 'SAMPLE BY 1h avg/min/max/count', sql: 'select ts, avg(price), min(price), max(price), count() from t sample by 1h', tables: ['t'] },
  { name: 'LATEST ON ts PARTITION BY sym', sql: 'select * from t latest on ts partition by sym', tables: ['t'] },
  { name: "count where sym='S42' and price>500", sql: "select count(*) from t where sym = 'S42' and price > 500", tables: ['t'] },
  { name: 'one-day interval count+avg', sql: "select count(*), avg(price) from t where ts in '2024-01-05'", tables: ['t'], partition: '2024-01-05' },
  { name: 'ASOF JOIN 1M x 1M on sym', sql: 'select count(*), sum(q.bid) from trades1m t asof join quotes1m q on (sym)', tables: ['trades1m', 'quotes1m'] },
  { name: 'ORDER BY price DESC LIMIT 10', sql: 'select * from t order by price desc limit 10', tables: ['t'] },
  { name: 'last 10 rows (LIMIT -10)', sql: 'select * from t limit -10', tables: ['t'], partition: null },
];

async function timed(baseUrl: string, sql: string): Promise<{ ms: number; text: string }> {
  const started = process.hrtime.bigint();
  const response = await exec(baseUrl, sql);
  if (response.status !== 200) throw new Error(`${sql}: ${response.text}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, text: JSON.stringify((response.json as { dataset: unknown }).dataset) };
}

function treeBytes(dir: string, suffix: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path, suffix);
    else if (path.endsWith(suffix)) total += statSync(path).size;
  }
  return total;
}

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  try {
    await loadSvcStandardTable(server.baseUrl, rowCount);
    await loadSvcAsofTables(server.baseUrl);
    const native = new Map<string, { ms: number; text: string }>();
    for (const query of QUERIES) {
      const first = await timed(server.baseUrl, query.sql);
      native.set(query.name, { ms: await medianMs(runs, () => timed(server.baseUrl, query.sql)), text: first.text });
    }
    const nativeBytes = treeBytes(join(server.rootDir, 'db'), '.d') + treeBytes(join(server.rootDir, 'db'), '.i');
    const convertStarted = process.hrtime.bigint();
    for (const table of ['t', 'trades1m', 'quotes1m']) {
      const converted = await exec(server.baseUrl, `alter table ${table} convert partition to parquet where ts < '2100-01-01'`);
      if (converted.status !== 200) throw new Error(converted.text);
    }
    const convertMs = Number(process.hrtime.bigint() - convertStarted) / 1e6;
    const parquetBytes = treeBytes(join(server.rootDir, 'db'), '.parquet');
    const lines = [
      `\nCold bench (local Parquet), ${rowCount} rows, median of ${runs}; svc 2 workers through HTTP; shared CPU, figures are noisy`,
      '| query | native | Parquet first run | Parquet median | ratio Parquet/native | same rows |',
      '|---|---:|---:|---:|---:|---|',
    ];
    for (const query of QUERIES) {
      const first = await timed(server.baseUrl, query.sql);
      // Each worker process keeps its own decoded-column cache: warm every worker before the median is taken.
      for (let k = 0; k < 3; k++) await timed(server.baseUrl, query.sql);
      const median = await medianMs(runs, () => timed(server.baseUrl, query.sql));
      const base = native.get(query.name) as { ms: number; text: string };
      lines.push(`| ${query.name} | ${base.ms.toFixed(1)} ms | ${first.ms.toFixed(1)} ms | ${median.toFixed(1)} ms | ${(median / base.ms).toFixed(2)} | ${first.text === base.text ? 'yes' : 'NO'} |`);
    }
    lines.push(`\nconversion of all three tables to Parquet: ${convertMs.toFixed(0)} ms; native column files (all partitions) ${(nativeBytes / 1e6).toFixed(1)} MB, Parquet files ${(parquetBytes / 1e6).toFixed(1)} MB (active partitions stay native)`);
    process.stdout.write(`${lines.join('\n')}\n`);
    await server.stop();
    const cold = await measureCold(server.rootDir, QUERIES, runs, medianMs);
    process.stdout.write(`${coldLines(QUERIES, cold).join('\n')}\n`);
  } finally {
    await server.stop();
    server.cleanup();
  }
}

await main();
