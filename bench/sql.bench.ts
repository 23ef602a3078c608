// SQL bench: the standard table (BENCH_ROWS, default 10M) in svc (2 workers, through HTTP) and in DuckDB
// (2 threads, in-process) in the same run. svc runs every query twice over the same root: first with the
// parallel query threads off (query.parallel.thread.count=0), then on (2 threads per worker). For each query of
// the performance reference it prints the three medians and the ratios parallel/single and parallel/DuckDB,
// checks that svc and DuckDB return the same row count and the same leading numbers, and prints a query that
// svc refuses instead of aborting the run. Figures on a shared machine are noisy: compare within one run.
// BENCH_QUERY_FILTER (a regular expression over the query names) times only the matching rows.
// svc is asked through one kept-alive node:http connection (lib/keep-alive-client.ts), as a dashboard would:
// fetch's own CPU per request was a large part of the wall time of the millisecond queries.
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../test/helpers/server.js';
import { createKeepAliveClient } from './lib/keep-alive-client.js';
import { medianMs } from './lib/figures.js';
import { treeCpuMs } from './lib/process-cpu.js';
import { LEARNING_RUNS } from '../src/sql/parallel/parallel-choice.js';
import { loadDuckAsofTables, loadDuckStandardTable, loadSvcAsofTables, loadSvcStandardTable } from './lib/standard-table.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 10_000_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 5);
/**
 * Untimed runs of each svc query first: every worker process and every parallel thread JIT-compiles its own
 * copy of the kernels, and with the threads on, a process learns which way a text runs faster over its first
 * LEARNING_RUNS runs (both ways' warm-up runs, then judged runs of each in turn): the timed runs measure the
 * settled way, as a long-running server serves it.
 */
const warmups = Number(process.env['BENCH_WARMUPS'] ?? LEARNING_RUNS + 2);

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

