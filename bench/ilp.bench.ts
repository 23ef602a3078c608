// ILP ingestion bench: pre-generated line-protocol bodies sent by several concurrent connections, over HTTP
// (POST /write) and over TCP (9009), for TSBS cpu-only rows (10 tags, 10 fields) and the standard narrow rows
// (trades: ts, sym, price, amount); the same narrow rows imported as CSV through /imp in the same run as the
// reference; /exec single-row INSERT throughput with 16 clients; peak RSS of every server process; CPU seconds
// per 1M rows of the primary and the workers, and the table commits each section made (out of order ones too).
// ILP (over HTTP and over TCP) and /imp are warmed up first (1M rows each into tables of their own, see warmUp;
// TSBS rows too: 1M over HTTP, 500,000 over TCP). Sizes: BENCH_ILP_NARROW_ROWS (default 4,000,000), BENCH_ILP_TSBS_ROWS (default 1,000,000).
// Every body (ILP and CSV) is generated before the first server starts and the sections run back to back: 4M
// rows of ILP took 11 s to generate, longer than the 10 s after which an idle server gives back the memory it
// keeps for ingest (turn memory, builder pools) and V8 shrinks its heaps, so generating them between sections
// measured each section on a server that had just gone idle, not on one under sustained load.
// BENCH_ILP_ONLY=exec runs only the /exec INSERT section; BENCH_EXEC_BASELINE=<main.js of another build> runs it
// against that build too, alternating, so before and after meet the same machine load; BENCH_EXEC_COMMIT_MODE
// sets cairo.commit.mode for that section (nosync, the server's default, unless set); BENCH_EXEC_WARMUP_MS its
// warm-up (5 s). The section also says how many inserts each commit (_txn publication) carried: how well
// concurrent single-row INSERTs group. BENCH_ILP_ONLY=narrow runs only the narrow rows (/imp, HTTP, TCP over
// BENCH_ILP_CONNECTIONS connections and over one), each
// on a fresh server warmed up the same way; BENCH_ILP_BASELINE=<main.js of another
// build> runs them on that build too, alternating (BENCH_ILP_ROUNDS rounds, 2 by default), and prints each
// series' median and range after the rounds. BENCH_ILP_ONLY=tsbs
// does the same for the TSBS rows over HTTP (a fresh server each, warmed by a first pass of up to 1M rows into
// another table). BENCH_ILP_NODE_ARGS passes node flags to the narrow and TSBS servers (workers inherit them);
// BENCH_ILP_SERVER_ENV settings (`SVC_X=v SVC_Y=w`), e.g. another line.tcp.max.uncommitted.size.
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { decodeTxn } from '../src/storage/txn-file.js';
import { KeepAliveGet } from './lib/keep-alive-get.js';
import { getText } from './lib/keep-alive-client.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { standardCsvChunks } from '../test/helpers/csv-stream.js';
import { ilpBodies, standardIlpRow, tsbsCpuRow } from './lib/ilp-bodies.js';
import { post, tableRowCount } from './lib/ingest-requests.js';
import { RoundFigures } from './lib/round-summary.js';

