// The object-store suite against the real S3 store (OpenStack Swift + s3api from ../shared/services/s3), plus
// what only S3 has: bucket creation, credentials from the string or the environment, refused credentials,
// and the store stopped and restarted under a running operation (a private instance, so nobody else notices).
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';
import { ObjectStoreError } from '../../src/objectstore/object-store-error.js';
import { registerObjectStoreCases } from '../helpers/objectstore-cases.js';
import { sharedS3, privateS3, restartS3, stopS3, type S3Service } from '../helpers/s3-service.js';

const base = mkdtempSync(join(tmpdir(), 'svc-objstore-s3-'));
const bucket = `svc-objstore-${randomBytes(4).toString('hex')}`;
let service: S3Service | null = null;
let rootCount = 0;
// The restart case's own instance starts while the other cases run (Swift takes seconds to come up).
let privateService: Promise<S3Service> | null = null;

test.before(async () => {
  // The shared instance first: if the Debian packages are missing, its start.sh installs them, and two
  // installs at once would fight over the dpkg lock.
  service = await sharedS3();
  privateService = privateS3(join(base, 'private-s3'));
  // Handled by the restart case; without this, a failed start would be an unhandled rejection until then.
  privateService.catch(() => undefined);
});
test.after.always(async () => {
  const own = await privateService?.catch(() => null);
  if (own !== null && own !== undefined) await stopS3(own, true);
  rmSync(base, { recursive: true, force: true });
});

function s3(): S3Service {
  if (service === null) throw new Error('the S3 store did not start (see test.before)');
  return service;
}

function credentialsEnv(target: S3Service): NodeJS.ProcessEnv {
  return { AWS_ACCESS_KEY_ID: target.accessKey, AWS_SECRET_ACCESS_KEY: target.secretKey };
}

registerObjectStoreCases({
  kind: 's3',
  open: (overrides = {}) => {
    rootCount++;
    return openObjectStore(`s3::bucket=${bucket};root=run/${rootCount};region=${s3().region};endpoint=${s3().endpoint};`, {
      ...overrides, env: credentialsEnv(s3()), requestTimeoutMs: 10_000,
    });
  },
  scratchDir: () => base,
  // A PUT takes 15-20 ms on an idle machine; the margins are for a loaded one (CI, shared cores).
  lease: { leaseMs: 3_000, settleMs: 1_000 },
});

test('s3: a missing bucket is created; credentials may come from the string', async (t) => {
  const fresh = `svc-objstore-new-${randomBytes(4).toString('hex')}`;
  const connection = `s3::bucket=${fresh};root=x;region=${s3().region};endpoint=${s3().endpoint};access_key_id=${s3().accessKey};secret_access_key=${s3().secretKey};`;
  const store = await openObjectStore(connection, { env: {} });
  t.deepEqual(await store.list(''), []);
  await store.put('hello', Buffer.from('world'));
  await store.close();
  const again = await openObjectStore(connection, { env: {} });
  t.is((await again.get('hello')).toString(), 'world');
  await again.close();
});

test('s3: a PUT signs the body hash its caller gives (the replication encoder\'s), so a wrong one is refused', async (t) => {
  const store = await openObjectStore(`s3::bucket=${bucket};root=hash/${randomBytes(4).toString('hex')};region=${s3().region};endpoint=${s3().endpoint};`, { env: credentialsEnv(s3()), attemptsMax: 1 });
  t.teardown(() => store.close());
  const body = Buffer.from('segment bytes');
  await store.put('given', body, { bodySha256Hex: createHash('sha256').update(body).digest('hex') });
  t.is((await store.get('given')).toString(), 'segment bytes');
  const wrong = createHash('sha256').update('other bytes').digest('hex');
  await t.throwsAsync(store.put('wrong', body, { bodySha256Hex: wrong }), { instanceOf: ObjectStoreError });
  t.is(await store.head('wrong'), null);
});

test('s3: wrong credentials are refused at once, without retries and without the secret in the error', async (t) => {
  const secret = 'not-the-secret-9f3c';
  const startedAt = performance.now();
  const error = await t.throwsAsync(openObjectStore(`s3::bucket=${bucket};region=us-east-1;endpoint=${s3().endpoint};access_key_id=svc:test;secret_access_key=${secret};`, { env: {}, backoffBaseMs: 2_000 }), { instanceOf: ObjectStoreError });
  t.is(error?.reason, 'rejected');
  t.false(error?.message.includes(secret));
  t.true(error?.message.includes(`bucket=${bucket}`));
  t.true(performance.now() - startedAt < 2_000, 'no back-off: a 4xx is not retried');
});

test('s3: the store stopped under an operation: it fails with a clear error within its bound, or succeeds after a restart', async (t) => {
  if (privateService === null) throw new Error('the private S3 instance was not started (see test.before)');
  const own = await privateService;
  const options = { env: credentialsEnv(own), requestTimeoutMs: 2_000, attemptsMax: 3, backoffBaseMs: 200, backoffMaxMs: 500 };
  const connection = `s3::bucket=restart;root=r;region=${own.region};endpoint=${own.endpoint};`;
  const store = await openObjectStore(connection, options);
  // Same store, more patience: retries for about a minute, enough to outlast a restart (2.5 s on an idle
  // machine, far longer on a loaded one; if the restart takes longer still, the put must fail cleanly).
  const patient = await openObjectStore(connection, { ...options, attemptsMax: 120, backoffBaseMs: 300, backoffMaxMs: 1_000 });
  t.teardown(() => Promise.all([store.close(), patient.close()]));
  await store.put('before', Buffer.from('kept'));

  await stopS3(own);
  const downAt = performance.now();
  const down = await t.throwsAsync(store.get('before'), { instanceOf: ObjectStoreError });
  const boundMs = options.attemptsMax * (options.requestTimeoutMs + options.backoffMaxMs);
  t.true(performance.now() - downAt < boundMs, 'gave up within attempts × (timeout + back-off)');
  t.regex(down?.message ?? '', /ECONNREFUSED|no answer/);
  t.true(down?.reason === 'unavailable' || down?.reason === 'timeout');
  t.true(down?.message.includes(`endpoint=${own.endpoint}`) && down.message.includes('key=before'));

  // Down when the write starts, back up while it retries: the retries carry it through.
  const retrying = patient.put('during', Buffer.from('written after restart'));
  const restartAt = performance.now();
  await restartS3(own);
  const restartMs = Math.round(performance.now() - restartAt);
  const failure = await retrying.then(() => null, (error: unknown) => error);
  const outcome = failure === null ? 'ok' : failure instanceof ObjectStoreError ? failure.reason : 'not an ObjectStoreError';
  t.log(`restart took ${restartMs} ms; the retried put: ${failure === null ? 'ok' : String(failure)}`);
  t.true(outcome === 'ok' || outcome === 'unavailable', String(failure));
  t.is((await store.get('before')).toString(), 'kept');
  if (outcome === 'ok') t.is((await store.get('during')).toString(), 'written after restart');
});
