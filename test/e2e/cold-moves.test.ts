// Cold storage moves over HTTP against a real server and a real fs:: store: CONVERT PARTITION TO REMOTE
// uploads partitions (as Parquet) and names them in _txn, DROP LOCAL PARTITION leaves only footer.parquet
// locally, SHOW PARTITIONS and table_cold_partitions() follow each phase, hot-partition queries keep their
// answers, writes into a cold partition are refused with the table and partition named, a query needing a
// cold partition fails clearly (no wrong data), and a late write into a remote-durable partition invalidates
// its copy. The policy sweep and the S3 store are in cold-policy.test.ts.
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';

const base = mkdtempSync(join(tmpdir(), 'svc-cold-moves-'));
test.after.always(() => rmSync(base, { recursive: true, force: true }));

function fsConnection(name: string): string {
  return `fs::root=${join(base, name, 'final')};atomic_write_dir=${join(base, name, 'scratch')};`;
}

async function createDays(server: TestServer, days: number): Promise<void> {
  const perDay = 2000;
  await execOk(server.baseUrl, `create table t as (select rnd_symbol('a','b','c') sym, rnd_double() * 100 price, x qty, `
    + `timestamp_sequence('2024-01-01', ${Math.floor(86_400_000_000 / perDay)}L) ts from long_sequence(${days * perDay})) timestamp(ts) partition by day`);
}

type PartitionRow = [string, boolean, boolean];

async function phases(server: TestServer): Promise<PartitionRow[]> {
  return (await rows(server.baseUrl, "select name, isParquet, isRemotelyServed from table_partitions('t')")) as PartitionRow[];
}

async function coldStates(server: TestServer): Promise<[string, string, string][]> {
  return (await rows(server.baseUrl, "select partitionName, state, objectKey from table_cold_partitions('t') order by partitionName, version")) as [string, string, string][];
}

test.serial('manual moves to the store and off local disk, with every phase visible', async (t) => {
  const connection = fsConnection('manual');
  const server = await startServer({ workers: 1, env: { SVC_COLD_STORAGE_OBJECT_STORE: connection, SVC_STORAGE_POLICY_CHECK_INTERVAL: '500ms' } });
  const store = await openObjectStore(connection);
  try {
    await createDays(server, 5);
    const hotQuery = "select count(), sum(qty), round(sum(price), 6) from t where ts >= '2024-01-03'";
    const hotBefore = await rows(server.baseUrl, hotQuery);
    const totalBefore = await rows(server.baseUrl, 'select count(), sum(qty) from t');

    await execOk(server.baseUrl, "alter table t convert partition to remote list '2024-01-01', '2024-01-02'");
    t.deepEqual((await phases(server)).slice(0, 3), [['2024-01-01', true, false], ['2024-01-02', true, false], ['2024-01-03', false, false]]);
    const live = await coldStates(server);
    t.deepEqual(live.map(([partition, state]) => [partition, state]), [['2024-01-01', 'live'], ['2024-01-02', 'live']]);
    for (const [, , key] of live) {
      t.regex(key, /^t~\d+\/year=2024\/month=01\/day=0[12]\/data\.\d+\.parquet$/);
      t.truthy(await store.head(key), `object ${key} is in the store`);
    }
    // Remote durable partitions are still served locally.
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(qty) from t'), totalBefore);

    await execOk(server.baseUrl, "alter table t drop local partition list '2024-01-01'");
    t.deepEqual((await phases(server))[0], ['2024-01-01', true, true]);
    t.deepEqual((await coldStates(server)).map(([partition, state]) => [partition, state]), [['2024-01-01', 'sealed'], ['2024-01-02', 'live']]);
    const [, , coldKey] = live[0] as [string, string, string];
    const object = await store.get(coldKey);
    const coldDir = readdirSync(join(server.rootDir, 'db', 't')).filter((name) => name.startsWith('2024-01-01')).map((name) => join(server.rootDir, 'db', 't', name)).find((dir) => existsSync(join(dir, 'footer.parquet')));
    t.truthy(coldDir, 'the cold partition keeps a footer-only directory');
    const footer = readFileSync(join(coldDir as string, 'footer.parquet'));
    t.deepEqual(footer, object.subarray(object.length - footer.length), 'footer.parquet is the object\'s tail');
    t.is(footer.readUInt32LE(footer.length - 8) + 8, footer.length);
    t.false(existsSync(join(coldDir as string, 'data.parquet')));

    // Hot partitions answer as before; the cold partition is read from the store (the cold read path).
    t.deepEqual(await rows(server.baseUrl, hotQuery), hotBefore);
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(qty) from t'), totalBefore);

    // Writes into the cold partition are refused, naming table and partition; elsewhere they work.
    const refused = await exec(server.baseUrl, "insert into t values('a', 1.0, 1, '2024-01-01T10:00:00')");
    t.is(refused.status, 400);
    t.regex(refused.text, /cold partition.*table=t, partition=2024-01-01/);
    const update = await exec(server.baseUrl, "update t set qty = 0 where ts in '2024-01-01'");
    t.regex(update.text, /partition=2024-01-01/);
    t.is((await exec(server.baseUrl, 'convert partition to remote')).status, 400);

    // A late write into the remote-durable partition makes a new native version: the copy is invalidated.
    await execOk(server.baseUrl, "insert into t values('a', 1.0, 1, '2024-01-02T10:00:00')");
    t.deepEqual((await phases(server))[1], ['2024-01-02', false, false]);
    await waitFor(async () => (await coldStates(server)).some(([partition, state]) => partition === '2024-01-02' && state === 'deleting'), 'the invalidated copy goes to deleting');
  } finally {
    await store.close();
    await server.stop();
    server.cleanup();
  }
});