const ALL_QUERIES: readonly BenchQuery[] = [
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

/** BENCH_QUERY_FILTER: a regular expression over the query names, to time only some rows while working on them. */
const queryFilter = new RegExp(process.env['BENCH_QUERY_FILTER'] ?? '');
const QUERIES = ALL_QUERIES.filter((query) => queryFilter.test(query.name));

/** Parallel threads per svc worker in the parallel pass (the machine has 2 cores; DuckDB gets 2 threads). */
const PARALLEL_THREADS = 2;

interface QueryTimes {
  single?: number;
  parallel?: number;
  duck?: number;
  /** svc CPU time per run (all processes and threads of the server), ms: robust where wall time is noisy. */
  singleCpu?: number;
  parallelCpu?: number;
}

async function main(): Promise<void> {
  const rootDir = mkdtempSync(join(tmpdir(), 'svc-bench-sql-'));
  const times = new Map<string, QueryTimes>(QUERIES.map((query) => [query.name, {}]));
  const notes: string[] = [];
  try {
    for (const mode of ['single', 'parallel'] as const) {
      const threads = mode === 'single' ? '0' : String(PARALLEL_THREADS);
      const server = await startServer({ workers: 2, rootDir, env: { SVC_QUERY_PARALLEL_THREAD_COUNT: threads } });
      try {
        if (mode === 'single') {
          await loadSvcStandardTable(server.baseUrl, rowCount);
          await loadSvcAsofTables(server.baseUrl);
        }
        await timeSvc(server.baseUrl, server.process.pid ?? -1, mode, times, notes);
      } finally {
        await server.stop();
      }
    }
    const duck = await (await DuckDBInstance.create(':memory:', { threads: '2' })).connect();
    try {
      await loadDuckStandardTable(duck, rowCount);
      await loadDuckAsofTables(duck);
      await timeDuck(duck, times, notes);
    } finally {
      duck.closeSync();
    }
    printTable(times);
    printBaselineRatios(times);
    for (const note of notes) process.stdout.write(`note: ${note}\n`);
  } finally {
    rmSync(rootDir, { recursive: true, force: true });
  }
}

async function timeSvc(baseUrl: string, serverPid: number, mode: 'single' | 'parallel', times: Map<string, QueryTimes>, notes: string[]): Promise<void> {
  const client = createKeepAliveClient(baseUrl);
  try {
    for (const query of QUERIES) {
      const first = await client.exec(query.svc);
      if (first.status !== 200) {
        notes.push(`${query.name} (${mode}): svc refused it: ${first.text.slice(0, 200)}`);
        continue;
      }
      for (let k = 0; k < warmups; k++) await client.exec(query.svc);
      const cpuBefore = treeCpuMs(serverPid);
      const time = times.get(query.name) as QueryTimes;
      time[mode] = await medianMs(runs, async () => {
        const response = await client.exec(query.svc);
        if (response.status !== 200) throw new Error(response.text);
      });
      time[mode === 'single' ? 'singleCpu' : 'parallelCpu'] = (treeCpuMs(serverPid) - cpuBefore) / runs;
      const firstJson: unknown = JSON.parse(first.text);
      if (mode === 'parallel') lastSvcResults.set(query.name, firstJson);
    }
  } finally {
    client.close();
  }
}

/** svc's first parallel result per query, compared with DuckDB's once DuckDB is loaded. */
const lastSvcResults = new Map<string, unknown>();

async function timeDuck(duck: DuckDBConnection, times: Map<string, QueryTimes>, notes: string[]): Promise<void> {
  for (const query of QUERIES) {
    const svcJson = lastSvcResults.get(query.name);
    if (svcJson !== undefined) {
      const mismatch = await compareResults(svcJson, duck, query);
      if (mismatch !== undefined) notes.push(`${query.name}: results differ: ${mismatch}`);
    }
    (times.get(query.name) as QueryTimes).duck = await medianMs(runs, () => duck.runAndReadAll(query.duck));
  }
}

function printTable(times: ReadonlyMap<string, QueryTimes>): void {
  const lines = [
    `\nSQL bench, ${rowCount} rows, median of ${runs} after ${warmups} warm-up runs (ms; the parallel choice learns over the first ${LEARNING_RUNS} runs of a text, so the timed runs see the settled way, as a long-running server does); svc 2 workers through HTTP, single = threads off, parallel = ${PARALLEL_THREADS} threads per worker; DuckDB 2 threads in-process`,
    '| query | svc single | svc parallel | DuckDB | parallel/single | parallel/DuckDB | goal svc/DuckDB | svc CPU single | svc CPU parallel |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|',
  ];
  const duckRatios: number[] = [];
  for (const query of QUERIES) {
    const time = times.get(query.name) ?? {};
    const ratio = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined ? '-' : (a / b).toFixed(2));
    if (time.parallel !== undefined && time.duck !== undefined) duckRatios.push(time.parallel / time.duck);
    const ms = (value: number | undefined): string => (value === undefined ? '-' : value.toFixed(1));
    lines.push(`| ${query.name} | ${ms(time.single)} | ${ms(time.parallel)} | ${ms(time.duck)} | ${ratio(time.parallel, time.single)} | ${ratio(time.parallel, time.duck)} | ${query.goal} | ${ms(time.singleCpu)} | ${ms(time.parallelCpu)} |`);
  }
  const geometricMean = Math.exp(duckRatios.reduce((sum, value) => sum + Math.log(value), 0) / Math.max(1, duckRatios.length));
  lines.push(`geometric mean of parallel/DuckDB: ${geometricMean.toFixed(2)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * svc against svc: a query form beside the form it should cost the same as (GROUP BY bucket vs SAMPLE BY...),
 * with parallel queries off (svc's default) and on.
 */
function printBaselineRatios(times: ReadonlyMap<string, QueryTimes>): void {
  for (const query of QUERIES) {
    if (query.baseline === undefined) continue;
    const own = times.get(query.name);
    const base = times.get(query.baseline);
    if (own === undefined || base === undefined) continue;
    const ratio = (mode: 'single' | 'parallel'): string => ((own[mode] ?? NaN) / (base[mode] ?? NaN)).toFixed(2);
    process.stdout.write(`svc ratio: ${query.name} / ${query.baseline} = ${ratio('single')} single, ${ratio('parallel')} parallel (goal ${query.baselineGoal ?? ''})\n`);
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
