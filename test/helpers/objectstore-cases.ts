// The behaviour every ObjectStore must show, registered once per store kind by test/e2e/objectstore-*.test.ts:
// whole and ranged reads, multipart uploads, listing, deletion, create-if-absent, abort, the writer lease with
// two contenders, and manifest commits interrupted at every write (fault wrapper over the real store).
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObjectStore } from '../../src/objectstore/object-store.js';
import type { StoreOptions } from '../../src/objectstore/store-options.js';
import { ObjectStoreError, WriterLeaseError } from '../../src/objectstore/object-store-error.js';
import { claimWriter, type WriterHandle } from '../../src/objectstore/writer-lease.js';
import { ManifestLog } from '../../src/objectstore/manifest-log.js';
import { manifestKey, encodeManifest } from '../../src/objectstore/manifest-codec.js';
import { FaultObjectStore, InjectedCrash } from './fault-object-store.js';

export interface StoreFixture {
  readonly kind: 's3' | 'fs';
  /** A store over a fresh, empty root. */
  open(overrides?: Partial<StoreOptions>): Promise<ObjectStore>;
  /** A local directory for files to upload. */
  readonly scratchDir: () => string;
  /**
   * Lease timing suited to the store: settleMs must exceed its PUT latency (fallback claim); leaseMs is the
   * short lease of the takeover case only. Other cases hold a long lease, so a loaded machine that slows
   * renewals cannot make them lose it.
   */
  readonly lease: { readonly leaseMs: number; readonly settleMs: number };
}

const MIB = 1024 * 1024;

async function withStore(fixture: StoreFixture, t: ExecutionContext, overrides: Partial<StoreOptions>, body: (store: ObjectStore) => Promise<void>): Promise<void> {
  const store = await fixture.open(overrides);
  t.teardown(() => store.close());
  await body(store);
}

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ObjectStoreError ? error.reason : `not an ObjectStoreError: ${String(error)}`;
  }
}

function stepOf(body: unknown): number | null {
  const step: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'step') : null;
  return typeof step === 'number' ? step : null;
}

