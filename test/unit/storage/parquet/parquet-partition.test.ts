// Parquet partition files: rows in storage form (every column type, with nulls) encoded by the partition encoder
// and decoded by the partition reader come back byte for byte, for every codec and across row-group boundaries;
// row-group statistics narrow timestamp searches and expose numeric bounds; a column the file lacks is absent.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ColumnType } from '../../../../src/types/column-type.js';
import { storageWidthBytes } from '../../../../src/types/column-type.js';
import type { ColumnMeta } from '../../../../src/storage/table-meta.js';
import type { ColumnData, RowChunk } from '../../../../src/storage/row-chunk.js';
import { varColumnFromStrings } from '../../../../src/storage/row-chunk.js';
import { nullValueBytes } from '../../../../src/storage/column-files.js';
import { encodeParquetPartition } from '../../../../src/output/parquet-partition-encoder.js';
import { loadParquetCodecs } from '../../../../src/output/parquet-codecs.js';
import type { ParquetWrittenCodec } from '../../../../src/output/parquet-params.js';
import { ParquetPartitionReader, PARQUET_PARTITION_FILE } from '../../../../src/storage/parquet/parquet-partition-reader.js';
import { seededRandom } from '../../../helpers/seeded-random.js';
import { ParquetReader } from '../../../helpers/duckdb-parquet.js';
import { coalesceRanges } from '../../../../src/storage/cold/coalesce-ranges.js';