const narrowRows = Number(process.env['BENCH_ILP_NARROW_ROWS'] ?? 4_000_000);
const tsbsRows = Number(process.env['BENCH_ILP_TSBS_ROWS'] ?? 1_000_000);
const connections = Number(process.env['BENCH_ILP_CONNECTIONS'] ?? 8);
const rowsPerBody = 50_000;
const execOnly = process.env['BENCH_ILP_ONLY'] === 'exec';
const narrowOnly = process.env['BENCH_ILP_ONLY'] === 'narrow';
const tsbsOnly = process.env['BENCH_ILP_ONLY'] === 'tsbs';
const narrowBaseline = process.env['BENCH_ILP_BASELINE'];
const narrowRounds = Number(process.env['BENCH_ILP_ROUNDS'] ?? 2);
/** Extra node flags for the server (the workers inherit them), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const serverNodeArgs = (process.env['BENCH_ILP_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
/** Extra server settings for the narrow and TSBS servers, as `NAME=value` pairs separated by spaces (SVC_* names). */
const serverEnv = Object.fromEntries((process.env['BENCH_ILP_SERVER_ENV'] ?? '').split(' ').filter((pair) => pair.includes('='))
  .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const execBaseline = process.env['BENCH_EXEC_BASELINE'];
const execCommitMode = process.env['BENCH_EXEC_COMMIT_MODE'];
/** Clients, duration in ms and target in rows/s of the /exec INSERT measure (issue #18). */
const execClients = 16;
const execDurationMs = Number(process.env['BENCH_EXEC_DURATION_MS'] ?? 5000);
/**
 * Warm-up of the /exec INSERT measure, in ms. After 1 s on the loaded machine V8 was still optimizing the
 * request path (about 150 functions in the next 4 s, a quarter of every process's CPU on its compiler threads),
 * and a warming server is what the figures then described, not the long-running one.
 */
const execWarmupMs = Number(process.env['BENCH_EXEC_WARMUP_MS'] ?? 5000);
const execTargetRowsPerSecond = 3000;
const tsbsHosts = 1000;

/** Sends every body over `connections` keep-alive connections; returns seconds. */
async function sendHttp(server: TestServer, bodies: readonly Buffer[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, async () => {
    for (let k = next++; k < bodies.length; k = next++) {
      const answer = await post(agent, server.httpPort, '/write', bodies[k] as Buffer);
      if (answer.status !== 204) throw new Error(`/write answered ${answer.status}: ${answer.text}`);
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return seconds;
}

/** Sends the bodies over `senders` TCP connections, then waits until `table` holds `expected` rows. */
async function sendTcp(server: TestServer, port: number, bodies: readonly Buffer[], table: string, expected: number, senders = connections): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: senders }, () => new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', reject);
    const pump = (): void => {
      for (let k = next++; k < bodies.length; k = next++) {
        if (!socket.write(bodies[k] as Buffer)) {
          socket.once('drain', pump);
          return;
        }
      }
      socket.end(() => resolve());
    };
    socket.on('connect', pump);
  })));
  while ((await tableRowCount(server, table)) < expected) await new Promise((resolve) => setTimeout(resolve, 20));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const csvBoundary = '----svc-bench-ilp';

