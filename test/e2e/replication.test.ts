// Read replicas through the real object store (Swift + s3api): a primary and replicas as separate processes
// with separate roots and ports, each test on its own store root. Writes through /exec, /imp and ILP reach
// the replicas with identical answers to a fixed query set; replicas refuse writes with 403.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import pg from 'pg';
import { sharedS3 } from '../helpers/s3-service.js';
import { exec } from '../helpers/http.js';
import { errorRecords, readLogFiles, type TestServer } from '../helpers/server.js';
import { threadNiceValues } from '../helpers/thread-nice.js';
import {
  answers, importCsv, metricValue, postLines, replicationStore, startNode, waitForAnswers, writeRound, type ReplicationStore,
} from '../helpers/replication-cluster.js';

const bucket = `svc-repl-${randomBytes(4).toString('hex')}`;
const started: TestServer[] = [];

async function node(store: ReplicationStore, role: 'primary' | 'replica', options: { rootDir?: string; extra?: Record<string, string> } = {}): Promise<TestServer> {
  const server = await startNode(store, role, options);
  started.push(server);
  return server;
}

/** Each test stops its servers when it ends: idle replicas left polling would load the shared store. */
test.afterEach.always(async () => {
  for (const server of started.splice(0)) {
    await server.kill9();
    server.cleanup();
  }
});

/** waitForAnswers, with the server's error records in the failure. */
async function converge(server: TestServer, expected: unknown[][][], timeoutMs: number): Promise<number> {
  try {
    return await waitForAnswers(server, expected, timeoutMs);
  } catch (error) {
    const records = errorRecords(server.rootDir, 15);
    throw new Error(`${error instanceof Error ? error.message.slice(0, 300) : String(error)}\n${records}`);
  }
}

async function newStore(): Promise<ReplicationStore> {
  return replicationStore(await sharedS3(), bucket);
}

test.after.always(async () => {
  for (const server of started) {
    await server.kill9();
    server.cleanup();
  }
});

test.serial('writes through /exec, /imp and ILP reach two replicas within 2 s with identical answers', async (t) => {
  const store = await newStore();
  const primary = await node(store, 'primary');
  const replicas = [await node(store, 'replica'), await node(store, 'replica')];
  for (let round = 0; round < 2; round++) {
    await writeRound(primary, round);
    const expected = await answers(primary);
    for (const replica of replicas) {
      const tookMs = await converge(replica, expected, 2_000);
      t.log(`round ${round}: replica converged in ${Math.round(tookMs)} ms`);
    }
  }
  t.true((await metricValue(replicas[0] as TestServer, 'svc_replication_applied_sequence')) > 0);
  t.is(await metricValue(primary, 'svc_replication_pending_bytes'), 0);
  if (process.platform === 'linux') {
    // replication.primary.upload.priority=low (the default): the shipping thread alone runs at the lowest priority.
    const pid = primary.process.pid ?? 0;
    const nice = threadNiceValues(pid);
    t.is(nice.get(pid), 0, "the primary's event loop keeps its priority");
    t.is([...nice.values()].filter((value) => value === 19).length, 1, `thread nice values: ${[...nice.values()].join(' ')}`);
  }
});

test.serial('a replica refuses writes with 403 naming the primary, and keeps serving reads', async (t) => {
  const store = await newStore();
  const primary = await node(store, 'primary');
  const replica = await node(store, 'replica');
  await writeRound(primary, 0);
  await converge(replica, await answers(primary), 10_000);
  const refusals = [
    await exec(replica.baseUrl, "insert into rates values ('z', 9)"),
    await exec(replica.baseUrl, 'create table other (x int)'),
    await exec(replica.baseUrl, 'drop table rates'),
    await importCsv(replica, 'imported', 'x,ts\n1,2026-01-01T00:00:00.000000Z\n'),
    await postLines(replica, 'metrics,host=z load=1 1\n'),
  ];
  for (const refusal of refusals) {
    t.is(refusal.status, 403, refusal.text);
    t.regex(refusal.text, /read-only replica; send writes to the primary at http:\/\/primary\.example:9000/);
  }
  // PG wire: reads are served, writes refused with insufficient_privilege.
  const client = new pg.Client({ host: '127.0.0.1', port: replica.pgPort, user: 'admin', password: 'quest' });
  await client.connect();
  try {
    t.is((await client.query('select count() from rates')).rows.length, 1);
    const error = await t.throwsAsync(client.query("insert into rates values ('z', 9)"));
    t.regex(error?.message ?? '', /read-only replica/);
    t.is((error as { code?: string } | undefined)?.code, '42501');
  } finally {
    await client.end();
  }
  // ILP over TCP: the line is not committed.
  const socket = connect(replica.ilpTcpPort, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.end('rates,sym=zz rate=9\n');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  socket.destroy();
  t.deepEqual(await answers(replica), await answers(primary));
});

test.serial('a replica killed with -9 while applying resumes after a restart with the same answers; a late replica bootstraps from a checkpoint', async (t) => {
  const store = await newStore();
  const primary = await node(store, 'primary', { extra: { SVC_REPLICATION_CHECKPOINT_INTERVAL: '3s' } });
  const replica = await node(store, 'replica');
  const writing = (async () => {
    for (let round = 0; round < 4; round++) await writeRound(primary, round);
  })();
  // Kill it while the rounds are still arriving: it is applying, or about to.
  await new Promise((resolve) => setTimeout(resolve, 600));
  await replica.kill9();
  await writing;
  const expected = await answers(primary);
  const restarted = await node(store, 'replica', { rootDir: replica.rootDir });
  await converge(restarted, expected, 10_000);
  t.deepEqual(await answers(restarted), expected);
  // Two checkpoints later the early segments are gone; a new replica starts from the newest checkpoint.
  await new Promise((resolve) => setTimeout(resolve, 7_000));
  const late = await node(store, 'replica');
  await converge(late, expected, 10_000);
  const synced = /replica synced from checkpoint (\d+)/.exec(readLogFiles(late.rootDir));
  t.truthy(synced, 'the late replica logged its checkpoint');
  t.true(Number(synced?.[1]) > 1, `bootstrapped from a later checkpoint than the first (${synced?.[1]})`);
});

test.serial('kill -9 of the primary: a second primary is refused while it lives; a promoted replica takes writes and the other replica follows it', async (t) => {
  const store = await newStore();
  const primary = await node(store, 'primary');
  const promoted = await node(store, 'replica');
  const follower = await node(store, 'replica');
  await writeRound(primary, 0);
  const before = await answers(primary);
  await converge(promoted, before, 10_000);
  await converge(follower, before, 10_000);
  await t.throwsAsync(startNode(store, 'primary'), { message: /managed by instance/ });
  await primary.kill9();
  await promoted.kill9();
  // The lease (2 s in these tests) must go unrenewed before the replica may take over.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const newPrimary = await node(store, 'primary', { rootDir: promoted.rootDir });
  t.deepEqual(await answers(newPrimary), before);
  await writeRound(newPrimary, 1);
  const after = await answers(newPrimary);
  t.notDeepEqual(after, before);
  await converge(follower, after, 10_000);
});
