// The pure parts of cold storage: the _txn codec's cold copy (absent in old files), object keys per partition
// unit, when a policy stage is due, and reconciling a manifest with _txn.
import test from 'ava';
import { decodeTxn, encodeTxn, type TxnState } from '../../../../src/storage/txn-file.js';
import { coldObjectKey } from '../../../../src/engine/cold/cold-object-key.js';
import { dueBefore, partitionsEndingBefore } from '../../../../src/engine/storage-policy.js';
import { reconcileColdEntries } from '../../../../src/engine/cold/cold-reconcile.js';
import type { ColdObjectEntry } from '../../../../src/storage/cold-manifest-file.js';
import { parseTimestamp } from '../../../../src/types/timestamp-parse.js';

function micros(text: string): number {
  const value = parseTimestamp(text);
  if (value === undefined) throw new Error(`bad timestamp ${text}`);
  return value;
}

function dayEntry(day: string, version: number, cold?: { key: string; local: boolean }): TxnState['partitions'][number] {
  const start = micros(`${day}T00:00:00`);
  const base = { name: day, version, rowCount: 10, minTimestamp: start, maxTimestamp: start + 3_600_000_000, parquetBytes: 100 };
  return cold === undefined ? base : { ...base, cold: { key: cold.key, etag: `e-${cold.key}`, bytes: 100, local: cold.local } };
}

function txnOf(partitions: TxnState['partitions']): TxnState {
  return { txn: 9, tableId: 1, structureVersion: 0, walSeq: 0, rowCount: partitions.length * 10, partitions, symbolCounts: [0] };
}

test('the cold copy round-trips through _txn, and old files without it decode', (t) => {
  const state = txnOf([dayEntry('2024-01-01', 3, { key: 't~1/year=2024/month=01/day=01/data.3.parquet', local: false }), dayEntry('2024-01-02', 4)]);
  const decoded = decodeTxn(encodeTxn(state), '_txn');
  t.deepEqual(decoded, state);
  t.is(decoded.partitions[1]?.cold, undefined);
  const old = JSON.parse(encodeTxn(state).toString('utf8')) as { partitions: Record<string, unknown>[] };
  delete old.partitions[0]?.['cold'];
  t.is(decodeTxn(Buffer.from(JSON.stringify(old)), '_txn').partitions[0]?.cold, undefined);
  const bad = JSON.parse(encodeTxn(state).toString('utf8')) as { partitions: Record<string, unknown>[] };
  (bad.partitions[0] as Record<string, unknown>)['cold'] = { key: 'k', etag: 1, bytes: 100, local: false };
  t.throws(() => decodeTxn(Buffer.from(JSON.stringify(bad)), '_txn'), { message: /corrupt _txn cold copy/ });
});

test('object keys follow the partitioning, Hive style, with the version in the file name', (t) => {
  const at = micros('2024-03-07T13:20:00');
  t.is(coldObjectKey('trades', 7, 'DAY', at, 12), 'trades~7/year=2024/month=03/day=07/data.12.parquet');
  t.is(coldObjectKey('trades', 7, 'HOUR', at, 12), 'trades~7/year=2024/month=03/day=07/hour=13/data.12.parquet');
  t.is(coldObjectKey('trades', 7, 'MONTH', at, 1), 'trades~7/year=2024/month=03/data.1.parquet');
  t.is(coldObjectKey('trades', 7, 'YEAR', at, 1), 'trades~7/year=2024/data.1.parquet');
  t.is(coldObjectKey('trades', 7, 'WEEK', at, 1), 'trades~7/year=2024/month=03/day=04/data.1.parquet');
});

test('a stage is due for partitions ending before min(now, newest timestamp) minus its duration, never the newest', (t) => {
  const txn = txnOf(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'].map((day, k) => dayEntry(day, k + 1)));
  // Newest timestamp 2024-01-04T01:00; 2 days back is 2024-01-02T01:00: only 01-01 ended by then.
  const before = dueBefore(txn, { value: 2, unit: 'DAY' }, micros('2030-01-01T00:00:00'));
  t.is(before, micros('2024-01-02T01:00:00'));
  t.deepEqual(partitionsEndingBefore({ partitionBy: 'DAY' }, txn, before).map((entry) => entry.name), ['2024-01-01']);
  // The wall clock wins when it is earlier than the data.
  t.is(dueBefore(txn, { value: 1, unit: 'HOUR' }, micros('2024-01-03T00:00:00')), micros('2024-01-02T23:00:00'));
  t.is(dueBefore(txn, { value: 1, unit: 'MONTH' }, micros('2030-01-01T00:00:00')), micros('2023-12-04T01:00:00'));
  // Everything is old enough, the newest partition still stays.
  t.deepEqual(partitionsEndingBefore({ partitionBy: 'DAY' }, txn, Infinity).map((entry) => entry.name), ['2024-01-01', '2024-01-02', '2024-01-03']);
  t.is(dueBefore(txnOf([]), { value: 1, unit: 'DAY' }, 0), -Infinity);
});

function entry(partition: string, key: string, state: ColdObjectEntry['state'], deleteAfterMs?: number): ColdObjectEntry {
  const base: ColdObjectEntry = { partition, version: 1, key, etag: `e-${key}`, bytes: 100, state, changedAtMs: 0 };
  return deleteAfterMs === undefined ? base : { ...base, deleteAfterMs };
}

test('reconciling follows _txn: named objects live or sealed, the rest deleting, expired ones deleted', (t) => {
  const txn = txnOf([dayEntry('2024-01-01', 1, { key: 'a', local: false }), dayEntry('2024-01-02', 1, { key: 'b', local: true }), dayEntry('2024-01-03', 1)]);
  const result = reconcileColdEntries([
    entry('2024-01-01', 'a', 'live'), entry('2024-01-02', 'b', 'pending'), entry('2024-01-03', 'c', 'live'),
    entry('2024-01-04', 'd', 'pending'), entry('2024-01-05', 'e', 'deleting', 1000), entry('2024-01-06', 'f', 'deleting', 9000),
  ], txn, 5000, 60_000);
  t.true(result.changed);
  t.deepEqual(result.entries.map((item) => [item.key, item.state, item.deleteAfterMs]), [
    ['a', 'sealed', undefined], ['b', 'live', undefined], ['c', 'deleting', 65_000], ['d', 'deleting', 65_000], ['f', 'deleting', 9000],
  ]);
  t.deepEqual(result.expiredKeys, ['e']);
  t.deepEqual(result.invalidated, ['2024-01-03'], 'a live copy no longer named was invalidated by a write');
  const again = reconcileColdEntries(result.entries, txn, 6000, 60_000);
  t.false(again.changed);
  // A copy _txn names that the manifest lost is listed again.
  const restored = reconcileColdEntries([], txn, 7000, 60_000);
  t.deepEqual(restored.entries.map((item) => [item.partition, item.key, item.state]), [['2024-01-01', 'a', 'sealed'], ['2024-01-02', 'b', 'live']]);
});