/** The multipart /imp body of the first `rows` standard rows as CSV. */
function csvBody(rows: number): Buffer {
  const parts = [Buffer.from(`--${csvBoundary}\r\nContent-Disposition: form-data; name="data"; filename="t.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    ...standardCsvChunks(rows, 8 << 20), Buffer.from(`\r\n--${csvBoundary}--\r\n`)];
  return Buffer.concat(parts);
}

async function importCsv(server: TestServer, body: Buffer, rows: number, table = 'trades_csv'): Promise<number> {
  const boundary = csvBoundary;
  const agent = new Agent({ keepAlive: false });
  const started = process.hrtime.bigint();
  const answer = await post(agent, server.httpPort, `/imp?name=${table}&timestamp=ts&partitionBy=DAY&fmt=json`, body, { 'Content-Type': `multipart/form-data; boundary=${boundary}` });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!answer.text.includes(`"rowsImported":${rows}`)) throw new Error(`import failed: ${answer.text}`);
  return seconds;
}

/**
 * Rows/s of single-row INSERTs from `clients` concurrent clients over `durationMs`, each on its own keep-alive
 * connection (keep-alive-get.ts: a lean client, so the bench process takes little of the CPU the server needs).
 */
async function execInserts(server: TestServer, clients: number, durationMs: number): Promise<number> {
  await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent('create table if not exists ins (ts timestamp, sym symbol, v double) timestamp(ts) partition by DAY WAL')}`);
  const connections = await Promise.all(Array.from({ length: clients }, () => KeepAliveGet.open(server.httpPort)));
  const deadline = Date.now() + durationMs;
  let rows = 0;
  try {
    await Promise.all(connections.map(async (connection, client) => {
      for (let k = 0; Date.now() < deadline; k++) {
        // now() is evaluated by the primary when the statement commits, so rows arrive in time order, as they do
        // from applications stamping rows with the current time.
        const answer = await connection.get(`/exec?query=${encodeURIComponent(`insert into ins values(now(), 'c${client}', ${k})`)}`);
        if (answer !== 200) throw new Error(`insert answered ${answer}`);
        rows++;
      }
    }));
  } finally {
    for (const connection of connections) connection.close();
  }
  return rows / (durationMs / 1000);
}

/** The primary's pid and its children's (the workers). */
function serverPids(primaryPid: number): number[] {
  const pids = [primaryPid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === primaryPid) pids.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

/** CPU seconds (user + system) each server process has used so far. */
function cpuSeconds(pids: readonly number[]): number[] {
  return pids.map((pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  });
}

/** Table commits and those that needed an out-of-order merge (a copy of the partition's rows), from /metrics. */
async function commitCounts(server: TestServer): Promise<{ commits: number; o3: number; moved: number; rows: number; physical: number }> {
  // A fresh connection each time: fetch reused a kept-alive socket the metrics server had closed after its idle
  // timeout while the import ran, and failed with "other side closed".
  const { text } = await getText(`${server.adminUrl}/metrics`, new Agent({ keepAlive: false }));
  const value = (name: string): number => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  // Connections moved to another worker (Connection: close); NaN on a build without rebalancing.
  return {
    commits: value('svc_commits_total'), o3: value('svc_o3_commits_total'), moved: value('svc_http_connections_rebalanced_total'),
    rows: value('svc_committed_rows_total'), physical: value('svc_physically_written_rows_total'),
  };
}

/**
 * Runs `action` and says how many CPU seconds per million rows the primary and the workers spent on it, and
 * how many table commits it made, how many of them out of order.
 */
async function withCpu<T>(server: TestServer, rows: number, action: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const pids = serverPids(server.process.pid ?? 0);
  const before = cpuSeconds(pids);
  const commitsBefore = await commitCounts(server);
  const result = await action();
  const used = cpuSeconds(pids).map((after, k) => after - (before[k] as number));
  const commitsAfter = await commitCounts(server);
  const perMillion = (seconds: number): string => (seconds / (rows / 1e6)).toFixed(2);
  const workers = used.slice(1).reduce((sum, seconds) => sum + seconds, 0);
  const moved = commitsAfter.moved - commitsBefore.moved;
  // Rows written into column files per row committed (NaN on a build without the metric).
  const amplification = (commitsAfter.physical - commitsBefore.physical) / (commitsAfter.rows - commitsBefore.rows);
  const commits = `${commitsAfter.commits - commitsBefore.commits} commits, ${commitsAfter.o3 - commitsBefore.o3} out of order`
    + `${Number.isNaN(amplification) ? '' : `, ${amplification.toFixed(2)} rows written per row`}${Number.isNaN(moved) ? '' : `, ${moved} connections moved`}`;
  // Each worker's share: the primary hands keep-alive connections to whichever worker answers first, and a split
  // such as 8 connections to 0 leaves one worker parsing everything on one core for the whole run.
  const shares = used.slice(1).map((seconds) => `${Math.round((100 * seconds) / Math.max(workers, 1e-9))}%`).join('/');
  return { result, cpu: `CPU s per 1M rows: primary ${perMillion(used[0] ?? 0)}, workers ${perMillion(workers)} (${shares}); ${commits}` };
}

/** VmHWM (peak RSS) of the primary and of each of its children, in MB. */
function peakRss(primaryPid: number): string {
  return serverPids(primaryPid).map((pid, k) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return `${k === 0 ? 'primary' : `worker ${k}`} ${(kb / 1024).toFixed(0)} MB`;
  }).join(', ');
}

function line(measure: string, value: number, reference: number | undefined, note: string): string {
  const ratio = reference === undefined ? '' : (value / reference).toFixed(2);
  return `| ${measure} | ${Math.round(value).toLocaleString('en-US')} | ${reference === undefined ? '' : Math.round(reference).toLocaleString('en-US')} | ${ratio} | ${note} |`;
}

/** The committed txn number and row count of the /exec INSERT table, from its _txn. */
function insertTableTxn(server: TestServer): { txn: number; rows: number } {
  const dbDir = join(server.rootDir, 'db');
  const dir = readdirSync(dbDir).find((name) => name === 'ins' || name.startsWith('ins~'));
  if (dir === undefined) throw new Error(`no directory of table ins in ${dbDir}`);
  const path = join(dbDir, dir, '_txn');
  const state = decodeTxn(readFileSync(path), path);
  return { txn: state.txn, rows: state.rowCount };
}

/** The /exec INSERT measure on a server of `entryScript` (this checkout's build when undefined), with its CPU per insert. */
async function execInsertLine(name: string, entryScript: string | undefined): Promise<string> {
  const env: Record<string, string> = { SVC_METRICS_ENABLED: 'true', ...(execCommitMode === undefined ? {} : { SVC_CAIRO_COMMIT_MODE: execCommitMode }) };
  const server = await startServer({ workers: 2, env, ...(entryScript === undefined ? {} : { entryScript }) });
  try {
    // A first run warms both sides up (JIT, table files), as the ILP sections do in the full bench.
    await execInserts(server, execClients, execWarmupMs);
    const pids = serverPids(server.process.pid ?? 0);
    const before = cpuSeconds(pids);
    const txnBefore = insertTableTxn(server);
    const movedBefore = (await commitCounts(server)).moved;
    const clientBefore = process.cpuUsage();
    const rowsPerSecond = await execInserts(server, execClients, execDurationMs);
    const moved = (await commitCounts(server)).moved - movedBefore;
    const used = cpuSeconds(pids).map((after, k) => after - (before[k] as number));
    const client = process.cpuUsage(clientBefore);
    const txnAfter = insertTableTxn(server);
    const insertsPerTxn = (txnAfter.rows - txnBefore.rows) / Math.max(1, txnAfter.txn - txnBefore.txn);
    const inserts = rowsPerSecond * (execDurationMs / 1000);
    const perInsert = (seconds: number): string => `${((seconds / inserts) * 1e6).toFixed(0)} µs`;
    const workers = used.slice(1).reduce((sum, seconds) => sum + seconds, 0);
    const note = `${name}; ratio to the target ${(rowsPerSecond / execTargetRowsPerSecond).toFixed(2)}; CPU per insert: primary ${perInsert(used[0] ?? 0)}, workers ${perInsert(workers)}, bench client ${perInsert((client.user + client.system) / 1e6)}; ${insertsPerTxn.toFixed(1)} inserts per _txn${Number.isNaN(moved) ? '' : `; ${moved} connections moved`}; load ${loadavg()[0]?.toFixed(1)}`;
    return line(`/exec single-row INSERT, ${execClients} clients`, rowsPerSecond, execTargetRowsPerSecond, note);
  } finally {
    await server.stop();
    server.cleanup();
  }
}

/**
 * The lines `measure` gives for this build, once; with a baseline build, `rounds` times alternating with the
 * baseline's (baseline first), so both meet the same drift of the machine's load.
 */
async function alternatedLines(baseline: string | undefined, rounds: number, measure: (name: string, entryScript: string | undefined) => Promise<string[]>): Promise<string[]> {
  const lines: string[] = [];
  for (let round = 0; round < (baseline === undefined ? 1 : rounds); round++) {
    if (baseline !== undefined) lines.push(...(await measure('before', baseline)));
    lines.push(...(await measure(baseline === undefined ? 'this build' : 'after', undefined)));
  }
  return lines;
}

/** Only the /exec INSERT measure, alternating this build and the baseline build three times when one is given. */
async function mainExecOnly(): Promise<void> {
  const lines = ['| measure | svc rows/s | target rows/s | ratio | note |', '|---|---:|---:|---:|---|'];
  lines.push(...(await alternatedLines(execBaseline, 3, async (name, entryScript) => [await execInsertLine(name, entryScript)])));
  process.stdout.write(`\n/exec INSERT, ${execClients} clients, ${execDurationMs} ms each, commit mode ${execCommitMode ?? 'nosync (default)'}\n${lines.join('\n')}\n`);
}

/** The warm-up's bodies: up to 1M narrow rows as ILP (for HTTP and for TCP) and as CSV, into tables of their own. */
interface WarmBodies { readonly rows: number; readonly ilp: readonly Buffer[]; readonly tcp: readonly Buffer[]; readonly csv: Buffer }

function warmBodies(): WarmBodies {
  const rows = Math.min(narrowRows, 1_000_000);
  return {
    rows, ilp: ilpBodies(rows, rowsPerBody, (i) => standardIlpRow(i, 'warm')), tcp: ilpBodies(rows, rowsPerBody, (i) => standardIlpRow(i, 'warm_tcp')), csv: csvBody(rows),
  };
}

/**
 * Warms every measured path up on a fresh server (JIT, table files, kept memory), each into a table of its own:
 * the figures describe a long-running server, and the first requests of a path tier up its parser and commit
 * code. Without this the full bench measured ILP on its very first requests while /imp's one large request
 * amortised its own warm-up, which understated ILP ÷ /imp. TCP is warmed over as many connections as it is
 * measured with: warmed over HTTP only, the TCP section ran the TCP connections' code, their larger commit units
 * and the primary's out-of-order merges for the first time (a second TCP run on the same server took 0.2-0.3 CPU s
 * less per 1M rows in probes, mostly page faults of memory the first run grew).
 */
async function warmUp(server: TestServer, bodies: WarmBodies): Promise<void> {
  await sendHttp(server, bodies.ilp);
  await sendTcp(server, server.ilpTcpPort, bodies.tcp, 'warm_tcp', bodies.rows);
  await importCsv(server, bodies.csv, bodies.rows, 'warm_csv');
}

/** The narrow section's figures of every round, for the medians printed after the rounds. */
const narrowFigures = new RoundFigures();

/** Every body the narrow section sends, generated once for all its servers. */
interface NarrowBodies { readonly warm: WarmBodies; readonly csv: Buffer; readonly http: readonly Buffer[]; readonly tcp: readonly Buffer[]; readonly tcpOne: readonly Buffer[] }

function narrowBodies(): NarrowBodies {
  return {
    warm: warmBodies(), csv: csvBody(narrowRows), http: ilpBodies(narrowRows, rowsPerBody, standardIlpRow),
    // Own tables for TCP: the same rows into the HTTP tables would all be out of order (older than the newest).
    tcp: ilpBodies(narrowRows, rowsPerBody, (i) => standardIlpRow(i, 'trades_tcp')), tcpOne: ilpBodies(narrowRows, rowsPerBody, (i) => standardIlpRow(i, 'trades_tcp1')),
  };
}

/** The narrow rows through /imp, HTTP and TCP on a fresh server of `entryScript` (this checkout's build when undefined). */
async function narrowLines(bodies: NarrowBodies, name: string, entryScript: string | undefined): Promise<string[]> {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', ...serverEnv }, nodeArgs: serverNodeArgs, ...(entryScript === undefined ? {} : { entryScript }) });
  try {
    await warmUp(server, bodies.warm);
    const csv = await withCpu(server, narrowRows, () => importCsv(server, bodies.csv, narrowRows));
    const imp = narrowRows / csv.result;
    const http = await withCpu(server, narrowRows, () => sendHttp(server, bodies.http));
    const tcp = await withCpu(server, narrowRows, () => sendTcp(server, server.ilpTcpPort, bodies.tcp, 'trades_tcp', narrowRows));
    const one = await withCpu(server, narrowRows, () => sendTcp(server, server.ilpTcpPort, bodies.tcpOne, 'trades_tcp1', narrowRows, 1));
    const load = `load ${loadavg()[0]?.toFixed(1)}`;
    const figures = [
      { measure: `${name}: narrow rows, HTTP /write`, value: narrowRows / http.result, note: `${http.cpu}; /imp: ${csv.cpu}; ${load}` },
      { measure: `${name}: narrow rows, TCP 9009`, value: narrowRows / tcp.result, note: `${tcp.cpu}; ${load}` },
      { measure: `${name}: narrow rows, TCP 9009, 1 connection`, value: narrowRows / one.result, note: `${one.cpu}; ${load}` },
    ];
    for (const figure of figures) narrowFigures.add({ measure: figure.measure, value: figure.value, reference: imp });
    return figures.map((figure) => line(figure.measure, figure.value, imp, figure.note));
  } finally {
    await server.stop();
    server.cleanup();
  }
}

/** Only the narrow rows, alternating this build and the baseline build when one is given. */
async function mainNarrowOnly(): Promise<void> {
  const lines = ['| measure | svc rows/s | /imp rows/s | ratio | note |', '|---|---:|---:|---:|---|'];
  const bodies = narrowBodies();
  lines.push(...(await alternatedLines(narrowBaseline, narrowRounds, (name, entryScript) => narrowLines(bodies, name, entryScript))));
  process.stdout.write(`\nILP narrow rows, ${narrowRows.toLocaleString('en-US')} rows, ${connections} connections, 2 workers\n${lines.join('\n')}\n`);
  if (narrowRounds > 1 && narrowBaseline !== undefined) process.stdout.write(`\nMedians over the rounds (reference: the same round's /imp)\n${narrowFigures.summaryLines().join('\n')}\n`);
}

/** The TSBS rows over HTTP on a fresh server of `entryScript` (this checkout's build when undefined). */
/** The TSBS section's bodies: the warm-up pass (into its own table) and the measured one. */
interface TsbsBodies { readonly warmRows: number; readonly warm: readonly Buffer[]; readonly measured: readonly Buffer[] }

function tsbsBodies(): TsbsBodies {
  const warmRows = Math.min(tsbsRows, 1_000_000);
  return { warmRows, warm: ilpBodies(warmRows, rowsPerBody, (i) => tsbsCpuRow(i, tsbsHosts, 'cpu_warm')), measured: ilpBodies(tsbsRows, rowsPerBody, (i) => tsbsCpuRow(i, tsbsHosts)) };
}

async function tsbsLine(bodies: TsbsBodies, name: string, entryScript: string | undefined): Promise<string> {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', ...serverEnv }, nodeArgs: serverNodeArgs, ...(entryScript === undefined ? {} : { entryScript }) });
  try {
    // The warm-up must reach both workers: 500k rows are 10 bodies for 8 connections, and when the connections
    // land on one worker the other met its first TSBS rows (JIT warm-up, deopts) in the measured pass, which
    // then cost 3.1-3.7 CPU s per 1M rows in the workers instead of 2.3-2.4. With 20 bodies the connections
    // moved after the first round still carry about half of the other 12; the note says how the warm-up split.
    const warm = await withCpu(server, bodies.warmRows, () => sendHttp(server, bodies.warm));
    const http = await withCpu(server, tsbsRows, () => sendHttp(server, bodies.measured));
    const warmSplit = /\(([^)]*)\)/.exec(warm.cpu)?.[1] ?? '?';
    return line(`${name}: TSBS cpu-only rows, HTTP /write`, tsbsRows / http.result, undefined, `${http.cpu}; warm-up split ${warmSplit}; load ${loadavg()[0]?.toFixed(1)}`);
  } finally {
    await server.stop();
    server.cleanup();
  }
}

