// Foundation bench: loads the standard table (ts every 100 ms from 2024-01-01, 100 symbols, price, amount)
// into svc with INSERT ... SELECT ... FROM long_sequence(n) over HTTP and into DuckDB in the same run, then
// times count+sum and a symbol-filtered LIMIT query in both. Rows: BENCH_ROWS (default 10,000,000).
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../test/helpers/server.js';
import { exec } from '../test/helpers/http.js';
import { medianMs, printFigures } from './lib/figures.js';
import { loadDuckStandardTable, loadSvcStandardTable } from './lib/standard-table.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const runs = 5;

const QUERIES = [
  { name: 'select count(*), sum(price) from t', svc: 'select count(*), sum(price) from t', duck: 'select count(*), sum(price) from t' },
  { name: "select * from t where sym = 'S42' limit 10", svc: "select * from t where sym = 'S42' limit 10", duck: "select * from t where sym = 'S42' limit 10" },
];

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
  try {
    const svcLoadMs = await medianMs(1, () => loadSvcStandardTable(server.baseUrl, rowCount));
    const duckLoadMs = await medianMs(1, () => loadDuckStandardTable(duck, rowCount));
    const figures = [{ name: `load ${rowCount} rows (rows/s)`, svc: rowCount / (svcLoadMs / 1000), duckdb: rowCount / (duckLoadMs / 1000), unit: 'rows/s' }];
    for (const query of QUERIES) {
      await exec(server.baseUrl, query.svc);
      const svcMs = await medianMs(runs, async () => {
        const response = await exec(server.baseUrl, query.svc);
        if (response.status !== 200) throw new Error(response.text);
      });
      const duckMs = await medianMs(runs, () => duck.runAndReadAll(query.duck));
      figures.push({ name: `${query.name} (ms, median of ${runs})`, svc: svcMs, duckdb: duckMs, unit: 'ms' });
    }
    printFigures(`Foundation bench, ${rowCount} rows, svc 2 workers vs DuckDB 2 threads (through HTTP for svc)`, figures);
  } finally {
    duck.closeSync();
    await server.stop();
    server.cleanup();
  }
}

await main();
