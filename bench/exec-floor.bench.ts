// Per-request floor of /exec: CPU µs the server spends on one small query, from a sequential keep-alive loop
// against one worker process (so every request lands on the measured process). Small queries are dominated by
// what is paid per request (parse, bind, opening the table, JSON), not by scanning, and this is what lost to
// DuckDB in the SQL bench. BENCH_FLOOR_QUERIES sets the loop length per query; BENCH_ROWS the table size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'node:http';
import { startServer } from '../test/helpers/server.js';
import { loadSvcStandardTable } from './lib/standard-table.js';
import { treeCpuMs } from './lib/process-cpu.js';
import { getText } from './lib/keep-alive-client.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 5_000_000);
const loopCount = Number(process.env['BENCH_FLOOR_QUERIES'] ?? 2000);
const threads = process.env['BENCH_FLOOR_THREADS'] ?? '0';

const QUERIES: readonly { readonly name: string; readonly sql: string }[] = [
  { name: 'select 1', sql: 'select 1' },
  { name: 'count(*)', sql: 'select count(*) from t' },
  { name: 'one-day interval count+avg', sql: "select count(*), avg(price) from t where ts in '2024-01-05'" },
  { name: 'LIMIT -10', sql: 'select * from t limit -10' },
];

async function loop(baseUrl: string, sql: string, count: number, agent: Agent): Promise<void> {
  const url = `${baseUrl}/exec?query=${encodeURIComponent(sql)}`;
  for (let k = 0; k < count; k++) {
    const { status, text } = await getText(url, agent);
    if (status !== 200) throw new Error(`${sql}: ${status} ${text}`);
  }
}

async function main(): Promise<void> {
  const rootDir = mkdtempSync(join(tmpdir(), 'svc-bench-floor-'));
  const server = await startServer({ workers: 1, rootDir, env: { SVC_QUERY_PARALLEL_THREAD_COUNT: threads } });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lines = [
    `\n/exec floor, ${rowCount} rows, 1 worker, parallel threads ${threads}, ${loopCount} sequential keep-alive requests per query`,
    '| query | server CPU µs/query | wall µs/query |',
    '|---|---:|---:|',
  ];
  try {
    await loadSvcStandardTable(server.baseUrl, rowCount);
    for (const query of QUERIES) {
      await loop(server.baseUrl, query.sql, Math.ceil(loopCount / 10), agent);
      const cpuBefore = treeCpuMs(server.process.pid ?? -1);
      const started = process.hrtime.bigint();
      await loop(server.baseUrl, query.sql, loopCount, agent);
      const wallUs = Number(process.hrtime.bigint() - started) / 1e3 / loopCount;
      const cpuUs = ((treeCpuMs(server.process.pid ?? -1) - cpuBefore) * 1000) / loopCount;
      lines.push(`| ${query.name} | ${cpuUs.toFixed(0)} | ${wallUs.toFixed(0)} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(rootDir, { recursive: true, force: true });
  }
}

await main();
