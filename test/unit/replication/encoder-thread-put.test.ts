// The segment encoder thread stores the objects it encodes (the primary's uploads run there, not on the event
// loop that runs commits), through its own connection to the store: the stored object decodes to the plan's
// bytes under its sequence number. A request whose lease deadline passed before the PUT could start stores
// nothing and says so, so the caller checks the lease again instead of uploading on a stale check; the thread
// keeps the object meanwhile, stores it on a put-kept request and drops it on a release.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SegmentEncoder } from '../../../src/replication/segment-encoder.js';
import type { PartPlan } from '../../../src/replication/capture-parts.js';
import { decodeSegment } from '../../../src/replication/segment-codec.js';
import { monotonicMs } from '../../../src/replication/encoder-thread-store.js';
import { openObjectStore } from '../../../src/objectstore/open-object-store.js';

function plan(bytes: Buffer): PartPlan {
  return {
    operations: [{ op: 'write', path: 'db/t/2026-01-01/v.d', offset: 0, length: bytes.length, whole: true }],
    ranges: [{ source: { kind: 'memory', bytes }, position: 0, length: bytes.length, valueBytes: 8 }],
  };
}

function fsStore(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-encoder-put-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return `fs::root=${join(dir, 'store')};atomic_write_dir=${join(dir, 'scratch')};`;
}

test('the thread stores the object it encodes, which decodes to the plan bytes', async (t) => {
  const connection = fsStore(t);
  const encoder = new SegmentEncoder({ lowPriority: true, store: { connection, configKey: 'replication.object.store' } });
  t.teardown(() => encoder.close());
  const bytes = Buffer.alloc(80_000);
  for (let index = 0; index < bytes.length / 8; index++) bytes.writeBigInt64LE(BigInt(index) * 1_000_003n, index * 8);
  const objectBytes = await encoder.encodeAndPut(7, plan(bytes), { key: 'segments/7', startByMs: monotonicMs() + 60_000 });
  const store = await openObjectStore(connection, { configKey: 'replication.object.store' });
  t.teardown(() => store.close());
  const stored = await store.get('segments/7');
  t.deepEqual(objectBytes, { kind: 'stored', objectBytes: stored.length });
  const decoded = await decodeSegment(stored, 'segments/7');
  t.is(decoded.seq, 7);
  t.true(decoded.body.equals(bytes));
});

test('past its lease deadline the thread stores nothing, keeps the object, and stores it once put again', async (t) => {
  const connection = fsStore(t);
  const encoder = new SegmentEncoder({ lowPriority: true, store: { connection, configKey: 'replication.object.store' } });
  t.teardown(() => encoder.close());
  const store = await openObjectStore(connection, { configKey: 'replication.object.store' });
  t.teardown(() => store.close());
  const bytes = Buffer.alloc(800, 7);
  const late = await encoder.encodeAndPut(8, plan(bytes), { key: 'segments/8', startByMs: monotonicMs() - 1 });
  if (late.kind !== 'late') return t.fail(`expected a late answer, got ${late.kind}`);
  t.is(await store.head('segments/8'), null);
  // Late again: still kept, still nothing stored.
  const again = await encoder.putKept(late.objectId, { key: 'segments/8', startByMs: monotonicMs() - 1 });
  if (again.kind !== 'late') return t.fail(`expected a late answer, got ${again.kind}`);
  t.is(await store.head('segments/8'), null);
  const stored = await encoder.putKept(again.objectId, { key: 'segments/8', startByMs: monotonicMs() + 60_000 });
  t.is(stored.kind, 'stored');
  t.true((await decodeSegment(await store.get('segments/8'), 'segments/8')).body.equals(bytes));
  // A stored object is no longer kept: putting it again fails instead of writing twice.
  await t.throwsAsync(encoder.putKept(again.objectId, { key: 'segments/9', startByMs: monotonicMs() + 60_000 }), { message: /no kept object/ });
});

test('a released object is dropped by the thread', async (t) => {
  const connection = fsStore(t);
  const encoder = new SegmentEncoder({ lowPriority: true, store: { connection, configKey: 'replication.object.store' } });
  t.teardown(() => encoder.close());
  const late = await encoder.encodeAndPut(9, plan(Buffer.alloc(800, 9)), { key: 'segments/9', startByMs: monotonicMs() - 1 });
  if (late.kind !== 'late') return t.fail(`expected a late answer, got ${late.kind}`);
  encoder.releaseKept(late.objectId);
  await t.throwsAsync(encoder.putKept(late.objectId, { key: 'segments/9', startByMs: monotonicMs() + 60_000 }), { message: /no kept object/ });
});
