// Storage policies against a real server and the real S3 store (OpenStack Swift's s3api): a table spanning
// ten days moves through Parquet, the store and off local disk by the sweep alone, SHOW PARTITIONS and
// table_cold_partitions() show each phase, the objects are in the bucket, the policy and every phase survive
// a restart, DROP REMOTE takes partitions out of the table and their objects go after the grace period.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { sharedS3, type S3Service } from '../helpers/s3-service.js';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';
import type { ObjectStore } from '../../src/objectstore/object-store.js';

let service: S3Service | null = null;
test.before(async () => {
  service = await sharedS3();
});

function connection(s3: S3Service, root: string): string {
  return `s3::bucket=svc-cold-policy;root=${root};region=${s3.region};endpoint=${s3.endpoint};access_key_id=${s3.accessKey};secret_access_key=${s3.secretKey};`;
}

async function openStore(text: string): Promise<ObjectStore> {
  return openObjectStore(text, { requestTimeoutMs: 10_000 });
}

type Phase = [string, boolean, boolean];

async function phases(server: TestServer): Promise<Phase[]> {
  return (await rows(server.baseUrl, "select name, isParquet, isRemotelyServed from table_partitions('t')")) as Phase[];
}

async function coldStates(server: TestServer): Promise<Map<string, [string, string]>> {
  const listed = (await rows(server.baseUrl, "select partitionName, state, objectKey from table_cold_partitions('t') where state <> 'deleting'")) as [string, string, string][];
  return new Map(listed.map(([partition, state, key]) => [partition, [state, key]]));
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  throw new Error(`timed out waiting: ${what}`);
}

const EXPECTED: Phase[] = [
  // Newest timestamp 2024-01-10T23:..: DROP LOCAL 5d → partitions ending by 01-05, TO REMOTE 4d → by 01-06,
  // TO PARQUET 3d → by 01-07; the rest stays native.
  ['2024-01-01', true, true], ['2024-01-02', true, true], ['2024-01-03', true, true], ['2024-01-04', true, true],
  ['2024-01-05', true, false], ['2024-01-06', true, false], ['2024-01-07', false, false], ['2024-01-08', false, false],
  ['2024-01-09', false, false], ['2024-01-10', false, false],
];

