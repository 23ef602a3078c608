// The Parquet writer against DuckDB as the reader: values of every column type with nulls, in both format
// versions and with every codec; schema and logical types; row groups; statistics on and off; encodings.
import test from 'ava';
import type { ColumnBatch, Vector } from '../../../src/sql/exec/batch.js';
import type { ExportColumn, ParquetWrittenCodec } from '../../../src/output/parquet-params.js';
import { ParquetFileWriter } from '../../../src/output/parquet-writer.js';
import { PARQUET_EXPORT_DEFAULTS } from '../../../src/output/parquet-params.js';
import { loadParquetCodecs } from '../../../src/output/parquet-codecs.js';
import { ParquetReader, writeParquet } from '../../helpers/duckdb-parquet.js';

let reader: ParquetReader;
test.before(async () => {
  await loadParquetCodecs();
  reader = await ParquetReader.open();
});
test.after.always(() => reader.close());

const LONG_MIN = -9223372036854775808n;
const ALL_TYPES: readonly ExportColumn[] = [
  { name: 'b', type: 'BOOLEAN' }, { name: 'by', type: 'BYTE' }, { name: 'sh', type: 'SHORT' }, { name: 'ch', type: 'CHAR' },
  { name: 'i', type: 'INT' }, { name: 'l', type: 'LONG' }, { name: 'f', type: 'FLOAT' }, { name: 'd', type: 'DOUBLE' },
  { name: 'dt', type: 'DATE' }, { name: 'ts', type: 'TIMESTAMP' }, { name: 'sym', type: 'SYMBOL' }, { name: 's', type: 'STRING' },
  { name: 'v', type: 'VARCHAR' }, { name: 'u', type: 'UUID' }, { name: 'ip', type: 'IPV4' }, { name: 'bin', type: 'BINARY' },
];

/** 64-bit vector as storage hands it out: numbers (NaN = null) plus the exact values (Long.MIN_VALUE = null). */
function int64Vector(type: 'LONG' | 'DATE' | 'TIMESTAMP', values: readonly (bigint | null)[]): Vector {
  const exact = BigInt64Array.from(values, (v) => v ?? LONG_MIN);
  return { type, data: Float64Array.from(values, (v) => (v === null ? Number.NaN : Number(v))), exact };
}

/** Four rows: extremes, ordinary values, and (where the type has one) the null of every column. */
function allTypesBatch(): ColumnBatch {
  const vectors: Vector[] = [
    { type: 'BOOLEAN', data: Int8Array.of(1, 0, 1, 0) },
    { type: 'BYTE', data: Int8Array.of(-128, 0, 127, 5) },
    { type: 'SHORT', data: Int16Array.of(-32768, 0, 32767, 7) },
    { type: 'CHAR', data: Uint16Array.of(65, 0, 0xe9, 0x4e2d) },
    { type: 'INT', data: Int32Array.of(-2147483647, -2147483648, 2147483647, 0) },
    int64Vector('LONG', [-9223372036854775807n, null, 9223372036854775807n, 9007199254740993n]),
    { type: 'FLOAT', data: Float32Array.of(1.5, Number.NaN, -0.25, 3.4028234663852886e38) },
    { type: 'DOUBLE', data: Float64Array.of(-1e300, Number.NaN, 0.1, Infinity) },
    int64Vector('DATE', [-86400000n, null, 1104796800000n, 0n]),
    int64Vector('TIMESTAMP', [1704067200000000n, 1704067200123456n, null, -1n]),
    { type: 'SYMBOL', data: Int32Array.of(0, -1, 1, 0), symbols: ['alpha', 'beta "quoted"'] },
    { type: 'STRING', data: ['héllo', null, '', 'line\nbreak'] },
    { type: 'VARCHAR', data: [null, 'v1', '中文', 'x'.repeat(40)] },
    { type: 'UUID', data: ['11111111-2222-3333-4444-555555555555', null, '00000000-0000-0000-0000-000000000001', 'ffffffff-ffff-ffff-ffff-fffffffffffe'] },
    { type: 'IPV4', data: Int32Array.of(0x01020304, 0, -1062731775, -1) },
    { type: 'BINARY', data: [Uint8Array.of(0xab, 0x00), null, new Uint8Array(0), Uint8Array.of(1, 2, 3)] },
  ];
  return { rowCount: 4, vectors };
}