const ROWS = 2500;
const FIXED: readonly ColumnType[] = ['BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'SYMBOL', 'UUID', 'IPV4', 'TIMESTAMP'];

function columnMeta(name: string, type: ColumnType): ColumnMeta {
  return { name, type, fileStem: `${name}.stem`, indexed: false } as ColumnMeta;
}

/** Random storage values; every 7th row is the type's null (the designated timestamp ascends and is never null). */
function fixedColumn(type: ColumnType, random: () => number): ColumnData {
  const width = storageWidthBytes(type);
  const bytes = Buffer.alloc(ROWS * width);
  for (let row = 0; row < ROWS; row++) {
    if (type === 'TIMESTAMP') {
      bytes.writeBigInt64LE(1704067200000000n + BigInt(row) * 1000n, row * 8);
      continue;
    }
    if (row % 7 === 3) {
      nullValueBytes(type).copy(bytes, row * width);
      continue;
    }
    if (type === 'BOOLEAN') bytes[row] = random() < 0.5 ? 1 : 0;
    else if (type === 'DOUBLE') bytes.writeDoubleLE(random() * 1000 - 500, row * 8);
    else if (type === 'FLOAT') bytes.writeFloatLE(random() * 10, row * 4);
    else if (type === 'SYMBOL') bytes.writeInt32LE(Math.floor(random() * 5), row * 4);
    else if (type === 'CHAR') bytes.writeUInt16LE(65 + Math.floor(random() * 26), row * 2);
    else for (let b = 0; b < width; b++) bytes[row * width + b] = Math.floor(random() * 256);
    // Random bytes can spell a null by chance only for IPv4 0 / CHAR 0, which read back equal anyway.
  }
  return { kind: 'fixed', width, bytes };
}

function sampleChunk(): { columns: ColumnMeta[]; rows: RowChunk } {
  const random = seededRandom(11);
  const columns = FIXED.map((type) => columnMeta(type.toLowerCase(), type));
  const data = FIXED.map((type) => fixedColumn(type, random));
  const texts = Array.from({ length: ROWS }, (_, row) => (row % 5 === 0 ? null : `v${Math.floor(random() * 300)}-ü`));
  columns.push(columnMeta('vc', 'VARCHAR'), columnMeta('st', 'STRING'));
  data.push(varColumnFromStrings(texts, ROWS), varColumnFromStrings(texts.map((text) => (text === null ? null : text.repeat(2))), ROWS));
  return { columns, rows: { rowCount: ROWS, columns: data } };
}

function writePartition(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-parquet-partition-'));
  writeFileSync(join(dir, PARQUET_PARTITION_FILE), bytes);
  return dir;
}

test.before(async () => {
  await loadParquetCodecs();
});

for (const codec of ['LZ4_RAW', 'ZSTD', 'SNAPPY', 'UNCOMPRESSED', 'GZIP'] as const satisfies readonly ParquetWrittenCodec[]) {
  test(`every column type round-trips through a Parquet partition (${codec})`, (t) => {
    const { columns, rows } = sampleChunk();
    const bytes = encodeParquetPartition(columns, rows, { rowGroupRows: 1000, codec, compressionLevel: codec === 'ZSTD' ? 3 : 6 });
    const dir = writePartition(bytes);
    try {
      const reader = ParquetPartitionReader.local(dir, bytes.length, ROWS);
      t.deepEqual(Array.from(reader.rowGroupStarts), [0, 1000, 2000, 2500]);
      columns.forEach((column, k) => {
        const expected = rows.columns[k] as ColumnData;
        // Read in two pieces across a row-group boundary, then whole.
        const whole = reader.readRows(column.fileStem, column.type, 0, ROWS);
        const part = reader.readRows(column.fileStem, column.type, 900, 2100);
        if (expected.kind === 'fixed') {
          t.deepEqual(whole.kind === 'fixed' ? whole.bytes : undefined, expected.bytes, `${column.type} whole`);
          t.deepEqual(part.kind === 'fixed' ? part.bytes : undefined, expected.bytes.subarray(900 * expected.width, 2100 * expected.width), `${column.type} part`);
        } else {
          t.deepEqual(whole.kind === 'var' ? [whole.bytes, Array.from(whole.offsets)] : undefined, [expected.bytes, Array.from(expected.offsets)], `${column.type} whole`);
        }
      });
      t.is(reader.leafOf('added.later'), -1, 'a column added after the conversion is absent from the file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('row-group statistics narrow timestamp searches and bound numeric columns', (t) => {
  const { columns, rows } = sampleChunk();
  const bytes = encodeParquetPartition(columns, rows, { rowGroupRows: 1000, codec: 'LZ4_RAW', compressionLevel: 0 });
  const dir = writePartition(bytes);
  try {
    const reader = ParquetPartitionReader.local(dir, bytes.length, ROWS);
    const base = 1704067200000000;
    t.deepEqual(reader.timestampCandidateRows('timestamp.stem', base + 1_200_000, base + 1_500_000), { from: 1000, to: 2000 });
    t.deepEqual(reader.timestampCandidateRows('timestamp.stem', base + 500_000, base + 2_100_000), { from: 0, to: 2500 });
    t.deepEqual(reader.timestampCandidateRows('timestamp.stem', base + 9_000_000, base + 9_100_000), { from: 0, to: 0 });
    const statistics = reader.numericStatistics('double.stem', 1);
    t.truthy(statistics);
    t.true((statistics?.min ?? 0) >= -500 && (statistics?.max ?? 0) <= 500 && (statistics?.min ?? 1) < (statistics?.max ?? 0));
    t.is(reader.numericStatistics('vc.stem', 0), undefined, 'text columns give no numeric bounds');
    // The ranges a remote source would fetch: one chunk per column and row group, inside the file, disjoint.
    const ranges = reader.chunkRanges(['double.stem', 'timestamp.stem', 'added.later'], 900, 1100);
    t.is(ranges.length, 4);
    for (let k = 0; k < ranges.length; k++) {
      const range = ranges[k] as { offset: number; length: number };
      t.true(range.offset >= 4 && range.length > 0 && range.offset + range.length <= bytes.length);
      if (k > 0) t.true(range.offset >= (ranges[k - 1]?.offset ?? 0) + (ranges[k - 1]?.length ?? 0));
    }
    t.deepEqual(reader.chunkRanges(['double.stem'], 2100, 2200).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a column of a partition file is one contiguous byte range across its row groups, and DuckDB reads the file', async (t) => {
  const { columns, rows } = sampleChunk();
  const bytes = encodeParquetPartition(columns, rows, { rowGroupRows: 1000, codec: 'LZ4_RAW', compressionLevel: 0 });
  const dir = writePartition(bytes);
  const duck = await ParquetReader.open();
  try {
    const reader = ParquetPartitionReader.local(dir, bytes.length, ROWS);
    // Three row groups; each column's three chunks touch, so a remote read of a column is one request.
    for (const stem of ['double.stem', 'timestamp.stem', 'vc.stem']) {
      const ranges = reader.chunkRanges([stem], 0, ROWS);
      t.is(ranges.length, 3, stem);
      t.is(coalesceRanges(ranges).length, 1, `${stem}: one range`);
    }
    // Two columns that are not neighbours in the schema stay two ranges: nothing between them is fetched.
    t.is(coalesceRanges(reader.chunkRanges(['boolean.stem', 'double.stem'], 0, ROWS)).length, 2);
    // An independent reader finds every chunk through the footer's offsets.
    const path = duck.save('partition.parquet', bytes);
    const summary = await duck.rows(`select count(*)::VARCHAR n, count(double)::VARCHAR doubles, sum(int)::VARCHAR ints, max(timestamp)::VARCHAR ts from read_parquet('${path}')`);
    const expectedInts = Array.from({ length: ROWS }, (_, row) => (rows.columns[columns.findIndex((column) => column.type === 'INT')] as { bytes: Buffer }).bytes.readInt32LE(row * 4))
      .filter((value) => value !== -2147483648).reduce((sum, value) => sum + BigInt(value), 0n);
    t.deepEqual(summary, [{ n: String(ROWS), doubles: String(ROWS - Math.ceil((ROWS - 3) / 7)), ints: String(expectedInts), ts: '2024-01-01 00:00:02.499+00' }]);
  } finally {
    duck.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
