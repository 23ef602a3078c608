// Query CPU of one worker before and after it hands buffers to threads: a parallel /imp (parse threads) and a
// Parquet export (encoding thread). A hand-off that detached a buffer in the worker's main thread (a transfer
// list) made V8 recompile its typed-array loops with a detach check per access, and every later query paid it.
// Prints the worker's CPU ms per query (all its threads, from schedstat; median of warm runs) at each stage, and
// how many protector invalidations V8 traced (--trace-protector-invalidation). BENCH_ENTRY runs another build's
// main.js; alternate runs with this checkout's on a loaded machine.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { exec, sqlUrl } from '../test/helpers/http.js';
import { importCsv } from '../test/helpers/upload.js';
import { loadSvcStandardTable } from './lib/standard-table.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 6_000_000);
const entryScript = process.env['BENCH_ENTRY'];
const RUNS = 19;
const WARMUP_RUNS = 3;
const QUERIES = ['select sym, avg(price) from t', 'select count() from t where price > 500', "select sum(amount) from t where sym = 'S7'"];

/** CPU time of every thread of `pid`, ms. */
function cpuMs(pid: number): number {
  let nanos = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return nanos / 1e6;
}

/** Median worker CPU ms of each query over the warm runs. */
async function queryCpu(server: TestServer, worker: number): Promise<number[]> {
  const medians: number[] = [];
  for (const query of QUERIES) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const before = cpuMs(worker);
      const response = await exec(server.baseUrl, query);
      if (response.status !== 200) throw new Error(`${query} → ${response.status} ${response.text}`);
      if (run >= WARMUP_RUNS) times.push(cpuMs(worker) - before);
    }
    times.sort((a, b) => a - b);
    medians.push(times[times.length >> 1] as number);
  }
  return medians;
}

/** About 13 MB without quotes: several 4 MB pieces, converted on the parse threads. */
async function importOnThreads(server: TestServer): Promise<void> {
  const lines = ['ts,sym,v'];
  for (let i = 0; i < 300_000; i++) lines.push(`${new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString()},S${i % 13},${i}`);
  const result = await importCsv(server.baseUrl, { name: 'imp', timestamp: 'ts', fmt: 'json' }, [{ name: 'data', filename: 'imp.csv', content: `${lines.join('\n')}\n` }]);
  if (result.status !== 200) throw new Error(`/imp → ${result.status} ${result.text}`);
}

async function exportParquet(server: TestServer): Promise<void> {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'select * from t limit 500000', { fmt: 'parquet' }));
  if (response.status !== 200) throw new Error(`/exp → ${response.status}`);
  await response.arrayBuffer();
}

async function main(): Promise<void> {
  const env = { SVC_HTTP_TEXT_PARSE_THREAD_COUNT: '2' };
  const server = await startServer({ workers: 1, env, nodeArgs: ['--trace-protector-invalidation'], ...(entryScript === undefined ? {} : { entryScript }) });
  const detaches = (): number => server.output().split('\n').filter((line) => line.includes('ArrayBufferDetaching')).length;
  try {
    await loadSvcStandardTable(server.baseUrl, rowCount);
    const worker = Number(execFileSync('pgrep', ['-P', String(server.process.pid)], { encoding: 'utf8' }).trim().split('\n')[0]);
    const lines = [`\nWorker CPU ms per query, ${rowCount} rows, median of ${RUNS - WARMUP_RUNS} warm runs (${entryScript ?? 'this checkout'})`,
      `| stage | ${QUERIES.join(' | ')} | detach invalidations |`, `|---|${QUERIES.map(() => '---:|').join('')}---:|`];
    // Two fresh stages: the first also warms the JIT, the second is the baseline.
    const stages: [string, () => Promise<void>][] = [['fresh', async () => {}], ['fresh, again', async () => {}], ['after a parallel /imp', () => importOnThreads(server)], ['after a Parquet /exp', () => exportParquet(server)]];
    for (const [stage, action] of stages) {
      await action();
      const medians = await queryCpu(server, worker);
      lines.push(`| ${stage} | ${medians.map((ms) => ms.toFixed(1)).join(' | ')} | ${detaches()} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await server.stop();
    server.cleanup();
  }
}

await main();
