// A new partition version that repeats its previous version's first bytes: the capture names the previous
// version as its prefix base (pinned, so it stays readable), and a replica builds the new file from a copy
// of the base it has plus the shipped tail, also when the object is applied again after the base was deleted
// by a later operation of the same object (a kill -9 between apply and the recorded sequence). When the base
// grew in the same capture (rows appended, then an out-of-order merge), the appended rows ship once: the
// base's write comes first and the copy covers them.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrackedFiles } from '../../../src/replication/tracked-files.js';
import { captureChanges, discardCapture, SMALL_FILE_BYTES, type Capture } from '../../../src/replication/capture.js';
import { planParts } from '../../../src/replication/capture-parts.js';
import { SegmentEncoder } from '../../../src/replication/segment-encoder.js';
import { FilePins } from '../../../src/replication/file-pins.js';
import { decodeSegment, encodeSegment, type FileOperation } from '../../../src/replication/segment-codec.js';
import { applySegment } from '../../../src/replication/segment-applier.js';

function tempRoot(t: { teardown(fn: () => void): void }, label: string): string {
  const root = mkdtempSync(join(tmpdir(), `svc-repl-copy-${label}-`));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

test('a new partition version names its previous version as prefix base, pinned until the capture is discarded', (t) => {
  const primary = tempRoot(t, 'p');
  const tracked = new TrackedFiles(primary);
  const pins = new FilePins(primary);
  const old = Buffer.alloc(SMALL_FILE_BYTES * 4, 1);
  mkdirSync(join(primary, 'db', 't', '2026-01-01'), { recursive: true });
  writeFileSync(join(primary, 'db', 't', '2026-01-01', 'v.d'), old);
  writeFileSync(join(primary, 'db', 't', '_txn'), 'txn 1');
  const previous = tracked.scan(true);
  mkdirSync(join(primary, 'db', 't', '2026-01-01.3'));
  writeFileSync(join(primary, 'db', 't', '2026-01-01.3', 'v.d'), Buffer.concat([old.subarray(0, SMALL_FILE_BYTES * 3), Buffer.alloc(SMALL_FILE_BYTES * 2, 2)]));
  writeFileSync(join(primary, 'db', 't', '_txn'), 'txn 2 longer');
  const capture = captureChanges(primary, join(primary, 'outbox'), previous, tracked.scan(false), pins);
  const write = capture.writes.find((candidate) => candidate.operation.path === 'db/t/2026-01-01.3/v.d');
  t.is(write?.base?.path, 'db/t/2026-01-01/v.d');
  t.is(write?.base?.lengthMax, old.length);
  t.is(write?.source.kind, 'pinned');
  t.is(pins.size, 2, 'the new file and its base are open');
  pins.clear();
  discardCapture(capture);
  t.is(pins.size, 0, 'every descriptor is closed once the capture is discarded and the cache cleared');
});

test('a copy operation builds the file from the base; applied again after the base went, it leaves the same file', async (t) => {
  const replica = tempRoot(t, 'r');
  const base = Buffer.alloc(SMALL_FILE_BYTES * 2, 5);
  mkdirSync(join(replica, 'db', 't', '2026-01-01'), { recursive: true });
  writeFileSync(join(replica, 'db', 't', '2026-01-01', 'v.d'), base);
  const tail = Buffer.alloc(1000, 9);
  const operations: FileOperation[] = [
    { op: 'copy', from: 'db/t/2026-01-01/v.d', path: 'db/t/2026-01-01.2/v.d', length: SMALL_FILE_BYTES },
    { op: 'write', path: 'db/t/2026-01-01.2/v.d', offset: SMALL_FILE_BYTES, length: tail.length, whole: false },
    { op: 'delete', path: 'db/t/2026-01-01/v.d' },
  ];
  const segment = await decodeSegment(await encodeSegment(1, operations, [tail]), 'k');
  const expected = Buffer.concat([base.subarray(0, SMALL_FILE_BYTES), tail]);
  applySegment(replica, segment);
  t.deepEqual(readFileSync(join(replica, 'db', 't', '2026-01-01.2', 'v.d')), expected);
  applySegment(replica, segment);
  t.deepEqual(readFileSync(join(replica, 'db', 't', '2026-01-01.2', 'v.d')), expected);
  rmSync(join(replica, 'db', 't', '2026-01-01.2'), { recursive: true });
  t.throws(() => applySegment(replica, segment), { message: /missing or short for a copy/ }, 'neither the base nor the target: the replica diverged');
  await t.throwsAsync(decodeSegment(await encodeSegment(2, [{ op: 'copy', from: '../x', path: 'db/t/a', length: 1 }], []), 'k'), { message: /malformed operation/ });
});

/** Encodes `capture` on a real encoder thread (which turns shared prefixes into copies), applies it to `replica`; the bytes its writes shipped. */
async function shipThroughEncoder(encoder: SegmentEncoder, capture: Capture, seq: number, replica: string): Promise<{ shippedBytes: number; operations: readonly FileOperation[] }> {
  let shippedBytes = 0;
  const operations: FileOperation[] = [];
  for (const plan of planParts([capture])) {
    const segment = await decodeSegment((await encoder.encode(seq, plan)).object, `k${seq}`);
    applySegment(replica, segment);
    shippedBytes += segment.body.length;
    operations.push(...segment.operations);
  }
  discardCapture(capture);
  return { shippedBytes, operations };
}

test('rows appended to a partition and merged into its new version in the same capture ship once', async (t) => {
  const primary = tempRoot(t, 'p');
  const replica = tempRoot(t, 'r');
  const tracked = new TrackedFiles(primary);
  const pins = new FilePins(primary);
  const encoder = new SegmentEncoder({ lowPriority: true, store: null });
  t.teardown(async () => {
    pins.clear();
    await encoder.close();
  });
  const first = Buffer.alloc(SMALL_FILE_BYTES * 4, 1);
  const appended = Buffer.alloc(SMALL_FILE_BYTES * 3, 2);
  const merged = Buffer.alloc(SMALL_FILE_BYTES, 3);
  mkdirSync(join(primary, 'db', 't', '2026-01-01'), { recursive: true });
  writeFileSync(join(primary, 'db', 't', '2026-01-01', 'v.d'), first);
  writeFileSync(join(primary, 'db', 't', '_txn'), 'txn 1');
  let previous = tracked.scan(true);
  await shipThroughEncoder(encoder, captureChanges(primary, join(primary, 'outbox', '1'), null, previous, pins), 1, replica);
  // Appends, then a merge that keeps every row so far and adds one block: the new version repeats them all.
  writeFileSync(join(primary, 'db', 't', '2026-01-01', 'v.d'), Buffer.concat([first, appended]));
  mkdirSync(join(primary, 'db', 't', '2026-01-01.3'));
  writeFileSync(join(primary, 'db', 't', '2026-01-01.3', 'v.d'), Buffer.concat([first, appended, merged]));
  writeFileSync(join(primary, 'db', 't', '_txn'), 'txn 2 longer');
  const current = tracked.scan(false);
  const capture = captureChanges(primary, join(primary, 'outbox', '2'), previous, current, pins);
  previous = current;
  const paths = capture.writes.map((write) => write.operation.path);
  t.is(capture.writes.find((write) => write.base !== undefined)?.base?.lengthMax, first.length + appended.length, 'the base counts its bytes written in this capture');
  t.true(paths.indexOf('db/t/2026-01-01/v.d') < paths.indexOf('db/t/2026-01-01.3/v.d'), 'the base is written before the file that copies from it');
  const { shippedBytes, operations } = await shipThroughEncoder(encoder, capture, 2, replica);
  t.deepEqual(operations.filter((operation) => operation.op === 'copy').map((operation) => operation.op === 'copy' && operation.length), [first.length + appended.length]);
  t.is(shippedBytes, appended.length + merged.length + 'txn 2 longer'.length, 'the appended rows ship once');
  for (const path of ['2026-01-01/v.d', '2026-01-01.3/v.d', '_txn']) {
    t.deepEqual(readFileSync(join(replica, 'db', 't', path)), readFileSync(join(primary, 'db', 't', path)), path);
  }
});