/** Every column as text DuckDB derives from the file, so expectations are exact. */
const CANONICAL_SELECT = `select b::VARCHAR b, "by"::VARCHAR "by", sh::VARCHAR sh, ch, i::VARCHAR i, l::VARCHAR l,
  f::VARCHAR f, d::VARCHAR d, epoch_ms(dt)::VARCHAR dt, epoch_us(ts)::VARCHAR ts, sym, s, v, u::VARCHAR u,
  ip::VARCHAR ip, hex(bin) bin`;

const EXPECTED_ROWS = [
  { b: 'true', by: '-128', sh: '-32768', ch: 'A', i: '-2147483647', l: '-9223372036854775807', f: '1.5', d: '-1e+300', dt: '-86400000', ts: '1704067200000000', sym: 'alpha', s: 'héllo', v: null, u: '11111111-2222-3333-4444-555555555555', ip: '16909060', bin: 'AB00' },
  { b: 'false', by: '0', sh: '0', ch: null, i: null, l: null, f: null, d: null, dt: null, ts: '1704067200123456', sym: null, s: null, v: 'v1', u: null, ip: null, bin: null },
  { b: 'true', by: '127', sh: '32767', ch: 'é', i: '2147483647', l: '9223372036854775807', f: '-0.25', d: '0.1', dt: '1104796800000', ts: null, sym: 'beta "quoted"', s: '', v: '中文', u: '00000000-0000-0000-0000-000000000001', ip: '3232235521', bin: '' },
  { b: 'false', by: '5', sh: '7', ch: '中', i: '0', l: '9007199254740993', f: '3.4028235e+38', d: 'inf', dt: '0', ts: '-1', sym: 'alpha', s: 'line\nbreak', v: 'x'.repeat(40), u: 'ffffffff-ffff-ffff-ffff-fffffffffffe', ip: '4294967295', bin: '010203' },
];

for (const version of [1, 2] as const) {
  test(`every column type round-trips with its nulls, format version ${version}`, async (t) => {
    const path = reader.save(`all-v${version}.parquet`, writeParquet(ALL_TYPES, [allTypesBatch()], { parquetVersion: version }));
    t.deepEqual(await reader.rows(`${CANONICAL_SELECT} from read_parquet('${path}')`), EXPECTED_ROWS);
    const [file] = await reader.rows(`select format_version, num_rows::VARCHAR num_rows from parquet_file_metadata('${path}')`);
    t.deepEqual(file, { format_version: String(version), num_rows: '4' });
  });
}

test('schema: every column OPTIONAL with the physical and logical types of parquet.md', async (t) => {
  const path = reader.save('schema.parquet', writeParquet(ALL_TYPES, [allTypesBatch()]));
  const rows = await reader.rows(`select name, type, type_length, repetition_type, converted_type, logical_type from parquet_schema('${path}') where name <> 'schema'`);
  const byName = new Map(rows.map((row) => [row['name'], row]));
  const expect = (name: string, type: string, converted: string | null, logical: RegExp | null): void => {
    const row = byName.get(name);
    t.is(row?.['type'], type, name);
    t.is(row?.['repetition_type'], 'OPTIONAL', name);
    t.is(row?.['converted_type'], converted, name);
    if (logical === null) t.is(row?.['logical_type'], null, name);
    else t.regex(String(row?.['logical_type']), logical, name);
  };
  expect('b', 'BOOLEAN', null, null);
  // Integer widths carry only their converted type (see parquetSchemaElement for why).
  expect('by', 'INT32', 'INT_8', null);
  expect('sh', 'INT32', 'INT_16', null);
  expect('i', 'INT32', null, null);
  expect('l', 'INT64', null, null);
  expect('f', 'FLOAT', null, null);
  expect('d', 'DOUBLE', null, null);
  expect('dt', 'INT64', 'TIMESTAMP_MILLIS', /isAdjustedToUTC=1.*MILLIS=MilliSeconds\(\)/);
  expect('ts', 'INT64', 'TIMESTAMP_MICROS', /isAdjustedToUTC=1.*MICROS=MicroSeconds\(\)/);
  for (const name of ['ch', 'sym', 's', 'v']) expect(name, 'BYTE_ARRAY', 'UTF8', /StringType/);
  expect('u', 'FIXED_LEN_BYTE_ARRAY', null, /UUIDType/);
  t.is(byName.get('u')?.['type_length'], '16');
  expect('ip', 'INT32', 'UINT_32', null);
  expect('bin', 'BYTE_ARRAY', null, null);
});

