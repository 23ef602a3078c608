// The lease and manifest codecs: keys sort by generation (then version), records round-trip, and malformed
// objects are refused with the key named rather than read as an empty lease or manifest.
import test from 'ava';
import { ObjectStoreError } from '../../../src/objectstore/object-store-error.js';
import { leaseKey, generationOfLeaseKey, encodeLeaseRecord, decodeLeaseRecord, type WriterLeaseRecord } from '../../../src/objectstore/writer-lease-record.js';
import { manifestKey, isManifestKey, pointerKey, encodeManifest, decodeManifest, decodePointer, type Manifest } from '../../../src/objectstore/manifest-codec.js';

const lease: WriterLeaseRecord = {
  format: 'svc-writer-lease', instanceId: 'node-a', claimId: 'c1', generation: 7, heartbeatCount: 3, heartbeatAtMs: 1_700_000_000_000, leaseMs: 30_000, released: false,
};

test('lease keys sort by generation and parse back; other keys are not leases', (t) => {
  t.is(leaseKey('root/', 7), 'root/_writer/00000000000000000007');
  t.true(leaseKey('', 9) < leaseKey('', 10));
  t.is(generationOfLeaseKey('root/', leaseKey('root/', 12)), 12);
  t.is(generationOfLeaseKey('root/', 'root/_writer/tmp'), null);
  t.is(generationOfLeaseKey('root/', 'other/_writer/00000000000000000001'), null);
});

test('a lease record round-trips; a malformed one is refused naming its key', (t) => {
  t.deepEqual(decodeLeaseRecord(encodeLeaseRecord(lease), 'k', 'store'), lease);
  for (const bytes of ['not json', '{}', JSON.stringify({ ...lease, generation: '7' }), JSON.stringify({ ...lease, released: 'no' })]) {
    const error = t.throws(() => decodeLeaseRecord(Buffer.from(bytes), 'root/_writer/1', 'fs root=/x'), { instanceOf: ObjectStoreError });
    t.is(error?.message, 'writer lease object is malformed [store=fs root=/x, key=root/_writer/1]');
  }
});

test('manifest keys order by generation first, so a superseded writer never sorts last', (t) => {
  t.true(manifestKey('t/', 1, 99) < manifestKey('t/', 2, 3));
  t.true(manifestKey('t/', 2, 3) < manifestKey('t/', 2, 10));
  t.true(isManifestKey('t/', manifestKey('t/', 2, 3)));
  t.false(isManifestKey('t/', pointerKey('t/')));
  t.is(decodePointer(Buffer.from(`${manifestKey('t/', 2, 3)}\n`), 't/'), manifestKey('t/', 2, 3));
  t.is(decodePointer(Buffer.from('garbage'), 't/'), null);
});

test('a manifest round-trips; a malformed one is refused', (t) => {
  const manifest: Manifest = { format: 'svc-manifest', generation: 2, version: 3, instanceId: 'node-a', writtenAtMs: 1, objects: ['t/a', 't/b'], body: { partitions: [1, 2] } };
  t.deepEqual(decodeManifest(encodeManifest(manifest), 'k', 's'), manifest);
  t.throws(() => decodeManifest(Buffer.from(JSON.stringify({ ...manifest, objects: [1] })), 'k', 's'), { instanceOf: ObjectStoreError });
  t.throws(() => decodeManifest(Buffer.from('{'), 'k', 's'), { instanceOf: ObjectStoreError });
});