export function registerObjectStoreCases(fixture: StoreFixture): void {
  const name = (what: string): string => `${fixture.kind}: ${what}`;

  test(name('put, get, head, list in key order, delete many'), (t) => withStore(fixture, t, {}, async (store) => {
    const keys = ['a/1', 'a/2 with space', 'a/ü+%20=&?', 'a/sub/3', 'b/4'];
    for (const key of keys) await store.put(key, Buffer.from(`value of ${key}`));
    t.is((await store.get('a/2 with space')).toString(), 'value of a/2 with space');
    const info = await store.head('a/sub/3');
    t.is(info?.sizeBytes, Buffer.byteLength('value of a/sub/3'));
    t.is(await store.head('a/missing'), null);
    t.deepEqual((await store.list('a/')).map((item) => item.key), ['a/1', 'a/2 with space', 'a/sub/3', 'a/ü+%20=&?'].sort());
    t.deepEqual((await store.list('a/', { startAfter: 'a/2 with space', keysMax: 1 })).map((item) => item.key), ['a/sub/3']);
    await store.put('a/1', Buffer.from('replaced'));
    t.is((await store.get('a/1')).toString(), 'replaced');
    await store.delete(['a/1', 'a/sub/3', 'a/never-existed']);
    t.deepEqual((await store.list('')).map((item) => item.key), ['a/2 with space', 'a/ü+%20=&?', 'b/4'].sort());
  }));

  test(name('a missing key is reason not-found, and the error names the store and the key'), (t) => withStore(fixture, t, {}, async (store) => {
    const error = await t.throwsAsync(store.get('no/such/key'), { instanceOf: ObjectStoreError });
    t.is(error?.reason, 'not-found');
    t.true(error?.message.includes('key=no/such/key'));
    t.true(error?.message.includes(store.description));
    t.is(await reason(store.getRange('no/such/key', 0, 10)), 'not-found');
    t.is(error?.code, 'SVC_OBJECT_STORE');
  }));

  test(name('bad keys are refused before any request'), (t) => withStore(fixture, t, {}, async (store) => {
    for (const key of ['', '/abs', 'a/../b', 'a//b', 'x'.repeat(1100)]) t.is(await reason(store.put(key, Buffer.from('x'))), 'rejected', key.slice(0, 20));
  }));

  test(name('putFile above the threshold goes up in parts; ranged reads are byte-exact'), (t) => withStore(fixture, t, { multipartThresholdBytes: 8 * MIB, partSizeBytes: 5 * MIB }, async (store) => {
    const content = randomBytes(17 * MIB + 12_345);
    const path = join(fixture.scratchDir(), `big-${randomBytes(4).toString('hex')}.bin`);
    await writeFile(path, content);
    await store.putFile('big/object.bin', path);
    const info = await store.head('big/object.bin');
    t.is(info?.sizeBytes, content.length);
    // An S3 multipart object's ETag is the MD5 of the part MD5s, suffixed with the part count (4 × ≤ 5 MiB).
    if (fixture.kind === 's3') t.regex(info?.etag ?? '', /-4"$/);
    t.true((await store.get('big/object.bin')).equals(content));
    for (const [offset, length] of [[0, 100], [5 * MIB - 10, 20], [5 * MIB, 5 * MIB], [9 * MIB + 7, 6 * MIB], [content.length - 50, 50]] as const) {
      t.true((await store.getRange('big/object.bin', offset, length)).equals(content.subarray(offset, offset + length)), `range ${offset}+${length}`);
    }
    t.true((await store.getRange('big/object.bin', content.length - 10, 1000)).equals(content.subarray(content.length - 10)), 'clamped at the end');
    t.is((await store.getRange('big/object.bin', 10, 0)).length, 0);
    t.is(await reason(store.getRange('big/object.bin', content.length + 10, 10)), 'rejected');
  }));

  test(name('putFile below the threshold streams the file in one request'), (t) => withStore(fixture, t, {}, async (store) => {
    const content = randomBytes(300_000);
    const path = join(fixture.scratchDir(), `small-${randomBytes(4).toString('hex')}.bin`);
    await writeFile(path, content);
    await store.putFile('small.bin', path);
    t.true((await store.get('small.bin')).equals(content));
  }));

  test(name('putIfAbsent is atomic create where supported, and reports unsupported otherwise'), (t) => withStore(fixture, t, {}, async (store) => {
    const first = await store.putIfAbsent('cond/key', Buffer.from('one'));
    if (fixture.kind === 'fs') {
      t.is(first, 'created');
      t.is(await store.putIfAbsent('cond/key', Buffer.from('two')), 'exists');
      t.is((await store.get('cond/key')).toString(), 'one');
    } else {
      // Swift's s3api refuses every conditional PUT with 501 and writes nothing.
      t.is(first, 'unsupported');
      t.is(await store.head('cond/key'), null);
    }
  }));

  test(name('an aborted signal stops a request with reason aborted'), (t) => withStore(fixture, t, {}, async (store) => {
    await store.put('abort/x', Buffer.from('x'));
    t.is(await reason(store.get('abort/x', { signal: AbortSignal.abort() })), 'aborted');
  }));

  // Serial: they measure lease periods, which requests of concurrent tests on the same store would stretch.
  registerLeaseCases(fixture, name);
  registerManifestCases(fixture, name);
}

const LONG_LEASE_MS = 60_000;

function registerLeaseCases(fixture: StoreFixture, name: (what: string) => string): void {
  const { settleMs } = fixture.lease;
  const leaseMs = LONG_LEASE_MS;

  test.serial(name('writer lease: a second instance is refused at once; after release it takes over'), (t) => withStore(fixture, t, {}, async (store) => {
    const first = await claimWriter(store, 'root', 'instance-a', { leaseMs, settleMs });
    t.is(first.claimMode, fixture.kind === 'fs' ? 'conditional' : 'settle');
    const refused = await t.throwsAsync(claimWriter(store, 'root', 'instance-b', { leaseMs, settleMs }), { instanceOf: WriterLeaseError });
    t.regex(refused?.message ?? '', /managed by instance 'instance-a' \(generation 1/);
    await first.assertStillWriter();
    await first.release();
    const second = await claimWriter(store, 'root', 'instance-b', { leaseMs, settleMs });
    t.is(second.generation, 2);
    await t.throwsAsync(first.assertStillWriter(), { instanceOf: WriterLeaseError });
    await second.assertStillWriter();
    await second.release();
  }));

  test.serial(name('writer lease: the same instance restarted after a crash takes its lease back at once'), (t) => withStore(fixture, t, {}, async (store) => {
    const beforeCrash = await claimWriter(store, 'restart', 'instance-a', { leaseMs, settleMs });
    t.teardown(() => beforeCrash.release());
    const afterRestart = await claimWriter(store, 'restart', 'instance-a', { leaseMs, settleMs });
    t.is(afterRestart.generation, beforeCrash.generation + 1);
    await t.throwsAsync(beforeCrash.assertStillWriter(), { instanceOf: WriterLeaseError });
    await t.throwsAsync(claimWriter(store, 'restart', 'instance-b', { leaseMs, settleMs }), { instanceOf: WriterLeaseError });
    await afterRestart.release();
  }));

  test.serial(name('writer lease: a trusted ownership check asks the store only once it is older than the trust'), (t) => withStore(fixture, t, {}, async (store) => {
    const holder = await claimWriter(store, 'trust', 'instance-a', { leaseMs, settleMs });
    t.is(holder.leaseMs, leaseMs);
    // The same instance claiming again supersedes the holder at once (its restart after a crash).
    const successor = await claimWriter(store, 'trust', 'instance-a', { leaseMs, settleMs });
    await holder.assertStillWriter(undefined, leaseMs / 2);
    await t.throwsAsync(holder.assertStillWriter(), { instanceOf: WriterLeaseError });
    await t.throwsAsync(holder.assertStillWriter(undefined, leaseMs / 2), { instanceOf: WriterLeaseError }, 'a lost lease stays lost');
    await t.throwsAsync(successor.assertStillWriter(undefined, leaseMs), { message: /at most half a lease/ });
    await successor.release();
  }));

  test.serial(name('writer lease: two contenders at once, exactly one wins'), (t) => withStore(fixture, t, {}, async (store) => {
    for (let round = 0; round < 3; round++) {
      const root = `race-${round}`;
      const outcomes = await Promise.allSettled([
        claimWriter(store, root, 'instance-a', { leaseMs, settleMs }), claimWriter(store, root, 'instance-b', { leaseMs, settleMs }),
      ]);
      const winners = outcomes.filter((outcome): outcome is PromiseFulfilledResult<WriterHandle> => outcome.status === 'fulfilled');
      t.is(winners.length, 1, `round ${round}: ${outcomes.map((outcome) => outcome.status === 'rejected' ? String(outcome.reason) : 'won').join(' | ')}`);
      for (const outcome of outcomes) if (outcome.status === 'rejected') t.true(outcome.reason instanceof WriterLeaseError);
      for (const winner of winners) {
        await winner.value.assertStillWriter();
        await winner.value.release();
      }
    }
  }));

  test.serial(name('writer lease: a holder that stops renewing is replaced after the lease, and then knows it'), (t) => withStore(fixture, t, {}, async (store) => {
    const { leaseMs } = fixture.lease;
    // renewIntervalMs far beyond the test: the holder behaves like a paused or partitioned process.
    const paused = await claimWriter(store, 'stale', 'instance-a', { leaseMs, settleMs, renewIntervalMs: 3_600_000 });
    await new Promise((done) => setTimeout(done, leaseMs + 50));
    const startedAt = performance.now();
    const successor = await claimWriter(store, 'stale', 'instance-b', { leaseMs, settleMs });
    t.true(performance.now() - startedAt >= leaseMs - 5, 'the successor watched the lease for a full period before taking over');
    t.is(successor.generation, paused.generation + 1);
    const lost = await t.throwsAsync(paused.assertStillWriter(), { instanceOf: WriterLeaseError });
    t.regex(lost?.message ?? '', /generation 2 was claimed|not renewed/);
    await successor.release();
  }));
}

function registerManifestCases(fixture: StoreFixture, name: (what: string) => string): void {
  const { settleMs } = fixture.lease;
  const leaseMs = LONG_LEASE_MS;

  test.serial(name('manifest: a commit interrupted at every write leaves the old or the new manifest, never a missing object'), (t) => withStore(fixture, t, {}, async (store) => {
    const writer = await claimWriter(store, 'tbl', 'instance-a', { leaseMs, settleMs });
    t.teardown(() => writer.release());
    const log = new ManifestLog(store, 'tbl');
    t.is(await log.readLatest(), null);
    await log.commit(writer, { uploads: [{ kind: 'bytes', key: 'tbl/data/base', body: Buffer.from('base') }], objects: ['tbl/data/base'], body: { step: 0 } });
    const filePath = join(fixture.scratchDir(), `part-${randomBytes(4).toString('hex')}.bin`);
    await writeFile(filePath, randomBytes(10_000));
    const outcomes: string[] = [];
    for (let crashAfter = 0; crashAfter < 10; crashAfter++) {
      const before = await log.readLatest();
      const step = crashAfter + 1;
      const faulty = new FaultObjectStore(store, crashAfter);
      const newObjects = [`tbl/data/b-${step}`, `tbl/data/c-${step}`];
      try {
        await new ManifestLog(faulty, 'tbl').commit(writer, {
          uploads: [{ kind: 'bytes', key: newObjects[0] ?? '', body: Buffer.from(`b${step}`) }, { kind: 'file', key: newObjects[1] ?? '', path: filePath }],
          objects: [...(before?.objects ?? []), ...newObjects], body: { step },
        });
      } catch (error) {
        t.true(error instanceof InjectedCrash, String(error));
      }
      const after = await log.readLatest();
      t.truthy(after);
      const bodyStep = stepOf(after?.body);
      t.true(bodyStep === step || bodyStep === stepOf(before?.body), `crash after ${crashAfter} writes: step ${bodyStep}`);
      for (const key of after?.objects ?? []) t.not(await store.head(key), null, `${key} named by the manifest exists`);
      outcomes.push(faulty.crashedAtWrite ? (bodyStep === step ? 'crashed-new' : 'crashed-old') : 'committed');
      if (!faulty.crashedAtWrite) break;
    }
    // Writes: 2 objects, the manifest, the pointer. A crash before the manifest keeps the old state; a crash at
    // the pointer (after the manifest) already shows the new one, found by listing past the stale pointer.
    t.deepEqual(outcomes, ['crashed-old', 'crashed-old', 'crashed-old', 'crashed-new', 'committed']);
    // Pruning keeps the newest versions: the latest manifest reads the same afterwards.
    const latest = await log.readLatest();
    t.is(await log.prune(2), 1);
    t.deepEqual(await log.readLatest(), latest);
  }));

  test.serial(name('manifest: a superseded writer cannot commit, and its late writes are never read'), (t) => withStore(fixture, t, {}, async (store) => {
    const old = await claimWriter(store, 'fence', 'instance-a', { leaseMs, settleMs });
    const log = new ManifestLog(store, 'fence');
    await log.commit(old, { uploads: [{ kind: 'bytes', key: 'fence/one', body: Buffer.from('1') }], objects: ['fence/one'], body: 'by a' });
    await old.release();
    const current = await claimWriter(store, 'fence', 'instance-b', { leaseMs, settleMs });
    t.teardown(() => current.release());
    await t.throwsAsync(log.commit(old, { uploads: [], objects: ['fence/one'], body: 'late' }), { instanceOf: WriterLeaseError });
    await log.commit(current, { uploads: [], objects: ['fence/one'], body: 'by b' });
    // A write that a stale holder had in flight lands late, with a higher version but its older generation.
    const late = { format: 'svc-manifest', generation: old.generation, version: 99, instanceId: 'instance-a', writtenAtMs: Date.now(), objects: [], body: 'late' } as const;
    await store.put(manifestKey('fence/', late.generation, late.version), encodeManifest(late));
    t.is((await log.readLatest())?.body, 'by b');
    const missing = await t.throwsAsync(log.commit(current, { uploads: [], objects: ['fence/one', 'fence/never-written'], body: 'bad' }), { instanceOf: ObjectStoreError });
    t.true(missing?.message.includes('fence/never-written'));
    t.is((await log.readLatest())?.body, 'by b');
  }));
}