test.serial('a late write invalidates a remote copy, and the sweep uploads the partition again after the settle time', async (t) => {
  const connection = fsConnection('late');
  const server = await startServer({
    workers: 1, env: { SVC_COLD_STORAGE_OBJECT_STORE: connection, SVC_STORAGE_POLICY_CHECK_INTERVAL: '300ms', SVC_COLD_STORAGE_REUPLOAD_SETTLE_INTERVAL: '3s' },
  });
  try {
    // Newest row 2024-01-05T23:59: TO REMOTE 1d moves the partitions ending by 2024-01-04T23:59.
    await createDays(server, 5);
    await execOk(server.baseUrl, 'alter table t set storage policy(to remote 1d)');
    const live = async (): Promise<string[]> => (await coldStates(server)).filter(([, state]) => state === 'live').map(([partition, , key]) => `${partition} ${key}`);
    await waitFor(async () => (await live()).length === 3, 'three partitions get a remote copy');
    const before = await live();
    const total = await rows(server.baseUrl, 'select count(), sum(qty) from t');
    // ILP into the remote-durable partition: accepted, the copy goes.
    const ilp = await fetch(`${server.baseUrl}/write?precision=u`, { method: 'POST', body: `t,sym=a price=1.5,qty=7i ${Date.UTC(2024, 0, 2, 5) * 1000}\n` });
    t.is(ilp.status, 204);
    await waitFor(async () => (await coldStates(server)).some(([partition, state]) => partition === '2024-01-02' && state === 'deleting'), 'the old copy goes to deleting');
    const invalidatedAt = Date.now();
    await waitFor(async () => (await live()).length === 3, 'the partition is uploaded again');
    t.true(Date.now() - invalidatedAt >= 2000, 'not before the settle time');
    const after = await live();
    t.not(after.find((line) => line.startsWith('2024-01-02')), before.find((line) => line.startsWith('2024-01-02')), 'the new copy has a new key');
    const [count, sum] = (total[0] ?? []) as [number, number];
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(qty) from t'), [[count + 1, sum + 7]]);

    // ILP into a cold partition is refused as a whole, naming the partition.
    await execOk(server.baseUrl, "alter table t drop local partition list '2024-01-01'");
    const refused = await fetch(`${server.baseUrl}/write?precision=u`, { method: 'POST', body: `t,sym=a price=1.5,qty=7i ${Date.UTC(2024, 0, 1, 5) * 1000}\n` });
    t.true(refused.status >= 400);
    t.regex(await refused.text(), /partition=2024-01-01/);
  } finally {
    await server.stop();
    server.cleanup();
  }
});

