// Cold storage under failures, against real server processes and the real S3 store (Swift's s3api):
// kill -9 of the primary while the sweep uploads (through a throttling TCP proxy, so the upload is slow)
// loses nothing, and the next start finishes the move without a duplicate or orphan object; with the store
// stopped, store-bound stages wait and the upload happens once the store is back.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows } from '../helpers/http.js';
import { sharedS3, privateS3, restartS3, stopS3, type S3Service } from '../helpers/s3-service.js';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';

const base = mkdtempSync(join(tmpdir(), 'svc-cold-failures-'));
let privateService: Promise<S3Service> | null = null;
test.before(() => {
  // Swift takes seconds to come up: start the private instance while the other case runs.
  privateService = privateS3(join(base, 'private-s3'));
  privateService.catch(() => undefined);
});
test.after.always(async () => {
  const own = await privateService?.catch(() => null);
  if (own !== null && own !== undefined) await stopS3(own, true);
  rmSync(base, { recursive: true, force: true });
});

function connection(s3: S3Service, endpoint: string, root: string): string {
  return `s3::bucket=svc-cold-failures;root=${root};region=${s3.region};endpoint=${endpoint};access_key_id=${s3.accessKey};secret_access_key=${s3.secretKey};`;
}

/** A TCP proxy to the store that lets `chunkBytes` through every `pauseMs` towards it, and counts the bytes. */
function slowProxy(targetPort: number, pauseMs: number): Promise<{ server: Server; port: number; sentBytes: () => number }> {
  let sent = 0;
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    client.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      upstream.write(chunk);
      client.pause();
      setTimeout(() => client.resume(), pauseMs);
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolveListen) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    resolveListen({ server, port: typeof address === 'object' && address !== null ? address.port : 0, sentBytes: () => sent });
  }));
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  throw new Error(`timed out waiting: ${what}`);
}

type Phase = [string, boolean, boolean, number];

async function phases(server: TestServer): Promise<Phase[]> {
  return (await rows(server.baseUrl, "select name, isParquet, isRemotelyServed, numRows from table_partitions('t')")) as Phase[];
}

async function coldEntries(server: TestServer): Promise<[string, string, string][]> {
  return (await rows(server.baseUrl, "select partitionName, state, objectKey from table_cold_partitions('t')")) as [string, string, string][];
}

test.serial('kill -9 during an upload loses nothing; the next start finishes the move without stray objects', async (t) => {
  const s3 = await sharedS3();
  const proxy = await slowProxy(Number(new URL(s3.endpoint).port), 80);
  const root = `crash-${randomBytes(4).toString('hex')}`;
  const slow = connection(s3, `http://127.0.0.1:${proxy.port}`, root);
  const env = { SVC_STORAGE_POLICY_CHECK_INTERVAL: '500ms', SVC_COLD_STORAGE_DELETE_GRACE_PERIOD: '0s' };
  let server = await startServer({ workers: 1, env: { ...env, SVC_COLD_STORAGE_OBJECT_STORE: slow } });
  try {
    await execOk(server.baseUrl, 'create table t (sym symbol, price double, qty long, ts timestamp) timestamp(ts) partition by day');
    await execOk(server.baseUrl, "insert into t select rnd_symbol('a','b','c'), rnd_double(), rnd_long(), timestamp_sequence('2024-01-01', 2160000L) from long_sequence(400000)");
    const before = await phases(server);
    const hot = await rows(server.baseUrl, "select count(), sum(qty), sum(price) from t where ts >= '2024-01-06'");
    const sentAtStart = proxy.sentBytes();
    await execOk(server.baseUrl, 'alter table t set storage policy(to remote 4d, drop local 5d)');
    // Kill once a good part of the first partition file went up (each is about 1 MB; the proxy lets at most
    // one socket read, 64 KiB, through per 80 ms).
    await waitFor(async () => proxy.sentBytes() - sentAtStart > 300_000, 'the upload is under way', 60_000);
    await server.kill9();

    server = await startServer({ workers: 1, rootDir: server.rootDir, env: { ...env, SVC_COLD_STORAGE_OBJECT_STORE: connection(s3, s3.endpoint, root) } });
    t.deepEqual((await phases(server)).map(([name, , , count]) => [name, count]), before.map(([name, , , count]) => [name, count]), 'no partition or row lost');
    // Newest row 2024-01-10T23:59: partitions ending by 01-06 go to the store, those ending by 01-05 off disk.
    await waitFor(async () => {
      const now = await phases(server);
      return now.slice(0, 4).every(([, , remote]) => remote) && now[4]?.[2] === false && now[4]?.[1] === true;
    }, 'the restarted primary finishes the moves');
    t.deepEqual(await rows(server.baseUrl, "select count(), sum(qty), sum(price) from t where ts >= '2024-01-06'"), hot);
    // Eventually the store holds exactly the objects _txn names: nothing pending, no duplicate, no orphan.
    const store = await openObjectStore(connection(s3, s3.endpoint, root));
    try {
      await waitFor(async () => {
        const entries = await coldEntries(server);
        const named = entries.filter(([, state]) => state === 'live' || state === 'sealed').map(([, , key]) => key).sort();
        const stored = (await store.list('t~')).map((item) => item.key).filter((key) => key.endsWith('.parquet')).sort();
        return entries.every(([, state]) => state === 'live' || state === 'sealed') && named.length === 5 && JSON.stringify(stored) === JSON.stringify(named);
      }, 'the store holds exactly the named objects');
      t.pass();
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
    server.cleanup();
    proxy.server.close();
  }
});

test.serial('with the store stopped, uploads wait; once it is back they happen', async (t) => {
  if (privateService === null) throw new Error('no private store');
  const own = await privateService;
  const text = connection(own, own.endpoint, 'stopped');
  await stopS3(own);
  const server = await startServer({ workers: 1, env: { SVC_COLD_STORAGE_OBJECT_STORE: text, SVC_STORAGE_POLICY_CHECK_INTERVAL: '500ms' } });
  try {
    await execOk(server.baseUrl, 'create table t (qty long, ts timestamp) timestamp(ts) partition by day storage policy(to parquet 1d, to remote 1d)');
    await execOk(server.baseUrl, "insert into t select x, timestamp_sequence('2024-01-01', 43200000L) from long_sequence(10000)");
    // Newest row 2024-01-05T23:59: the partitions ending by 01-04T23:59 are due.
    await waitFor(async () => (await phases(server)).filter(([, parquet]) => parquet).length === 3, 'local stages still run');
    await new Promise((resolveWait) => setTimeout(resolveWait, 3000));
    t.deepEqual(await coldEntries(server), [], 'nothing reached the stopped store');
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(qty) from t'), [[10000, 50005000]]);
    await restartS3(own);
    await waitFor(async () => (await coldEntries(server)).filter(([, state]) => state === 'live').length === 3, 'the uploads happen once the store is back');
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(qty) from t'), [[10000, 50005000]]);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
