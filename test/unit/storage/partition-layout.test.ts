// Designated timestamps read from a column's bytes: µs values as they are, ns values floored to µs exactly
// (also where a double would round across a µs boundary), from aligned and unaligned buffers, and values past
// 2^32 µs (the high word matters) and before 1970.
import test from 'ava';
import { timestampKeysOf, timestampsOf } from '../../../src/storage/partition-layout.js';
import type { ColumnData } from '../../../src/storage/row-chunk.js';

/** A fixed 8-byte column of `values`, starting `shift` bytes into its buffer. */
function int64Column(values: readonly bigint[], shift = 0): ColumnData {
  const buffer = Buffer.alloc(values.length * 8 + shift);
  values.forEach((value, row) => buffer.writeBigInt64LE(value, shift + row * 8));
  return { kind: 'fixed', width: 8, bytes: buffer.subarray(shift) };
}

const micros = [1_704_067_200_000_000n, 1_704_067_200_100_000n, 4_294_967_296n, 0n, -1n, -4_294_967_297n, 9_007_199_254_740_991n];

test('µs timestamps come back as the same numbers, aligned or not', (t) => {
  for (const shift of [0, 3]) {
    t.deepEqual(Array.from(timestampsOf(int64Column(micros, shift), micros.length)), micros.map(Number));
  }
});

test('ns timestamps are floored to µs exactly, also where the double of the ns value rounds up', (t) => {
  // 1704067200000000999 ns is 1704067200000001000 as a double: its µs floor must stay ...000.
  const nanos = [1_704_067_200_000_000_999n, 1_704_067_200_000_001_000n, -1n, -1_000n, -1_001n];
  const expected = [1_704_067_200_000_000, 1_704_067_200_000_001, -1, -1, -2];
  for (const shift of [0, 5]) t.deepEqual(Array.from(timestampsOf(int64Column(nanos, shift), nanos.length, true)), expected);
  const keys = timestampKeysOf(int64Column(nanos), nanos.length, true);
  t.true(keys instanceof BigInt64Array, 'ns keys are exact int64 values');
  t.deepEqual([...keys], nanos);
});

test('many rows: every row is converted (the loop over a large column)', (t) => {
  const rows = 100_000;
  const values = Array.from({ length: rows }, (_, row) => 1_704_067_200_000_000n + BigInt(row) * 100_000n);
  const out = timestampsOf(int64Column(values), rows);
  t.is(out.length, rows);
  t.is(out[0], 1_704_067_200_000_000);
  t.is(out[rows - 1], 1_704_067_200_000_000 + (rows - 1) * 100_000);
  t.true(out.every((value, row) => value === Number(values[row])));
});
