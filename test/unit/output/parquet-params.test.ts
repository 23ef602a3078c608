// Parsing of the /exp Parquet parameters: defaults, every accepted form, and QuestDB's error texts, each a
// SvcError SVC_EXPORT_BAD_PARAMETER with HTTP status 400.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { SvcError } from '../../../src/core/errors.js';
import { checkParquetColumns, parquetRowGroupRowsMax, parseParquetParams, PARQUET_EXPORT_DEFAULTS } from '../../../src/output/parquet-params.js';
import type { ExportColumn } from '../../../src/output/parquet-params.js';

function rejects(t: ExecutionContext, query: Record<string, string>, message: string): void {
  const error = t.throws(() => parseParquetParams(query), { instanceOf: SvcError }, JSON.stringify(query));
  t.is(error?.message, message);
  t.is(error?.code, 'SVC_EXPORT_BAD_PARAMETER');
  t.is(error?.httpStatus, 400);
}

test('no parameters: the documented defaults (ZSTD 9, 100,000-row groups, 1 MiB pages, stats on, v2)', (t) => {
  t.deepEqual(parseParquetParams({}), PARQUET_EXPORT_DEFAULTS);
  t.deepEqual(PARQUET_EXPORT_DEFAULTS, {
    partitionBy: 'NONE', codec: 'ZSTD', compressionLevel: 9, rowGroupRows: 100_000, dataPageBytes: 1_048_576,
    statisticsEnabled: true, parquetVersion: 2, rawArrayEncoding: false, bloomFilterColumns: [], bloomFilterFpp: 0.01,
  });
  // QuestDB treats an empty value as an absent one.
  t.deepEqual(parseParquetParams({ compression_codec: '', row_group_size: '', parquet_version: '' }), PARQUET_EXPORT_DEFAULTS);
});

test('compression_codec: all eight names in any case; LZ4 and default are written as LZ4_RAW', (t) => {
  const codecOf = (name: string): string => parseParquetParams({ compression_codec: name }).codec;
  t.is(codecOf('uncompressed'), 'UNCOMPRESSED');
  t.is(codecOf('Snappy'), 'SNAPPY');
  t.is(codecOf('GZIP'), 'GZIP');
  t.is(codecOf('brotli'), 'BROTLI');
  t.is(codecOf('zstd'), 'ZSTD');
  t.is(codecOf('LZ4_RAW'), 'LZ4_RAW');
  t.is(codecOf('lz4'), 'LZ4_RAW');
  t.is(codecOf('default'), 'LZ4_RAW');
  rejects(t, { compression_codec: 'LZO' }, 'compression codec lzo is not supported: no Parquet writer or common reader implements it; use one of: uncompressed, snappy, gzip, brotli, lz4, zstd, lz4_raw');
  rejects(t, { compression_codec: 'zip' }, 'invalid compression codec[zip], expected one of: uncompressed, snappy, gzip, lzo, brotli, lz4, zstd, lz4_raw');
});

test('compression_level: checked against the codec range; the default is clamped into it', (t) => {
  t.is(parseParquetParams({ compression_codec: 'zstd', compression_level: '22' }).compressionLevel, 22);
  t.is(parseParquetParams({ compression_codec: 'gzip', compression_level: '0' }).compressionLevel, 0);
  t.is(parseParquetParams({ compression_codec: 'brotli', compression_level: '11' }).compressionLevel, 11);
  // Codecs without levels take any number.
  t.is(parseParquetParams({ compression_codec: 'snappy', compression_level: '-5' }).compressionLevel, -5);
  t.is(parseParquetParams({ compression_codec: 'gzip' }).compressionLevel, 9);
  rejects(t, { compression_codec: 'zstd', compression_level: '0' }, 'ZSTD compression level must be between 1 and 22');
  rejects(t, { compression_codec: 'zstd', compression_level: '23' }, 'ZSTD compression level must be between 1 and 22');
  rejects(t, { compression_codec: 'gzip', compression_level: '10' }, 'GZIP compression level must be between 0 and 9');
  rejects(t, { compression_codec: 'brotli', compression_level: '12' }, 'Brotli compression level must be between 0 and 11');
  rejects(t, { compression_level: 'high' }, 'invalid compression level:high');
  rejects(t, { compression_level: '99999999999' }, 'invalid compression level:99999999999');
});

