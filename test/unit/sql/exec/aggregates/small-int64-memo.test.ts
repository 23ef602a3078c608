// The memo of LONG ranges proven to hold only values in [0, 2^32): remembered for column-file mappings only,
// so sums over a mapped file skip the high-word test from the second scan on and still give exact answers
// when the file grows with large, negative or null values; other buffers are checked every time.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetMappings, mapFileRange } from '../../../../../src/storage/mmap.js';
import { knownSmallRange, rememberSmallRange } from '../../../../../src/sql/exec/aggregates/small-int64-memo.js';
import { LongSumAvgKernel } from '../../../../../src/sql/exec/aggregates/long-sum-kernels.js';
import type { Vector } from '../../../../../src/sql/exec/batch.js';

const NULL = -9223372036854775808n;

function withFile(values: readonly bigint[], run: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-memo-test-'));
  const path = join(dir, 'amount.d');
  writeFileSync(path, Buffer.from(BigInt64Array.from(values).buffer));
  try {
    run(path);
  } finally {
    forgetMappings(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

function mappedLongs(path: string, rowCount: number): BigInt64Array {
  const bytes = mapFileRange(path, rowCount * 8);
  return new BigInt64Array(bytes.buffer, bytes.byteOffset, rowCount);
}

function sumOf(exact: BigInt64Array): bigint | undefined {
  const kernel = new LongSumAvgKernel(false);
  const vector: Vector = { type: 'LONG', exact, data: Float64Array.from(exact, (value) => (value === NULL ? NaN : Number(value))) };
  kernel.update(vector, exact.length, undefined, 1);
  return kernel.result(1).exact?.[0];
}

test('a mapped range proven small is remembered; a range with an outsider is remembered as such', (t) => {
  withFile([1n, 2n, 3n, 4294967295n, 7n], (path) => {
    const values = mappedLongs(path, 5);
    t.is(knownSmallRange(values, 5), 'unknown');
    t.is(sumOf(values), 4294967308n);
    t.is(knownSmallRange(values, 5), 'small');
    t.is(knownSmallRange(values, 3), 'small', 'a shorter range from the same start is proven too');
    t.is(sumOf(values), 4294967308n);
  });
  withFile([1n, NULL, 3n], (path) => {
    const values = mappedLongs(path, 3);
    t.is(sumOf(values), 4n);
    t.is(knownSmallRange(values, 3), 'not-small');
    t.is(sumOf(values), 4n);
  });
});

test('rows appended to a mapped file are checked before the fast sum covers them', (t) => {
  withFile([5n, 6n], (path) => {
    t.is(sumOf(mappedLongs(path, 2)), 11n);
    appendFileSync(path, Buffer.from(BigInt64Array.from([-1n, NULL, 1n << 40n]).buffer));
    const grown = mappedLongs(path, 5);
    t.is(sumOf(grown), 11n - 1n + (1n << 40n));
    t.is(sumOf(mappedLongs(path, 2)), 11n);
  });
});

test('memory that is not a column-file mapping is never remembered', (t) => {
  const values = BigInt64Array.from([1n, 2n, 3n]);
  rememberSmallRange(values, 3, true);
  t.is(knownSmallRange(values, 3), 'unknown');
  t.is(sumOf(values), 6n);
  // Reused memory with other values: still checked, so still exact.
  values[1] = -10n;
  t.is(sumOf(values), -6n);
});