for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'] as const satisfies readonly ParquetWrittenCodec[]) {
  test(`codec ${codec}: every column chunk says so and the values read back`, async (t) => {
    const batch = allTypesBatch();
    const path = reader.save(`codec-${codec}.parquet`, writeParquet(ALL_TYPES, [batch, batch, batch], { codec, compressionLevel: codec === 'ZSTD' ? 3 : 6 }));
    const codecs = await reader.rows(`select distinct compression from parquet_metadata('${path}')`);
    t.deepEqual(codecs, [{ compression: codec }]);
    const rows = await reader.rows(`${CANONICAL_SELECT} from read_parquet('${path}')`);
    t.deepEqual(rows, [...EXPECTED_ROWS, ...EXPECTED_ROWS, ...EXPECTED_ROWS]);
  });
}

/** `rows` rows of (id LONG, name SYMBOL, price DOUBLE) in batches of `batchRows`. */
function sequenceBatches(rows: number, batchRows: number, firstId = 0): ColumnBatch[] {
  const batches: ColumnBatch[] = [];
  const symbols = ['a', 'b', 'c'];
  for (let start = 0; start < rows; start += batchRows) {
    const count = Math.min(batchRows, rows - start);
    const ids = Float64Array.from({ length: count }, (_, k) => firstId + start + k);
    batches.push({
      rowCount: count,
      vectors: [
        { type: 'LONG', data: ids },
        { type: 'SYMBOL', data: Int32Array.from({ length: count }, (_, k) => (start + k) % 3), symbols },
        { type: 'DOUBLE', data: Float64Array.from(ids, (id) => (id % 7 === 0 ? Number.NaN : id / 4)) },
      ],
    });
  }
  return batches;
}
const SEQUENCE_COLUMNS: readonly ExportColumn[] = [{ name: 'id', type: 'LONG' }, { name: 'name', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }];

test('row groups hold row_group_size rows, across batch boundaries, and leave as soon as they fill', async (t) => {
  const emitted: number[] = [];
  const parts: Uint8Array[] = [];
  const writer = new ParquetFileWriter(SEQUENCE_COLUMNS, { ...PARQUET_EXPORT_DEFAULTS, rowGroupRows: 700 }, (bytes) => {
    parts.push(bytes);
    emitted.push(writer.rowCount);
  });
  for (const batch of sequenceBatches(2500, 1000)) writer.writeBatch(batch);
  // Each group left the writer the moment it filled, inside the batch that filled it (rows 700, 1400, 2100).
  t.deepEqual(emitted, [700, 1400, 2100]);
  writer.finish();
  const path = reader.save('groups.parquet', Buffer.concat(parts));
  const groups = await reader.rows(`select distinct row_group_id::INT id, row_group_num_rows::INT group_rows from parquet_metadata('${path}') order by id`);
  t.deepEqual(groups, [{ id: 0, group_rows: 700 }, { id: 1, group_rows: 700 }, { id: 2, group_rows: 700 }, { id: 3, group_rows: 400 }]);
  const [sums] = await reader.rows(`select count(*)::INT n, sum(id)::VARCHAR ids, count(price)::INT prices from read_parquet('${path}')`);
  t.deepEqual(sums, { n: 2500, ids: String((2499 * 2500) / 2), prices: 2500 - Math.ceil(2500 / 7) });
});