test('row_group_size and data_page_size: positive 32-bit integers, row groups up to the memory bound', (t) => {
  const options = parseParquetParams({ row_group_size: '5000', data_page_size: '1024' });
  t.is(options.rowGroupRows, 5000);
  t.is(options.dataPageBytes, 1024);
  t.is(parseParquetParams({ row_group_size: String(parquetRowGroupRowsMax) }).rowGroupRows, parquetRowGroupRowsMax);
  rejects(t, { row_group_size: 'many' }, 'invalid row group size:many');
  rejects(t, { row_group_size: '0' }, 'invalid row group size:0');
  rejects(t, { row_group_size: String(parquetRowGroupRowsMax + 1) }, `invalid row group size:${parquetRowGroupRowsMax + 1}`);
  rejects(t, { data_page_size: 'not_a_number' }, 'invalid data page size:not_a_number');
  rejects(t, { data_page_size: '-1' }, 'invalid data page size:-1');
});

test('statistics_enabled and raw_array_encoding: true only for the literal true, any case', (t) => {
  t.false(parseParquetParams({ statistics_enabled: 'false' }).statisticsEnabled);
  t.false(parseParquetParams({ statistics_enabled: 'no' }).statisticsEnabled);
  t.true(parseParquetParams({ statistics_enabled: 'TRUE' }).statisticsEnabled);
  t.true(parseParquetParams({ raw_array_encoding: 'True' }).rawArrayEncoding);
  t.false(parseParquetParams({ raw_array_encoding: '1' }).rawArrayEncoding);
});

test('parquet_version: 1 or 2, with QuestDB’s two messages', (t) => {
  t.is(parseParquetParams({ parquet_version: '1' }).parquetVersion, 1);
  t.is(parseParquetParams({ parquet_version: '2' }).parquetVersion, 2);
  rejects(t, { parquet_version: '3' }, 'invalid parquet version: 3, supported versions: 1, 2');
  rejects(t, { parquet_version: 'v2' }, 'invalid parquet version:v2');
});

test('partition_by: the five units and NONE, any case', (t) => {
  for (const unit of ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const) {
    t.is(parseParquetParams({ partition_by: unit.toLowerCase() }).partitionBy, unit);
  }
  rejects(t, { partition_by: 'decade' }, 'invalid partition by option: decade');
});

test('bloom_filter_fpp: strictly between 0 and 1', (t) => {
  t.is(parseParquetParams({ bloom_filter_fpp: '0.05' }).bloomFilterFpp, 0.05);
  t.is(parseParquetParams({ bloom_filter_fpp: '1e-3' }).bloomFilterFpp, 0.001);
  for (const text of ['0', '1', '1.5', '-0.1', 'abc', 'NaN', '0x1']) {
    rejects(t, { bloom_filter_fpp: text }, `invalid bloom filter fpp:${text}, expected a value between 0 and 1 (exclusive)`);
  }
});

const COLUMNS: readonly ExportColumn[] = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'Sym', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }];

test('bloom_filter_columns: names resolve case-insensitively to the result’s spelling; unknown names are refused', (t) => {
  const parsed = parseParquetParams({ bloom_filter_columns: 'sym, price,,SYM' });
  t.deepEqual(parsed.bloomFilterColumns, ['sym', 'price', 'SYM']);
  t.deepEqual(checkParquetColumns(parsed, COLUMNS, 0).bloomFilterColumns, ['Sym', 'price']);
  const error = t.throws(() => checkParquetColumns(parseParquetParams({ bloom_filter_columns: 'sym,qty' }), COLUMNS, 0), { instanceOf: SvcError });
  t.is(error?.message, 'invalid bloom filter column:qty');
  t.is(error?.httpStatus, 400);
});

test('partitioning needs a designated TIMESTAMP in the result', (t) => {
  const daily = parseParquetParams({ partition_by: 'DAY' });
  t.is(checkParquetColumns(daily, COLUMNS, 0).partitionBy, 'DAY');
  for (const index of [-1, 2]) {
    const error = t.throws(() => checkParquetColumns(daily, COLUMNS, index), { instanceOf: SvcError });
    t.is(error?.message, 'partition by DAY requires a designated timestamp column in the query result');
  }
  t.is(checkParquetColumns(PARQUET_EXPORT_DEFAULTS, COLUMNS, -1).partitionBy, 'NONE');
});