test.serial('a second server on the same store root may not manage it', async (t) => {
  const connection = fsConnection('shared');
  const first = await startServer({ workers: 0, env: { SVC_COLD_STORAGE_OBJECT_STORE: connection } });
  const second = await startServer({ workers: 0, env: { SVC_COLD_STORAGE_OBJECT_STORE: connection } });
  try {
    await createDays(first, 3);
    await execOk(first.baseUrl, "alter table t convert partition to remote list '2024-01-01'");
    await createDays(second, 3);
    const refused = await exec(second.baseUrl, "alter table t convert partition to remote list '2024-01-01'");
    t.is(refused.status, 409);
    t.regex(refused.text, /managed by instance/);
    t.deepEqual(await rows(second.baseUrl, "select isParquet, isRemotelyServed from table_partitions('t') limit 1"), [[false, false]], 'refused before anything changed');
    t.deepEqual(await rows(second.baseUrl, "select count() from table_cold_partitions('t')"), [[0]]);
  } finally {
    await first.stop();
    await second.stop();
    first.cleanup();
    second.cleanup();
  }
});

test.serial('a dropped table\'s objects leave the store after the grace period; uploads no manifest names are collected', async (t) => {
  const connection = fsConnection('orphans');
  const server = await startServer({
    workers: 1, env: { SVC_COLD_STORAGE_OBJECT_STORE: connection, SVC_STORAGE_POLICY_CHECK_INTERVAL: '300ms', SVC_COLD_STORAGE_DELETE_GRACE_PERIOD: '2s' },
  });
  const store = await openObjectStore(connection);
  try {
    await createDays(server, 3);
    await execOk(server.baseUrl, "alter table t convert partition to remote list '2024-01-01', '2024-01-02'");
    const keys = (await coldStates(server)).map(([, , key]) => key);
    t.is(keys.length, 2);
    const prefix = (keys[0] as string).slice(0, (keys[0] as string).indexOf('/') + 1);
    // An upload a crash left before its manifest entry: collected once older than the grace period.
    const stray = `${prefix}year=2024/month=01/day=03/data.999.parquet`;
    await store.put(stray, Buffer.from('left by a crash'));
    await waitFor(async () => (await store.head(stray)) === null, 'the unnamed object is collected');
    for (const key of keys) t.truthy(await store.head(key), `named object ${key} stays`);

    await execOk(server.baseUrl, 'drop table t');
    const droppedAt = Date.now();
    // A new table of the same name is another table (another id, another prefix): untouched by the retirement.
    await createDays(server, 3);
    await execOk(server.baseUrl, "alter table t convert partition to remote list '2024-01-01'");
    const [[, , newKey]] = await coldStates(server) as [string, string, string][];
    t.false((newKey as string).startsWith(prefix));
    await waitFor(async () => (await store.list(prefix)).length === 0, 'every object under the dropped table\'s prefix goes');
    t.true(Date.now() - droppedAt >= 2000, 'not before the grace period');
    // Retirement takes one step per sweep: the marker goes at a sweep after the one that emptied the prefix.
    const markers = (): string[] => readdirSync(join(server.rootDir, '.cold-dropped')).filter((name) => !name.startsWith('.'));
    await waitFor(() => Promise.resolve(markers().length === 0), 'the marker goes last');
    t.deepEqual(await store.list(prefix), [], 'nothing under the dropped prefix came back');
    t.truthy(await store.head(newKey as string), 'the new table keeps its object');
    t.deepEqual(await rows(server.baseUrl, 'select count() from t'), [[6000]]);
  } finally {
    await store.close();
    await server.stop();
    server.cleanup();
  }
});

test.serial('moving without a store configured, and bad moves, are clear errors', async (t) => {
  const server = await startServer({ workers: 0 });
  try {
    await createDays(server, 3);
    const noStore = await exec(server.baseUrl, "alter table t convert partition to remote list '2024-01-01'");
    t.is(noStore.status, 400);
    t.regex(noStore.text, /cold\.storage\.object\.store/);
    const syntax = await exec(server.baseUrl, 'alter table t convert partition to somewhere');
    t.is(syntax.status, 400);
    t.regex(syntax.text, /'parquet' or 'native' expected/);
    const local = await exec(server.baseUrl, 'alter table t drop local partitions');
    t.regex(local.text, /'list' or 'where' expected/);
  } finally {
    await server.stop();
    server.cleanup();
  }
});

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  throw new Error(`timed out waiting: ${what}`);
}