test.serial('a policy moves partitions to Parquet, to the store and off local disk, and survives a restart', async (t) => {
  const s3 = service;
  if (s3 === null) throw new Error('the S3 store did not start');
  const root = `policy-${randomBytes(4).toString('hex')}`;
  const text = connection(s3, root);
  const env = { SVC_COLD_STORAGE_OBJECT_STORE: text, SVC_STORAGE_POLICY_CHECK_INTERVAL: '1s', SVC_COLD_STORAGE_DELETE_GRACE_PERIOD: '0s' };
  let server = await startServer({ workers: 1, env });
  const store = await openStore(text);
  try {
    await execOk(server.baseUrl, 'create table t (sym symbol, qty long, ts timestamp) timestamp(ts) partition by day '
      + 'storage policy(to parquet 3d, to remote 4d, drop local 5d)');
    await execOk(server.baseUrl, "insert into t select rnd_symbol('a','b'), x, timestamp_sequence('2024-01-01', 43200000L) from long_sequence(20000)");
    t.deepEqual(await rows(server.baseUrl, 'select * from storage_policies'), [['t', '3d', '4d', '5d', null, 'enabled']]);
    const hotQuery = "select count(), sum(qty) from t where ts >= '2024-01-05'";
    const hot = await rows(server.baseUrl, hotQuery);
    await waitFor(async () => JSON.stringify(await phases(server)) === JSON.stringify(EXPECTED), 'the sweep reaches every phase');
    // The manifest follows _txn at the end of the sweep that moved the partitions.
    await waitFor(async () => [...(await coldStates(server)).values()].every(([state]) => state !== 'pending'), 'the manifest catches up');
    const states = await coldStates(server);
    t.deepEqual([...states].map(([partition, [state]]) => [partition, state]).sort(), [
      ['2024-01-01', 'sealed'], ['2024-01-02', 'sealed'], ['2024-01-03', 'sealed'], ['2024-01-04', 'sealed'], ['2024-01-05', 'live'],
    ]);
    for (const [, key] of states.values()) t.truthy(await store.head(key), `${key} is in the bucket`);
    t.true((await store.list(`t~`)).some((item) => item.key.includes('/_manifest/')), 'the manifest is in the bucket');
    t.deepEqual(await rows(server.baseUrl, hotQuery), hot);
    const refused = await exec(server.baseUrl, "insert into t values('a', 1, '2024-01-02T03:00:00')");
    t.regex(refused.text, /table=t, partition=2024-01-02/);

    await server.stop();
    server = await startServer({ workers: 1, env, rootDir: server.rootDir });
    t.deepEqual(await phases(server), EXPECTED);
    t.deepEqual(await rows(server.baseUrl, 'select * from storage_policies'), [['t', '3d', '4d', '5d', null, 'enabled']]);
    t.deepEqual(await rows(server.baseUrl, hotQuery), hot);

    // DROP REMOTE: the oldest partitions leave the table; their objects wait out the grace period (0 here).
    await execOk(server.baseUrl, 'alter table t set storage policy(drop remote 7d)');
    // Newest timestamp 2024-01-10T23:59 minus 7 days: the partitions ending by 2024-01-03T23:59 go.
    await waitFor(async () => (await phases(server)).length === 8, 'DROP REMOTE takes two partitions out');
    t.is((await phases(server))[0]?.[0], '2024-01-03');
    await execOk(server.baseUrl, 'alter table t disable storage policy');
    t.deepEqual(await rows(server.baseUrl, 'select status, drop_remote from storage_policies'), [['disabled', '7d']]);
    const removedKey = states.get('2024-01-01')?.[1] ?? '';
    await waitFor(async () => (await store.head(removedKey)) === null, 'the dropped partition\'s object is deleted after the grace period');
  } finally {
    await store.close();
    await server.stop();
    server.cleanup();
  }
});

test.serial('policy DDL errors carry positions', async (t) => {
  const server = await startServer({ workers: 0 });
  try {
    await execOk(server.baseUrl, 'create table t (x int, ts timestamp) timestamp(ts) partition by day');
    // The position is where the marker text starts.
    const cases: [string, RegExp, string][] = [
      ['alter table t set storage policy(to parquet 0d)', /must be positive/, '0d'],
      ['alter table t set storage policy(to parquet 5d, to parquet 6d)', /duplicate storage policy setting/, 'to parquet 6d'],
      ['alter table t set storage policy(to remote 10d, drop local 5d)', /TO REMOTE must not be longer than DROP LOCAL/, '(to remote'],
      ['alter table t set storage policy(to somewhere 5d)', /'to parquet', 'to remote', 'drop local' or 'drop remote' expected/, 'to somewhere'],
      ['alter table t set storage policy(to parquet 5x)', /invalid unit/, '5x'],
      ['alter table t enable storage policy', /table has no storage policy/, 'enable'],
    ];
    for (const [sql, message, marker] of cases) {
      const response = await exec(server.baseUrl, sql);
      t.is(response.status, 400, sql);
      t.regex(response.text, message, sql);
      t.is((response.json as { position?: number }).position, sql.indexOf(marker), sql);
    }
    const none = await exec(server.baseUrl, 'create table n (x int) storage policy(to parquet 1d)');
    t.regex(none.text, /partitioned table/);
    await execOk(server.baseUrl, 'alter table t set storage policy(to parquet 2 DAYS, drop local 1M)');
    await execOk(server.baseUrl, 'alter table t set storage policy(to remote 12h)');
    t.deepEqual(await rows(server.baseUrl, "select to_parquet, to_remote, drop_local, drop_remote, status from storage_policies() where table_name = 't'"), [['2d', '12h', '1M', null, 'enabled']]);
    await execOk(server.baseUrl, 'alter table t drop storage policy');
    t.deepEqual(await rows(server.baseUrl, 'select count() from storage_policies'), [[0]]);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