test('statistics: min, max and null count when enabled, nothing when disabled', async (t) => {
  const on = reader.save('stats-on.parquet', writeParquet(ALL_TYPES, [allTypesBatch()]));
  const stats = await reader.rows(`select path_in_schema p, stats_min_value mn, stats_max_value mx, stats_null_count::INT null_count from parquet_metadata('${on}') where path_in_schema in ('l', 'ts', 'sym', 'ip', 'f', 'u')`);
  const byColumn = Object.fromEntries(stats.map((row) => [row['p'], [row['mn'], row['mx'], row['null_count']]]));
  t.deepEqual(byColumn['l'], ['-9223372036854775807', '9223372036854775807', 1]);
  t.deepEqual(byColumn['ts'], ['1969-12-31 23:59:59.999999+00', '2024-01-01 00:00:00.123456+00', 1]);
  t.deepEqual(byColumn['sym'], ['alpha', 'beta "quoted"', 1]);
  // IPv4 is unsigned: 255.255.255.255 is the largest address, not -1.
  t.deepEqual(byColumn['ip'], ['16909060', '4294967295', 1]);
  t.deepEqual(byColumn['f'], ['-0.25', '3.4028235e+38', 1]);
  t.deepEqual(byColumn['u'], ['00000000-0000-0000-0000-000000000001', 'ffffffff-ffff-ffff-ffff-fffffffffffe', 1]);
  const off = reader.save('stats-off.parquet', writeParquet(ALL_TYPES, [allTypesBatch()], { statisticsEnabled: false }));
  const none = await reader.rows(`select count(*)::INT n from parquet_metadata('${off}') where stats_min_value is not null or stats_max_value is not null or stats_null_count is not null`);
  t.deepEqual(none, [{ n: 0 }]);
});

test('format version 2 picks delta, byte-split and dictionary encodings; version 1 keeps to PLAIN and dictionaries', async (t) => {
  const encodingsOf = async (version: 1 | 2): Promise<Record<string, unknown>> => {
    const path = reader.save(`enc-v${version}.parquet`, writeParquet(SEQUENCE_COLUMNS, sequenceBatches(1000, 1000), { parquetVersion: version }));
    const rows = await reader.rows(`select path_in_schema p, encodings e from parquet_metadata('${path}')`);
    return Object.fromEntries(rows.map((row) => [row['p'], row['e']]));
  };
  t.deepEqual(await encodingsOf(2), { id: 'RLE, DELTA_BINARY_PACKED', name: 'PLAIN, RLE, RLE_DICTIONARY', price: 'RLE, BYTE_STREAM_SPLIT' });
  t.deepEqual(await encodingsOf(1), { id: 'RLE, PLAIN', name: 'RLE, PLAIN_DICTIONARY', price: 'RLE, PLAIN' });
});

test('DELTA_BINARY_PACKED: wide deltas fall back to PLAIN pages, every value stays exact', async (t) => {
  const values = [0n, 9223372036854775807n, -9223372036854775807n, 1n, -(2n ** 52n), 2n ** 52n, 123456789012345678n];
  const wide: ColumnBatch = { rowCount: values.length, vectors: [int64Vector('LONG', values)] };
  // Narrow deltas but 10,000 values: many blocks, miniblock widths from 0 to 40 bits.
  const narrowValues = Array.from({ length: 10_000 }, (_, k) => BigInt(k % 13 === 0 ? -(k ** 3) : k * 1_000_003) * 1000n);
  const narrow: ColumnBatch = { rowCount: narrowValues.length, vectors: [int64Vector('LONG', narrowValues)] };
  const path = reader.save('dbp.parquet', writeParquet([{ name: 'l', type: 'LONG' }], [wide, narrow], { dataPageBytes: 4096 }));
  const rows = await reader.rows(`select l::VARCHAR l from read_parquet('${path}')`);
  t.deepEqual(rows.map((row) => row['l']), [...values, ...narrowValues].map(String));
  const [encodings] = await reader.rows(`select encodings from parquet_metadata('${path}')`);
  t.is(encodings?.['encodings'], 'RLE, PLAIN, DELTA_BINARY_PACKED');
});

