// SQL bench: the standard table (BENCH_ROWS, default 10M) in svc (2 workers, through HTTP) and in DuckDB
// (2 threads, in-process) in the same run; for each query of the performance reference it prints both medians
// and the ratio, checks that both engines return the same row count and the same leading numbers, and prints
// a query that svc refuses instead of aborting the run.
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { startServer } from '../test/helpers/server.js';
import { exec } from '../test/helpers/http.js';
import { medianMs, printFigures } from './lib/figures.js';
import type { FigureRow } from './lib/figures.js';
import { loadDuckAsofTables, loadDuckStandardTable, loadSvcAsofTables, loadSvcStandardTable } from './lib/standard-table.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 5);

interface BenchQuery {
  readonly name: string;
  readonly svc: string;
  readonly duck: string;
  /** Goal for the ratio svc/DuckDB from the performance reference. */
  readonly goal: string;
  /** Columns (0-based) of the first row compared between the engines; default all numeric ones. */
  readonly compare?: readonly number[];
  /** Another row's name: svc's time for this row over svc's time for that one is printed beside `baselineGoal`. */
  readonly baseline?: string;
  readonly baselineGoal?: string;
}

const SYMBOLS_32 = Array.from({ length: 32 }, (_, k) => `'S${k * 3}'`).join(', ');

const QUERIES: readonly BenchQuery[] = [
  { name: 'count(*)', svc: 'select count(*) from t', duck: 'select count(*) from t', goal: '≤ 1.0' },
  { name: 'sum(price)', svc: 'select sum(price) from t', duck: 'select sum(price) from t', goal: '≤ 1.0' },
  { name: 'avg(price) by sym', svc: 'select sym, avg(price) from t order by sym', duck: 'select sym, avg(price) from t group by sym order by sym', goal: '≤ 1.25' },
  {
    name: 'SAMPLE BY 1h avg/min/max/count',
    svc: 'select ts, avg(price), min(price), max(price), count() from t sample by 1h',
    duck: "select time_bucket(interval '1 hour', ts) ts, avg(price), min(price), max(price), count(*) from t group by 1 order by 1",
    goal: '≤ 0.5',
  },
  {
    name: 'LATEST ON ts PARTITION BY sym',
    svc: 'select * from t latest on ts partition by sym',
    duck: 'select * from t qualify row_number() over (partition by sym order by ts desc) = 1',
    goal: '≤ 0.1',
  },
  {
    name: "GROUP BY timestamp_floor('1h', ts) avg/min/max/count",
    svc: "select timestamp_floor('1h', ts) h, avg(price), min(price), max(price), count() from t group by h",
    duck: "select time_bucket(interval '1 hour', ts) h, avg(price), min(price), max(price), count(*) from t group by 1 order by 1",
    goal: '≤ 0.5', baseline: 'SAMPLE BY 1h avg/min/max/count', baselineGoal: '≤ 1.1',
  },
  { name: "count where sym='S42'", svc: "select count(*) from t where sym = 'S42'", duck: "select count(*) from t where sym = 'S42'", goal: '≤ 1.5' },
  {
    name: 'count where sym IN (32 values)', svc: `select count(*) from t where sym in (${SYMBOLS_32})`, duck: `select count(*) from t where sym in (${SYMBOLS_32})`,
    goal: '≤ 1.5', baseline: "count where sym='S42'", baselineGoal: '≤ 1.2',
  },
  { name: 'avg(price) DOUBLE', svc: 'select avg(price) from t', duck: 'select avg(price) from t', goal: '≤ 1.0' },
  { name: 'avg(amount) LONG', svc: 'select avg(amount) from t', duck: 'select avg(amount) from t', goal: '≤ 1.0', baseline: 'avg(price) DOUBLE', baselineGoal: '≤ 1.1' },
  { name: "count where sym='S42' and price>500", svc: "select count(*) from t where sym = 'S42' and price > 500", duck: "select count(*) from t where sym = 'S42' and price > 500", goal: '≤ 1.5' },
  {
    name: 'one-day interval count+avg',
    svc: "select count(*), avg(price) from t where ts in '2024-01-05'",
    duck: "select count(*), avg(price) from t where ts >= timestamp '2024-01-05' and ts < timestamp '2024-01-06'",
    goal: '≤ 1.0',
  },
  {
    name: 'ASOF JOIN 1M x 1M on sym',
    svc: 'select count(*), sum(q.bid) from trades1m t asof join quotes1m q on (sym)',
    duck: 'select count(*), sum(q.bid) from trades1m t asof left join quotes1m q on t.sym = q.sym and t.ts >= q.ts',
    goal: '≤ 0.5',
  },
  { name: 'ORDER BY price DESC LIMIT 10', svc: 'select * from t order by price desc limit 10', duck: 'select * from t order by price desc limit 10', goal: '≤ 1.5', compare: [2] },
  { name: 'last 10 rows (LIMIT -10)', svc: 'select * from t limit -10', duck: 'select * from (select * from t order by ts desc limit 10) order by ts', goal: '≤ 0.2' },
];

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
  try {
    await loadSvcStandardTable(server.baseUrl, rowCount);
    await loadSvcAsofTables(server.baseUrl);
    await loadDuckStandardTable(duck, rowCount);
    await loadDuckAsofTables(duck);
    const figures: FigureRow[] = [];
    const notes: string[] = [];
    for (const query of QUERIES) {
      const first = await exec(server.baseUrl, query.svc);
      if (first.status !== 200) {
        notes.push(`${query.name}: svc refused it: ${first.text.slice(0, 200)}`);
        continue;
      }
      const mismatch = await compareResults(first.json, duck, query);
      if (mismatch !== undefined) notes.push(`${query.name}: results differ: ${mismatch}`);
      const svcMs = await medianMs(runs, async () => {
        const response = await exec(server.baseUrl, query.svc);
        if (response.status !== 200) throw new Error(response.text);
      });
      const duckMs = await medianMs(runs, () => duck.runAndReadAll(query.duck));
      figures.push({ name: `${query.name} (ms)`, svc: svcMs, duckdb: duckMs, unit: 'ms', goal: query.goal });
    }
    printFigures(`SQL bench, ${rowCount} rows, median of ${runs}; svc 2 workers through HTTP vs DuckDB 2 threads in-process`, figures);
    printBaselineRatios(figures);
    for (const note of notes) process.stdout.write(`note: ${note}\n`);
  } finally {
    duck.closeSync();
    await server.stop();
    server.cleanup();
  }
}

