// Load bench: 2 workers, 64 connections from wrk for LOAD_SECONDS (default 60): 48 connections send small
// `select … limit 10` queries, 16 send single-row inserts (bench/load/mix.lua). Prints p50/p99 latency,
// throughput and errors per kind, and the service's RSS (primary + workers) at the start, every 10 s, and
// at the end. Exits 1 when any request failed or the select p99 is over LOAD_P99_BOUND_MS (default 500).
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { exec } from '../test/helpers/http.js';

const seconds = Number(process.env['LOAD_SECONDS'] ?? 60);
const selectConnections = Number(process.env['LOAD_SELECT_CONNECTIONS'] ?? 48);
const insertConnections = Number(process.env['LOAD_INSERT_CONNECTIONS'] ?? 16);
const p99BoundMs = Number(process.env['LOAD_P99_BOUND_MS'] ?? 500);
const prefillRows = 1_000_000;

interface WrkFigures {
  readonly mode: string;
  readonly requests: number;
  readonly durationUs: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly connectErrors: number;
  readonly readErrors: number;
  readonly writeErrors: number;
  readonly statusErrors: number;
  readonly timeouts: number;
}

/** RSS of the primary and its workers in MB (from ps; the bench runs on Linux). */
function serviceRssMb(server: TestServer): number {
  const primary = server.process.pid as number;
  let pids = [primary];
  try {
    pids = pids.concat(execFileSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number));
  } catch {
    // no workers
  }
  const output = execFileSync('ps', ['-o', 'rss=', '-p', pids.join(',')], { encoding: 'utf8' });
  return output.trim().split(/\s+/).reduce((sum, kb) => sum + Number(kb), 0) / 1024;
}

function runWrk(baseUrl: string, mode: 'select' | 'insert', connections: number): Promise<WrkFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', join(import.meta.dirname, 'load', 'mix.lua'), baseUrl],
      { env: { ...process.env, LOAD_MODE: mode }, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.split('\n').find((entry) => entry.startsWith('{"mode"'));
      if (code !== 0 || line === undefined) reject(new Error(`wrk ${mode} failed (${code ?? 'signal'}):\n${output}`));
      else resolve(JSON.parse(line) as WrkFigures);
    });
  });
}

function errorsOf(figures: WrkFigures): number {
  return figures.connectErrors + figures.readErrors + figures.writeErrors + figures.statusErrors + figures.timeouts;
}

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  try {
    await exec(server.baseUrl, 'create table load_t (id long, sym symbol, price double, ts timestamp) timestamp(ts) partition by DAY');
    const prefill = await exec(server.baseUrl, `insert into load_t select x, 'S' || (x % 100), x * 0.5, cast(1704067200000000 + x * 1000000 as timestamp) from long_sequence(${prefillRows})`,
      {}, { signal: AbortSignal.timeout(600_000) });
    if (prefill.status !== 200) throw new Error(prefill.text);
    // Warm-up: compile paths and map files before measuring.
    for (let k = 0; k < 200; k++) await exec(server.baseUrl, 'select * from load_t limit 10');
    const rssStart = serviceRssMb(server);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(serviceRssMb(server)), 10_000);
    const [selects, inserts] = await Promise.all([runWrk(server.baseUrl, 'select', selectConnections), runWrk(server.baseUrl, 'insert', insertConnections)]);
    clearInterval(sampler);
    const rssEnd = serviceRssMb(server);
    const count = await exec(server.baseUrl, 'select count() from load_t');
    const lines = [
      `\nLoad: 2 workers, ${selectConnections + insertConnections} connections (${selectConnections} select, ${insertConnections} insert), ${seconds} s, ${prefillRows} rows prefilled`,
      '| kind | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | errors |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const figures of [selects, inserts]) {
      const rate = figures.requests / (figures.durationUs / 1e6);
      lines.push(`| ${figures.mode} | ${figures.requests} | ${rate.toFixed(0)} | ${figures.p50Ms.toFixed(2)} | ${figures.p90Ms.toFixed(2)} | ${figures.p99Ms.toFixed(2)} | ${figures.maxMs.toFixed(1)} | ${errorsOf(figures)} |`);
    }
    lines.push(`RSS (primary + workers): start ${rssStart.toFixed(0)} MB, every 10 s [${samples.map((mb) => mb.toFixed(0)).join(', ')}] MB, end ${rssEnd.toFixed(0)} MB`);
    lines.push(`rows after the run: ${count.text.trim()}`);
    lines.push(`select p99 bound ${p99BoundMs} ms: ${selects.p99Ms <= p99BoundMs ? 'held' : 'EXCEEDED'}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (errorsOf(selects) + errorsOf(inserts) > 0 || selects.p99Ms > p99BoundMs) process.exitCode = 1;
  } finally {
    await server.stop();
    server.cleanup();
  }
}

await main();