/** Only the TSBS rows over HTTP, alternating this build and the baseline build when one is given. */
async function mainTsbsOnly(): Promise<void> {
  const lines = ['| measure | svc rows/s | | | note |', '|---|---:|---:|---:|---|'];
  const bodies = tsbsBodies();
  lines.push(...(await alternatedLines(narrowBaseline, narrowRounds, async (name, entryScript) => [await tsbsLine(bodies, name, entryScript)])));
  process.stdout.write(`\nILP TSBS rows, ${tsbsRows.toLocaleString('en-US')} rows, ${connections} connections, 2 workers\n${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const bodies = narrowBodies();
  const narrow = bodies.http;
  // The TSBS-only section's bodies: its warm-up pass, and the measured rows (table cpu).
  const tsbsWarm = tsbsBodies();
  const tsbs = tsbsWarm.measured;
  const tsbsTcp = ilpBodies(tsbsRows, rowsPerBody, (i) => tsbsCpuRow(i, tsbsHosts, 'cpu_tcp'));
  const tsbsTcpWarmRows = Math.min(tsbsRows, 500_000);
  const tsbsTcpWarm = ilpBodies(tsbsTcpWarmRows, rowsPerBody, (i) => tsbsCpuRow(i, tsbsHosts, 'cpu_tcp_warm'));
  const narrowMb = narrow.reduce((sum, body) => sum + body.length, 0) / 1e6;
  const tsbsMb = tsbs.reduce((sum, body) => sum + body.length, 0) / 1e6;
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true' } });
  const lines = ['| measure | svc rows/s | reference rows/s | ratio | note |', '|---|---:|---:|---:|---|'];
  try {
    await warmUp(server, bodies.warm);
    // TSBS rows too, over both transports, as the TSBS-only section does: unwarmed, the TSBS sections measured
    // the server's first wide rows (their parsing tiering up, the workers' builder pools growing to 21 columns:
    // 44,000 page faults and 2.7 worker CPU s per 1M rows in the first pass, 5,000 and 1.1 s in the next).
    await sendHttp(server, tsbsWarm.warm);
    await sendTcp(server, server.ilpTcpPort, tsbsTcpWarm, 'cpu_tcp_warm', tsbsTcpWarmRows);
    const csv = await withCpu(server, narrowRows, () => importCsv(server, bodies.csv, narrowRows));
    const csvSeconds = csv.result;
    const httpNarrow = await withCpu(server, narrowRows, () => sendHttp(server, narrow));
    lines.push(line('narrow rows, HTTP /write', narrowRows / httpNarrow.result, narrowRows / csvSeconds, `reference: the same rows through /imp; target ≥ 2,000,000 rows/s and ≥ 0.8 × /imp; ${narrowMb.toFixed(0)} MB of ILP; ${httpNarrow.cpu}; /imp: ${csv.cpu}`));
    const httpTsbs = await withCpu(server, tsbsRows, () => sendHttp(server, tsbs));
    lines.push(line('TSBS cpu-only rows, HTTP /write', tsbsRows / httpTsbs.result, undefined, `target ≥ 500,000 rows/s; ${tsbsMb.toFixed(0)} MB of ILP; ${httpTsbs.cpu}`));
    const tcpNarrow = await withCpu(server, narrowRows, () => sendTcp(server, server.ilpTcpPort, bodies.tcp, 'trades_tcp', narrowRows));
    lines.push(line('narrow rows, TCP 9009', narrowRows / tcpNarrow.result, narrowRows / csvSeconds, `reference: /imp; until the last row is visible; ${tcpNarrow.cpu}`));
    // One sender, as a single agent sends: each connection's rows are in time order, so they only append.
    const tcpOne = await withCpu(server, narrowRows, () => sendTcp(server, server.ilpTcpPort, bodies.tcpOne, 'trades_tcp1', narrowRows, 1));
    lines.push(line('narrow rows, TCP 9009, 1 connection', narrowRows / tcpOne.result, narrowRows / csvSeconds, `reference: /imp; until the last row is visible; ${tcpOne.cpu}`));
    const tcpTsbs = await withCpu(server, tsbsRows, () => sendTcp(server, server.ilpTcpPort, tsbsTcp, 'cpu_tcp', tsbsRows));
    lines.push(line('TSBS cpu-only rows, TCP 9009', tsbsRows / tcpTsbs.result, undefined, `until the last row is visible; ${tcpTsbs.cpu}`));
    if ((await tableRowCount(server, 'trades')) !== narrowRows || (await tableRowCount(server, 'cpu')) !== tsbsRows) throw new Error('row count mismatch');
    lines.push(await execInsertLine('own server', undefined));
    lines.push(`\npeak RSS: ${peakRss(server.process.pid ?? 0)}`);
  } finally {
    await server.stop();
    server.cleanup();
  }
  process.stdout.write(`\nILP ingestion, ${connections} connections, ${rowsPerBody.toLocaleString('en-US')} rows per request, 2 workers\n${lines.join('\n')}\n`);
}

await (execOnly ? mainExecOnly() : narrowOnly ? mainNarrowOnly() : tsbsOnly ? mainTsbsOnly() : main());
