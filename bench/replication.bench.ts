// Replication bench, against the real Swift store (../shared/services/s3): (1) the primary's ILP ingest rate
// with replication on ÷ off (same BENCH_ROWS bodies, default 5,000,000, 2 senders), by wall clock and by CPU
// seconds, over BENCH_ROUNDS rounds (default 3) that alternate the order of the runs (off, on, on at low
// priority; then the reverse) so a drift of the machine's load hits every side; each run starts fresh servers
// (and, on, a fresh store root and replica) so no run inherits another's data. Each round runs on twice: with
// every process at equal priority (the replica and Swift compete with the primary for this machine's 2
// cores), and with the replica and Swift's daemons at the lowest CPU priority, which models the deployment
// the ratio is about (replicas and the store on machines of their own, taking none of the primary's CPU).
// One on and one off run cannot state a ratio on a shared machine: the median, the spread and each round's
// ratio are printed. An ingest of 1M rows took half a second, which let a scheduling hiccup or a segment
// shipped just after the timing stopped decide the ratio; 5M rows per measured ingest is where it held still. Every server is warmed first by BENCH_WARM_ROWS rows (default
// 300,000) into a table of its own, as a long-running one is; the replica applies them before the timing
// starts, and every primary then idles BENCH_SETTLE_MS (default 10 s) so off and on start from the same GC
// state (see settleMs). CPU is split by process: the primary's, its workers', the replica's and Swift's daemons' (Swift's is
// an upper bound: other runs may use the shared store), and the store's requests for the run's root are
// counted by kind from Swift's access log, with the bytes it received (what the primary uploaded). (2)
// replication lag under sustained ILP ingest (the same bodies): a probe row inserted on the primary every 100 ms,
// timed until a replica answers it (p50/p99); (3) a new replica's time to bootstrap from a checkpoint that holds the
// standard table of BENCH_BOOTSTRAP_ROWS rows (default 10,000,000, built by INSERT ... SELECT on the primary,
// as the other benches build it), from spawn until it answers count() with every row.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { readLogFiles, startServer, type TestServer } from '../test/helpers/server.js';
import { sharedS3, type S3Service } from '../test/helpers/s3-service.js';
import { metricValue, replicationStore, replicationEnv, type ReplicationStore } from '../test/helpers/replication-cluster.js';
import { ilpBodies, standardIlpRow } from './lib/ilp-bodies.js';
import { loadSvcStandardTable } from './lib/standard-table.js';
import { cpuSince, serverCpu, serverPids, storeCpuSeconds, storePids, totalOf } from './lib/server-cpu.js';
import { printRounds, type RoundFigures } from './lib/replication-rounds.js';
import { lowerPriority } from './lib/cpu-priority.js';
import { storeLogOffset, storeTrafficSince, storeRootOf } from './lib/store-requests.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 5_000_000);
const bootstrapRows = Number(process.env['BENCH_BOOTSTRAP_ROWS'] ?? 10_000_000);
const roundCount = Number(process.env['BENCH_ROUNDS'] ?? 3);
const rowsPerBody = 10_000;
/**
 * Idle time before each timed ingest, off and on alike (BENCH_SETTLE_MS, default 10 s). The on run waited for
 * its replica before the timing and the off run did not, and after about 8 s of low allocation V8's memory
 * reducer runs a full GC that lowers the old generation's limit: a primary that had idled then started full GCs
 * under ingest that one which never idled did not, so the two runs began from different GC states. Both now
 * idle longer than that first, as a long-running primary has.
 */
const settleMs = Number(process.env['BENCH_SETTLE_MS'] ?? 10_000);
/**
 * Rows sent into a table of their own before each timed ingest (BENCH_WARM_ROWS): a long-running primary has
 * its request path compiled, and its segment encoder thread's heap and Brotli buffers grown, before the rows
 * that are timed arrive; a fresh one pays that (thousands of page faults) inside the first timed segments.
 */
const warmRows = Number(process.env['BENCH_WARM_ROWS'] ?? 300_000);
const warmBodies = ilpBodies(warmRows, rowsPerBody, (i) => standardIlpRow(i, 'warm'));
/** BENCH_ENTRY: another build's main.js (a copy of dist/ inside the repository), for A/B runs alternated with this one. */
const entryScript = process.env['BENCH_ENTRY'];
/**
 * BENCH_NODE_ARGS: Node options for every server this bench starts (space-separated), e.g. `--trace-gc`; the
 * servers' output is printed after a run that set them.
 */
const nodeArgs = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
const bucket = `svc-repl-bench-${randomBytes(4).toString('hex')}`;
/** Every server this run started: stopped and removed at the end, also when a step fails. */
const started: TestServer[] = [];

async function post(server: TestServer, body: Buffer): Promise<void> {
  const response = await fetch(`${server.baseUrl}/write`, { method: 'POST', body });
  if (response.status !== 204) throw new Error(`ILP → ${response.status} ${await response.text()}`);
}