/** svc against svc: a query form beside the form it should cost the same as (GROUP BY bucket vs SAMPLE BY...). */
function printBaselineRatios(figures: readonly FigureRow[]): void {
  const svcMs = new Map(figures.map((row) => [row.name, row.svc]));
  for (const query of QUERIES) {
    if (query.baseline === undefined) continue;
    const own = svcMs.get(`${query.name} (ms)`);
    const base = svcMs.get(`${query.baseline} (ms)`);
    if (own === undefined || base === undefined) continue;
    process.stdout.write(`svc ratio: ${query.name} / ${query.baseline} = ${(own / base).toFixed(2)} (goal ${query.baselineGoal ?? ''})\n`);
  }
}

/** Same number of rows, and the same numbers in the first row (to 1e-6 relative), or a description of the difference. */
async function compareResults(svcJson: unknown, duck: DuckDBConnection, query: BenchQuery): Promise<string | undefined> {
  const svcRows = (svcJson as { dataset: unknown[][] }).dataset;
  const duckRows = (await duck.runAndReadAll(query.duck)).getRowsJS() as unknown[][];
  if (svcRows.length !== duckRows.length) return `${svcRows.length} rows vs ${duckRows.length}`;
  const svcFirst = svcRows[0] ?? [];
  const duckFirst = duckRows[0] ?? [];
  for (let k = 0; k < Math.min(svcFirst.length, duckFirst.length); k++) {
    if (query.compare !== undefined && !query.compare.includes(k)) continue;
    const a = svcFirst[k];
    const b = duckFirst[k];
    if (typeof a !== 'number' || (typeof b !== 'number' && typeof b !== 'bigint')) continue;
    const expected = Number(b);
    if (Math.abs(a - expected) > 1e-6 * Math.max(1, Math.abs(expected))) return `column ${k + 1}: ${a} vs ${expected}`;
  }
  return undefined;
}

await main();
