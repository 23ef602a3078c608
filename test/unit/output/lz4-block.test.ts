// The LZ4 block compressor: every input decodes back exactly through an independent decoder that also checks
// the format's end-of-block rules, long repeats are found (and none reaches past the 64 KiB window), and
// DuckDB reads an LZ4_RAW Parquet file of compressible pages back to the same values.
import test from 'ava';
import { compressLz4Block, lz4BlockBoundBytes } from '../../../src/output/lz4-block.js';
import type { ColumnBatch } from '../../../src/sql/exec/batch.js';
import type { ExportColumn } from '../../../src/output/parquet-params.js';
import { decodeLz4Block } from '../../helpers/lz4-block-decoder.js';
import { ParquetReader, writeParquet } from '../../helpers/duckdb-parquet.js';
import { seededRandom } from '../../helpers/seeded-random.js';

function randomBytes(size: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: size }, () => Math.floor(random() * 256));
}

/** Text that repeats with variations, as CSV-like pages do. */
function repetitiveText(size: number): Uint8Array {
  const lines: string[] = [];
  for (let k = 0; lines.join('').length < size; k++) lines.push(`2024-01-01T00:00:${String(k % 60).padStart(2, '0')}Z,S${k % 17},${(k * 7) % 1000}.25\n`);
  return new TextEncoder().encode(lines.join('')).subarray(0, size);
}

/** Random stretches mixed with copies of earlier bytes at random distances and lengths (seeded). */
function mixedBytes(size: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const bytes = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const run = Math.min(size - at, 1 + Math.floor(random() * 300));
    const copy = at > 8 && random() < 0.6;
    const distance = 1 + Math.floor(random() * Math.min(at, 80_000));
    for (let k = 0; k < run; k++, at++) bytes[at] = copy ? bytes[at - distance] : Math.floor(random() * 256);
  }
  return bytes;
}

/** Byte equality without a structural diff (ava's deepEqual walks a 1 MB array element by element). */
function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return Buffer.from(actual.buffer, actual.byteOffset, actual.length).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.length));
}

function roundTrip(input: Uint8Array): Uint8Array {
  const block = compressLz4Block(input);
  if (block.length > lz4BlockBoundBytes(input.length)) throw new Error(`block of ${block.length} bytes exceeds the bound`);
  return decodeLz4Block(block, input.length);
}

test('short inputs and literal-length boundaries decode back (literal-only blocks included)', (t) => {
  for (const size of [0, 1, 4, 12, 13, 14, 15, 16, 17, 19, 20, 31, 269, 270, 271, 525, 5000]) {
    t.true(sameBytes(roundTrip(randomBytes(size, size)), randomBytes(size, size)), `random ${size}`);
    const repeated = new Uint8Array(size).fill(7);
    t.true(sameBytes(roundTrip(repeated), repeated), `repeated ${size}`);
  }
  t.deepEqual(Array.from(compressLz4Block(new Uint8Array(0))), [0], 'the empty block is one zero token');
});

test('repeats compress: overlapping runs, long matches and text', (t) => {
  const zeros = new Uint8Array(1_000_000);
  const zerosBlock = compressLz4Block(zeros);
  t.true(zerosBlock.length < 5000, `1 MB of zeros became ${zerosBlock.length} bytes`);
  t.true(sameBytes(decodeLz4Block(zerosBlock, zeros.length), zeros));
  const text = repetitiveText(200_000);
  const textBlock = compressLz4Block(text);
  t.true(textBlock.length < text.length / 2, `text ${text.length} -> ${textBlock.length}`);
  t.true(sameBytes(decodeLz4Block(textBlock, text.length), text));
  // Match lengths around the 15 + 255k extension boundaries.
  for (const run of [18, 19, 20, 273, 274, 275, 529]) {
    const input = new Uint8Array(run + 40);
    input.set(randomBytes(20, run));
    input.set(input.subarray(0, 20), 20);
    t.true(sameBytes(roundTrip(input), input), `run ${run}`);
  }
});

test('a repeat farther back than 64 KiB is not referenced, one within it is', (t) => {
  const unit = randomBytes(70_000, 1);
  const far = new Uint8Array(140_000);
  far.set(unit);
  far.set(unit, 70_000);
  const farBlock = compressLz4Block(far);
  t.true(farBlock.length > 139_000, 'a copy 70,000 bytes back is out of reach');
  t.true(sameBytes(decodeLz4Block(farBlock, far.length), far));
  const near = new Uint8Array(120_000);
  near.set(unit.subarray(0, 60_000));
  near.set(unit.subarray(0, 60_000), 60_000);
  t.true(compressLz4Block(near).length < 61_000, 'a copy 60,000 bytes back is used');
});

test('seeded mixes of literals and copies decode back (200 inputs)', (t) => {
  for (let seed = 1; seed <= 200; seed++) {
    const input = mixedBytes(1 + ((seed * 7919) % 150_000), seed);
    t.true(sameBytes(roundTrip(input), input), `seed ${seed}`);
  }
});

test('DuckDB reads an LZ4_RAW Parquet export of compressible pages back', async (t) => {
  const rowCount = 200_000;
  const columns: ExportColumn[] = [{ name: 'id', type: 'LONG' }, { name: 'sym', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }, { name: 's', type: 'STRING' }];
  const batch: ColumnBatch = {
    rowCount,
    vectors: [
      { type: 'LONG', data: Float64Array.from({ length: rowCount }, (_, k) => k) },
      { type: 'SYMBOL', data: Int32Array.from({ length: rowCount }, (_, k) => k % 3), symbols: ['a', 'b', 'c'] },
      { type: 'DOUBLE', data: Float64Array.from({ length: rowCount }, (_, k) => (k % 100) / 4) },
      { type: 'STRING', data: Array.from({ length: rowCount }, (_, k) => `row-${k % 1000}-text`) },
    ],
  };
  const reader = await ParquetReader.open();
  try {
    for (const version of [1, 2] as const) {
      const path = reader.save(`lz4-${version}.parquet`, writeParquet(columns, [batch], { codec: 'LZ4_RAW', parquetVersion: version }));
      t.deepEqual(await reader.rows(`select distinct compression from parquet_metadata('${path}')`), [{ compression: 'LZ4_RAW' }]);
      const rows = await reader.rows(`select count(*)::INT n, sum(id)::BIGINT::VARCHAR ids, count(distinct sym)::INT syms, sum(price)::DOUBLE prices, count(distinct s)::INT strings, max(s) top from read_parquet('${path}')`);
      t.deepEqual(rows, [{ n: rowCount, ids: String((rowCount * (rowCount - 1)) / 2), syms: 3, prices: 2000 * 1237.5, strings: 1000, top: 'row-999-text' }], `format v${version}`);
    }
  } finally {
    reader.close();
  }
});

test('the test decoder refuses a block that breaks the end rules, so its passes above mean something', (t) => {
  // "abcd" then an 8-byte match at offset 4 ending the block: valid LZ4 data, but the match starts 8 bytes before
  // the end and no literals close the block.
  const block = Uint8Array.of(0x44, 0x61, 0x62, 0x63, 0x64, 4, 0, 0x00);
  t.throws(() => decodeLz4Block(block, 12), { message: /last match starts 8 bytes before the end/ });
});
