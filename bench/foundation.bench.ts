// Foundation bench: loads the standard table (ts every 100 ms from 2024-01-01, 100 symbols, price, amount)
// into svc with INSERT ... SELECT ... FROM long_sequence(n) over HTTP and into DuckDB in the same run, then
// times count+sum and a symbol-filtered LIMIT query in both. Rows: BENCH_ROWS (default 10,000,000).
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from '../test/helpers/server.js';
import { exec } from '../test/helpers/http.js';
import { medianMs, printFigures } from './lib/figures.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const runs = 5;

// price uses (i * 1103515245 + 12345) mod 2^31 split into exact 48-bit steps, so doubles compute it exactly.
const SVC_LOAD = `insert into t select
  cast(1704067200000000 + (x - 1) * 100000 as timestamp),
  'S' || ((x - 1) % 100),
  round(((((x - 1) * 16838) % 2147483648 * 65536 + (x - 1) * 20077 + 12345) % 2147483648) / 2147483648.0 * 1000, 2),
  ((x - 1) * 48271) % 10000 + 1
from long_sequence(${rowCount})`;

const DUCK_LOAD = `create table t as select
  timestamp '2024-01-01' + to_milliseconds(i * 100) ts,
  'S' || (i % 100) sym,
  round(((i::HUGEINT * 1103515245 + 12345) % 2147483648) / 2147483648.0 * 1000, 2) price,
  (i * 48271) % 10000 + 1 amount
from range(${rowCount}) r(i)`;

const QUERIES = [
  { name: 'select count(*), sum(price) from t', svc: 'select count(*), sum(price) from t', duck: 'select count(*), sum(price) from t' },
  { name: "select * from t where sym = 'S42' limit 10", svc: "select * from t where sym = 'S42' limit 10", duck: "select * from t where sym = 'S42' limit 10" },
];

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
  try {
    await exec(server.baseUrl, 'create table t (ts timestamp, sym symbol, price double, amount long) timestamp(ts) partition by DAY');
    const svcLoadMs = await medianMs(1, async () => {
      const response = await exec(server.baseUrl, SVC_LOAD, {}, { signal: AbortSignal.timeout(3_600_000) });
      if (response.status !== 200) throw new Error(response.text);
    });
    const duckLoadMs = await medianMs(1, () => duck.run(DUCK_LOAD));
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
