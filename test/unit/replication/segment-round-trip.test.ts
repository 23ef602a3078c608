// Captures and segments as pure file operations: a primary-like root changes (appends, a new partition
// version, a replaced _txn, a dropped table), captures diff it, the objects are encoded and decoded, and a
// replica-like root that applies them (twice, as after a kill -9) ends with the same files. Corrupt objects
// are refused before anything is applied.
import test from 'ava';
import { createHash } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { TrackedFiles } from '../../../src/replication/tracked-files.js';
import { captureChanges, discardCapture, SMALL_FILE_BYTES } from '../../../src/replication/capture.js';
import { captureParts } from '../../../src/replication/capture-parts.js';
import { decodeSegment, encodeSegment, frameSegmentSync, isSafeRelativePath, segmentHeader } from '../../../src/replication/segment-codec.js';
import { hasZstd } from '../../../src/replication/zstd.js';
import { applySegment } from '../../../src/replication/segment-applier.js';

function filesOf(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found[relative(root, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(join(root, 'db'));
  return found;
}

async function ship(primary: string, replica: string, capture: ReturnType<typeof captureChanges>, partBytesMax: number, times = 1): Promise<number> {
  let objects = 0;
  for await (const part of captureParts([capture], partBytesMax)) {
    const decoded = await decodeSegment(await encodeSegment(++objects, part.operations, part.chunks), `part-${objects}`);
    for (let k = 0; k < times; k++) applySegment(replica, decoded);
  }
  discardCapture(capture);
  return objects;
}

test('appends, a new partition version, a replaced _txn and a dropped table reach a replica byte for byte, applied twice', async (t) => {
  const primary = mkdtempSync(join(tmpdir(), 'svc-repl-unit-p-'));
  const replica = mkdtempSync(join(tmpdir(), 'svc-repl-unit-r-'));
  t.teardown(() => {
    rmSync(primary, { recursive: true, force: true });
    rmSync(replica, { recursive: true, force: true });
  });
  const tracked = new TrackedFiles(primary);
  const big = Buffer.alloc(SMALL_FILE_BYTES * 3, 7);
  mkdirSync(join(primary, 'db', 't', '2026-01-01'), { recursive: true });
  mkdirSync(join(primary, 'db', 't', 'wal'), { recursive: true });
  mkdirSync(join(primary, 'db', 'gone'), { recursive: true });
  writeFileSync(join(primary, 'db', 't', '2026-01-01', 'v.d'), big);
  writeFileSync(join(primary, 'db', 't', 'wal', 'ignored'), 'not shipped');
  writeFileSync(join(primary, 'db', 't', '_txn'), 'txn 1');
  writeFileSync(join(primary, 'db', 'gone', '_txn'), 'other');
  let previous = tracked.scan(true);
  await ship(primary, replica, captureChanges(primary, join(primary, 'outbox', '1'), null, previous), 1 << 20);
  t.deepEqual(filesOf(replica), Object.fromEntries(Object.entries(filesOf(primary)).filter(([path]) => !path.includes('wal'))));

  appendFileSync(join(primary, 'db', 't', '2026-01-01', 'v.d'), Buffer.alloc(SMALL_FILE_BYTES, 9));
  mkdirSync(join(primary, 'db', 't', '2026-01-01.2'));
  writeFileSync(join(primary, 'db', 't', '2026-01-01.2', 'v.d'), Buffer.alloc(SMALL_FILE_BYTES * 2 + 5, 3));
  writeFileSync(join(primary, 'db', 't', '_txn.tmp'), 'txn 2');
  renameSync(join(primary, 'db', 't', '_txn.tmp'), join(primary, 'db', 't', '_txn'));
  rmSync(join(primary, 'db', 'gone'), { recursive: true });
  const current = tracked.scan(false);
  const capture = captureChanges(primary, join(primary, 'outbox', '2'), previous, current);
  const appended = capture.writes.find((write) => write.operation.path === 'db/t/2026-01-01/v.d')?.operation;
  t.deepEqual(appended, { op: 'write', path: 'db/t/2026-01-01/v.d', offset: big.length, length: SMALL_FILE_BYTES, whole: false });
  t.is(capture.writes.at(-1)?.operation.path, 'db/t/_txn', '_txn is written last');
  t.deepEqual(capture.deletes, ['db/gone/_txn']);
  // Small parts: the new version file is split over objects; applying each twice changes nothing.
  t.true(await ship(primary, replica, capture, SMALL_FILE_BYTES, 2) > 2);
  previous = current;
  t.deepEqual(filesOf(replica), Object.fromEntries(Object.entries(filesOf(primary)).filter(([path]) => !path.includes('wal') && !path.startsWith('outbox'))));
  t.false(readdirSync(join(replica, 'db')).includes('gone'), 'the dropped table directory went');
  t.is(statSync(join(replica, 'db', 't', '2026-01-01', 'v.d')).size, big.length + SMALL_FILE_BYTES);
  t.is(tracked.scan(false).size, previous.size);
});

test('a corrupt or truncated object is refused; unsafe paths are not operations', async (t) => {
  const object = await encodeSegment(5, [{ op: 'write', path: 'db/t/_txn', offset: 0, length: 3, whole: true }], [Buffer.from('abc')]);
  const decoded = await decodeSegment(object, 'k');
  t.is(decoded.seq, 5);
  t.is(decoded.body.toString(), 'abc');
  const flipped = Buffer.from(object);
  flipped[flipped.length - 5] = (flipped[flipped.length - 5] ?? 0) ^ 0xff;
  await t.throwsAsync(decodeSegment(flipped, 'k'), { message: /checksum mismatch \[key=k\]/ });
  const inPayload = Buffer.from(object);
  inPayload[10] = (inPayload[10] ?? 0) ^ 0xff;
  await t.throwsAsync(decodeSegment(inPayload, 'k'), { message: /checksum mismatch \[key=k\]/ });
  await t.throwsAsync(decodeSegment(object.subarray(0, object.length - 1), 'k'), { message: /checksum mismatch/ });
  await t.throwsAsync(decodeSegment(object.subarray(0, 20), 'k'), { message: /too short/ });
  await t.throwsAsync(decodeSegment(Buffer.concat([Buffer.from('SVCREPL9'), object.subarray(8)]), 'k'), { message: /bad magic/ });
  const escaping = await encodeSegment(6, [{ op: 'delete', path: '../etc/passwd' }], []);
  await t.throwsAsync(decodeSegment(escaping, 'k'), { message: /malformed operation/ });
  for (const path of ['', '/abs', 'db/../b', 'db//b', 'db/a\\b', 'db/./a', 'conf/server.conf', 'replication/applied.json']) t.false(isSafeRelativePath(path), path);
  t.true(isSafeRelativePath('conf/service-accounts.json'));
  t.true(isSafeRelativePath('db/t/2026-01-01.3/v.d'));
});

/** An object as primaries before SVCREPL4 wrote it: magic, SHA-256 of the payload, Brotli payload, no value widths. */
function digestFirstObject(seq: number, path: string, bytes: Buffer): Buffer {
  const header = Buffer.from(JSON.stringify({ format: 'svc-replication-segment', seq, operations: [{ op: 'write', path, offset: 0, length: bytes.length, whole: true }] }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length, 0);
  const payload = brotliCompressSync(Buffer.concat([length, header, bytes]));
  return Buffer.concat([Buffer.from('SVCREPL2'), createHash('sha256').update(payload).digest(), payload]);
}

test('objects of the previous format (SVCREPL2) are still read', async (t) => {
  const bytes = Buffer.from('previous format bytes');
  const decoded = await decodeSegment(digestFirstObject(7, 'db/t/_txn', bytes), 'k');
  t.is(decoded.seq, 7);
  t.true(decoded.body.equals(bytes));
});

test('the encoder thread writes Zstandard where this Node.js has it, else Brotli; either decodes to its bytes', async (t) => {
  const bytes = Buffer.from('0123456789abcdef'.repeat(1000));
  const raw = Buffer.concat([segmentHeader(11, [{ op: 'write', path: 'db/t/x.d', offset: 0, length: bytes.length, whole: false }], [1]), bytes]);
  const { object, sha256Hex } = frameSegmentSync(raw);
  t.is(object.subarray(0, 8).toString('latin1'), hasZstd() ? 'SVCREPL5' : 'SVCREPL4', `Node.js ${process.version}`);
  t.is(sha256Hex, createHash('sha256').update(object).digest('hex'));
  const decoded = await decodeSegment(object, 'k');
  t.is(decoded.seq, 11);
  t.true(decoded.body.equals(bytes));
  const flipped = Buffer.from(object);
  flipped[12] = (flipped[12] ?? 0) ^ 0xff;
  await t.throwsAsync(decodeSegment(flipped, 'k'), { message: /checksum mismatch \[key=k\]/ });
});

/** A SVCREPL5 object as a primary on Node.js 24 wrote it: seq 9, one write of 'zstd fixture bytes' to db/t/_txn. */
function zstdFixtureObject(): Buffer {
  const payload = Buffer.from('KLUv/SCoZQQAMsogH3AXOgf832jq2iayuttZbETBrnz9x4qQ1GIll9z/56G8PSXDzqcl14al2aBCjEPP29PAPo9BX0i1z2z9vthEXwGGvmkG7vsC0Pdya/HrUGqCootkub5pJr++7WZ0vYynDj3PlfFLQF+w/PWG6zDLBIyumeKe3EkoEF/fzJmxnRIE4SABAPXChAI=', 'base64');
  const magic = Buffer.from('SVCREPL5');
  return Buffer.concat([magic, payload, createHash('sha256').update(magic).update(payload).digest()]);
}

test('a Zstandard object decodes where this Node.js has Zstandard, and is refused saying why where it has not', async (t) => {
  const object = zstdFixtureObject();
  if (hasZstd()) {
    const decoded = await decodeSegment(object, 'k');
    t.is(decoded.seq, 9);
    t.is(decoded.body.toString(), 'zstd fixture bytes');
  } else {
    await t.throwsAsync(decodeSegment(object, 'k'), { message: /compressed with Zstandard, which this Node\.js \(v[\d.]+\) cannot decompress: run the replica on Node\.js 22\.15 or later.*\[key=k\]/ });
  }
});