async function count(server: TestServer, sql: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent(sql)}`);
  if (response.status !== 200) return -1;
  const body = await response.json() as { dataset: number[][] };
  return body.dataset[0]?.[0] ?? -1;
}

/** Sends every body, two requests at a time; returns rows/s. */
async function ingest(server: TestServer, bodies: readonly Buffer[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  const sender = async (): Promise<void> => {
    while (next < bodies.length) await post(server, bodies[next++] as Buffer);
  };
  await Promise.all([sender(), sender()]);
  return (bodies.length * rowsPerBody) / ((performance.now() - started) / 1000);
}

async function start(store: ReplicationStore | null, role: 'primary' | 'replica', rootDir?: string): Promise<TestServer> {
  // The default lease (tests shorten it so promotions are quick): its renewals are requests the primary pays for.
  const env = store === null ? {} : replicationEnv(store, role, { SVC_REPLICATION_PRIMARY_LEASE: '15s', SVC_REPLICATION_CHECKPOINT_INTERVAL: '1h' });
  const server = await startServer({ workers: 1, env, nodeArgs, ...(rootDir === undefined ? {} : { rootDir }), ...(entryScript === undefined ? {} : { entryScript }) });
  started.push(server);
  return server;
}

/**
 * A probe row every 100 ms while the bodies load; a poller asks the replica for the highest probe it has
 * every 20 ms and stamps each probe when it first appears. Probes do not wait for each other, so a lag of
 * a second still gives ten samples per second of load.
 */
async function measureLag(primary: TestServer, replica: TestServer, bodies: readonly Buffer[]): Promise<number[]> {
  await fetch(`${primary.baseUrl}/exec?query=${encodeURIComponent('create table probe (k long, ts timestamp) timestamp(ts) partition by day')}`);
  const committedAt: number[] = [];
  const samples: number[] = [];
  let loading = true;
  const load = ingest(primary, bodies).finally(() => { loading = false; });
  const poll = (async (): Promise<void> => {
    while (loading || samples.length < committedAt.length) {
      const seen = await count(replica, 'select max(k) from probe');
      const now = performance.now();
      for (let k = samples.length + 1; k <= Math.min(seen, committedAt.length); k++) samples.push(now - (committedAt[k - 1] ?? now));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  for (let k = 1; loading; k++) {
    await fetch(`${primary.baseUrl}/exec?query=${encodeURIComponent(`insert into probe values (${k}, now())`)}`);
    committedAt.push(performance.now());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await load;
  await poll;
  return samples.sort((a, b) => a - b);
}

/**
 * A restarted primary uploads a checkpoint of everything at start: what a new replica bootstraps from. The
 * replica is started once the checkpoint is complete, so it neither replays the older segments nor waits.
 */
async function bootstrap(store: ReplicationStore, rootDir: string, rows: number): Promise<{ checkpointSeconds: number; checkpointBytes: number; bootSeconds: number; applySeconds: number }> {
  const restartedAt = performance.now();
  const restarted = await start(store, 'primary', rootDir);
  let checkpointBytes = 0;
  for (;;) {
    const pending = await metricValue(restarted, 'svc_replication_pending_bytes');
    checkpointBytes = Math.max(checkpointBytes, pending);
    if (pending === 0 && await metricValue(restarted, 'svc_replication_shipped_sequence') > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const checkpointSeconds = (performance.now() - restartedAt) / 1000;
  const bootStarted = performance.now();
  const late = await start(store, 'replica');
  while (await count(late, 'select count() from t') !== rows) await new Promise((resolve) => setTimeout(resolve, 50));
  const bootSeconds = (performance.now() - bootStarted) / 1000;
  await late.stop();
  // Read after the stop, which flushes the replica's log.
  const applySeconds = checkpointApplyMs(late.rootDir) / 1000;
  for (const server of [restarted, late]) {
    await server.stop();
    server.cleanup();
  }
  return { checkpointSeconds, checkpointBytes, bootSeconds, applySeconds };
}

/** What the replica logged its checkpoint sync took (download, check, decompress, write), NaN if not found. */
function checkpointApplyMs(rootDir: string): number {
  const match = /replica synced from checkpoint \d+ \(\d+ parts\) in (\d+) ms/.exec(readLogFiles(rootDir));
  return match === null ? Number.NaN : Number(match[1]);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

async function stopAndRemove(server: TestServer): Promise<void> {
  started.splice(started.indexOf(server), 1);
  await server.stop();
  if (nodeArgs.length > 0) process.stderr.write(`--- output of the server at ${server.rootDir}, pid ${server.process.pid ?? 0}\n${server.output()}\n`);
  server.cleanup();
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, settleMs));
}

/** Polls `check` every `intervalMs`; the polls of a replica are queries it spends CPU on, so not too often. */
async function until(check: () => Promise<boolean>, intervalMs = 50): Promise<void> {
  while (!await check()) await new Promise((resolve) => setTimeout(resolve, intervalMs));
}

/** A fresh server without replication takes the bodies. */
async function offRound(bodies: readonly Buffer[]): Promise<RoundFigures> {
  const server = await start(null, 'primary');
  await ingest(server, warmBodies);
  await settle();
  const before = serverCpu(server);
  const rate = await ingest(server, bodies);
  const cpu = cpuSince(serverCpu(server), before);
  await stopAndRemove(server);
  return { rate, ...cpu, replica: 0, store: 0, requests: new Map(), receivedBytes: 0 };
}

/**
 * A fresh primary and replica on a fresh store root; the primary's start checkpoint is shipped and applied
 * before the bodies go. CPU is counted until the replica answers with every row, so the shipping of the last
 * segment and its apply are in the figures, and so are the store's requests for the root. `lowPriority`: the
 * replica and the store's daemons run at the lowest CPU priority meanwhile (lib/cpu-priority.ts), as if on
 * machines of their own.
 */
async function onRound(service: S3Service, bodies: readonly Buffer[], lowPriority: boolean): Promise<RoundFigures> {
  const store = replicationStore(service, bucket);
  const primary = await start(store, 'primary');
  const replica = await start(store, 'replica');
  await until(async () => await metricValue(primary, 'svc_replication_shipped_sequence') > 0 && await metricValue(primary, 'svc_replication_pending_bytes') === 0);
  await until(async () => await metricValue(replica, 'svc_replication_applied_sequence') > 0);
  await ingest(primary, warmBodies);
  await until(async () => await count(replica, 'select count() from warm') === warmRows, 200);
  await settle();
  const restorePriority = lowPriority ? lowerPriority([...serverPids(replica), ...storePids()]) : () => undefined;
  try {
    const before = serverCpu(primary);
    const replicaBefore = totalOf(serverCpu(replica));
    const storeBefore = storeCpuSeconds();
    const logOffset = storeLogOffset();
    const rate = await ingest(primary, bodies);
    await until(async () => await count(replica, 'select count() from trades') === rowCount, 200);
    const cpu = cpuSince(serverCpu(primary), before);
    return {
      rate, ...cpu, replica: totalOf(serverCpu(replica)) - replicaBefore, store: storeCpuSeconds() - storeBefore,
      ...storeTrafficSince(logOffset, storeRootOf(store.connection)),
    };
  } finally {
    // The store is shared with other runs: it gets its priority back before anything else happens.
    restorePriority();
    await stopAndRemove(replica);
    await stopAndRemove(primary);
  }
}

async function main(): Promise<void> {
  const bodies = ilpBodies(rowCount, rowsPerBody, (i) => standardIlpRow(i));
  const service = await sharedS3();
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const off: RoundFigures[] = [];
  const on: RoundFigures[] = [];
  const onLow: RoundFigures[] = [];
  for (let round = 0; round < roundCount; round++) {
    // Off, on, on at low priority in even rounds; the reverse in odd ones.
    const runs = [async () => off.push(await offRound(bodies)), async () => on.push(await onRound(service, bodies, false)), async () => onLow.push(await onRound(service, bodies, true))];
    for (const run of round % 2 === 0 ? runs : runs.reverse()) await run();
  }
  printRounds({ off, on, onLow, rowCount, rowsPerBody, loadBefore, loadAfter: loadavg()[0] ?? Number.NaN });

  const store = replicationStore(service, bucket);
  const primary = await start(store, 'primary');
  const replica = await start(store, 'replica');
  const lag = await measureLag(primary, replica, bodies);
  // Printed before the bootstrap step, which a loaded machine may fail (a restart past the ready deadline).
  process.stdout.write([
    '| measure | value |', '|---|---:|',
    `| lag p50 under ingest (${lag.length} probes) | ${percentile(lag, 0.5).toFixed(0)} ms |`,
    `| lag p99 under ingest | ${percentile(lag, 0.99).toFixed(0)} ms |`,
  ].join('\n') + '\n');
  // BENCH_BOOTSTRAP_ROWS=0 skips the bootstrap step.
  if (bootstrapRows === 0) return;
  await loadSvcStandardTable(primary.baseUrl, bootstrapRows);
  const rows = await count(primary, 'select count() from t');
  await replica.stop();
  replica.cleanup();
  await primary.stop();
  const boot = await bootstrap(store, primary.rootDir, rows);
  process.stdout.write([
    `| checkpoint of everything (${(boot.checkpointBytes / 1e6).toFixed(0)} MB raw) uploaded by the restarted primary | ${boot.checkpointSeconds.toFixed(1)} s |`,
    `| bootstrap of a new replica from that checkpoint, ${rows}-row table t (spawn to answer) | ${boot.bootSeconds.toFixed(1)} s |`,
    `| of which the replica's checkpoint sync (download, check, decompress, write) | ${boot.applySeconds.toFixed(1)} s |`,
  ].join('\n') + '\n');
}

try {
  await main();
} finally {
  // A failed step (e.g. a server not ready in time on a loaded machine) must not leave servers running.
  for (const server of started) {
    await server.stop();
    server.cleanup();
  }
}