test('data_page_size cuts column chunks into several pages of every layout', async (t) => {
  const strings = Array.from({ length: 3000 }, (_, k) => (k % 5 === 0 ? null : `value-${k}-${'x'.repeat(k % 17)}`));
  const batch: ColumnBatch = {
    rowCount: 3000,
    vectors: [
      { type: 'STRING', data: strings },
      { type: 'INT', data: Int32Array.from({ length: 3000 }, (_, k) => (k % 9 === 0 ? -2147483648 : k - 1500)) },
      { type: 'BOOLEAN', data: Int8Array.from({ length: 3000 }, (_, k) => (k % 3 === 0 ? 1 : 0)) },
      { type: 'SYMBOL', data: Int32Array.from({ length: 3000 }, (_, k) => k % 50), symbols: Array.from({ length: 50 }, (_, k) => `s${k}`) },
    ],
  };
  const columns: ExportColumn[] = [{ name: 's', type: 'STRING' }, { name: 'i', type: 'INT' }, { name: 'b', type: 'BOOLEAN' }, { name: 'sym', type: 'SYMBOL' }];
  for (const version of [1, 2] as const) {
    const bytes = writeParquet(columns, [batch], { dataPageBytes: 256, parquetVersion: version, codec: 'SNAPPY' });
    const path = reader.save(`pages-v${version}.parquet`, bytes);
    const pages = await dataPageTypes(path, bytes);
    for (const [column, types] of Object.entries(pages)) {
      t.true(types.filter((type) => type !== 2).length > 1, `${column} is cut into several pages`);
      t.true(types.every((type) => type === (version === 1 ? 0 : 3) || type === 2), `${column} has ${version === 1 ? 'DATA_PAGE' : 'DATA_PAGE_V2'} pages`);
    }
    const rows = await reader.rows(`select s, i, b::INT b, sym from read_parquet('${path}')`);
    t.deepEqual(rows.map((row) => row['s']), strings);
    t.deepEqual(rows.map((row) => row['i']), Array.from({ length: 3000 }, (_, k) => (k % 9 === 0 ? null : k - 1500)));
    t.deepEqual(rows.map((row) => row['b']), Array.from({ length: 3000 }, (_, k) => (k % 3 === 0 ? 1 : 0)));
    t.deepEqual(rows.map((row) => row['sym']), Array.from({ length: 3000 }, (_, k) => `s${k % 50}`));
  }
});

/** Walks the page headers of every column chunk: page type numbers (0 DATA_PAGE, 2 DICTIONARY_PAGE, 3 DATA_PAGE_V2). */
async function dataPageTypes(path: string, bytes: Uint8Array): Promise<Record<string, number[]>> {
  const { deserializeTCompactProtocol } = await import('hyparquet/src/thrift.js');
  const chunks = await reader.rows(`select path_in_schema p, coalesce(dictionary_page_offset, data_page_offset)::BIGINT first_page, total_compressed_size::BIGINT chunk_size from parquet_metadata('${path}')`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const result: Record<string, number[]> = {};
  for (const chunk of chunks) {
    const types: number[] = [];
    const end = Number(chunk['first_page']) + Number(chunk['chunk_size']);
    const position = { view, offset: Number(chunk['first_page']) };
    while (position.offset < end) {
      const header: Record<string, unknown> = deserializeTCompactProtocol(position);
      types.push(Number(header['field_1']));
      position.offset += Number(header['field_3']);
    }
    result[String(chunk['p'])] = types;
  }
  return result;
}

test('SYMBOL: a row group mixing batches of different symbol tables keeps every text', async (t) => {
  const first: ColumnBatch = { rowCount: 3, vectors: [{ type: 'SYMBOL', data: Int32Array.of(0, 1, -1), symbols: ['x', 'y'] }] };
  const grown = ['x', 'y'];
  const second: ColumnBatch = { rowCount: 2, vectors: [{ type: 'SYMBOL', data: Int32Array.of(1, 0), symbols: ['y', 'z'] }] };
  const third: ColumnBatch = { rowCount: 2, vectors: [{ type: 'SYMBOL', data: Int32Array.of(2, 0), symbols: [...grown, 'w'] }] };
  const path = reader.save('symbols.parquet', writeParquet([{ name: 'sym', type: 'SYMBOL' }], [first, second, third]));
  const rows = await reader.rows(`select sym from read_parquet('${path}')`);
  t.deepEqual(rows.map((row) => row['sym']), ['x', 'y', null, 'z', 'y', 'w', 'x']);
});

test('SYMBOL: a table far larger than the row group keeps only the used symbols in the chunk dictionary', async (t) => {
  const symbols = Array.from({ length: 100_000 }, (_, k) => `s${k}`);
  const batch: ColumnBatch = { rowCount: 4, vectors: [{ type: 'SYMBOL', data: Int32Array.of(99_999, 5, -1, 99_999), symbols }] };
  const path = reader.save('sparse-symbols.parquet', writeParquet([{ name: 'sym', type: 'SYMBOL' }], [batch]));
  t.deepEqual((await reader.rows(`select sym from read_parquet('${path}')`)).map((row) => row['sym']), ['s99999', 's5', null, 's99999']);
  const [chunk] = await reader.rows(`select total_uncompressed_size::INT size from parquet_metadata('${path}')`);
  t.true(Number(chunk?.['size']) < 200, 'the dictionary page holds two symbols, not the whole table');
});

test('LONG, DATE and TIMESTAMP without exact values are written from their numbers, negatives included', async (t) => {
  const numbers: ColumnBatch = {
    rowCount: 3,
    vectors: [
      { type: 'LONG', data: Float64Array.of(-1, Number.NaN, -(2 ** 53) + 1) },
      { type: 'TIMESTAMP', data: Float64Array.of(-1_000_001, 0, 4102444799999999) },
    ],
  };
  const path = reader.save('numbers.parquet', writeParquet([{ name: 'l', type: 'LONG' }, { name: 'ts', type: 'TIMESTAMP' }], [numbers]));
  const rows = await reader.rows(`select l::VARCHAR l, epoch_us(ts)::VARCHAR ts from read_parquet('${path}')`);
  t.deepEqual(rows, [{ l: '-1', ts: '-1000001' }, { l: null, ts: '0' }, { l: '-9007199254740991', ts: '4102444799999999' }]);
});

test('a bare NULL column (`select null`) is an all-null string column', async (t) => {
  const batch: ColumnBatch = { rowCount: 2, vectors: [{ type: 'NULL', data: [null, null] }, { type: 'INT', data: Int32Array.of(1, 2) }] };
  const path = reader.save('null-column.parquet', writeParquet([{ name: 'n', type: 'NULL' }, { name: 'i', type: 'INT' }], [batch]));
  t.deepEqual(await reader.rows(`select n, i from read_parquet('${path}')`), [{ n: null, i: 1 }, { n: null, i: 2 }]);
});

test('column chunks of nulls only (empty dictionary, empty pages) read back in every codec and version', async (t) => {
  const columns: ExportColumn[] = [{ name: 'sym', type: 'SYMBOL' }, { name: 'd', type: 'DOUBLE' }, { name: 's', type: 'STRING' }, { name: 'u', type: 'UUID' }];
  const batch: ColumnBatch = {
    rowCount: 3,
    vectors: [{ type: 'SYMBOL', data: Int32Array.of(-1, -1, -1), symbols: ['a'] }, { type: 'DOUBLE', data: Float64Array.of(Number.NaN, Number.NaN, Number.NaN) }, { type: 'STRING', data: [null, null, null] }, { type: 'UUID', data: [null, null, null] }],
  };
  for (const version of [1, 2] as const) {
    for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'] as const) {
      const path = reader.save(`nulls-${version}-${codec}.parquet`, writeParquet(columns, [batch], { codec, parquetVersion: version, bloomFilterColumns: ['sym', 'd'] }));
      const rows = await reader.rows(`select count(*)::INT n, count(sym)::INT a, count(d)::INT b, count(s)::INT c, count(u)::INT e from read_parquet('${path}')`);
      t.deepEqual(rows, [{ n: 3, a: 0, b: 0, c: 0, e: 0 }], `v${version} ${codec}`);
    }
  }
});
