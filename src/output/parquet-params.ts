// Parses and validates the `/exp?fmt=parquet` URL parameters into a frozen, structured-cloneable options
// object (it crosses into the encoding thread). Error texts follow QuestDB's ExportQueryProcessor and
// ExportModel.validCompressOptions; every rejection is SvcError SVC_EXPORT_BAD_PARAMETER, HTTP 400.
import { SvcError } from '../core/errors.js';
import type { ValueType } from '../types/column-type.js';
import type { PartitionUnit } from '../types/timestamp.js';

export type ParquetPartitionUnit = PartitionUnit;
export const PARQUET_PARTITION_UNITS: readonly ParquetPartitionUnit[] = ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'];

/** Codecs this writer puts into files. LZ4 (Hadoop-framed) is written as LZ4_RAW; LZO is refused. */
export type ParquetWrittenCodec = 'UNCOMPRESSED' | 'SNAPPY' | 'GZIP' | 'BROTLI' | 'ZSTD' | 'LZ4_RAW';

/** QuestDB's codec order, as its "expected one of" message lists them. */
const CODEC_NAMES = ['uncompressed', 'snappy', 'gzip', 'lzo', 'brotli', 'lz4', 'zstd', 'lz4_raw'] as const;

/**
 * Largest row_group_size accepted. The encoding thread holds one row group of every column in memory, so this
 * bounds its memory (about 40 MB for four fixed-width columns). Belongs in core/limits.ts once that file is open to us.
 */
export const parquetRowGroupRowsMax = 1_048_576;

export interface ParquetExportOptions {
  readonly partitionBy: ParquetPartitionUnit;
  readonly codec: ParquetWrittenCodec;
  /** The level handed to the codec; already inside the codec's range. */
  readonly compressionLevel: number;
  readonly rowGroupRows: number;
  /** Target uncompressed size of one data page. */
  readonly dataPageBytes: number;
  readonly statisticsEnabled: boolean;
  readonly parquetVersion: 1 | 2;
  /** Only concerns array columns, which svc does not have yet; validated and carried for completeness. */
  readonly rawArrayEncoding: boolean;
  /** Column names as the query result spells them (resolved by checkParquetColumns). */
  readonly bloomFilterColumns: readonly string[];
  readonly bloomFilterFpp: number;
  /**
   * 'column-major' writes every row group's chunk of a column next to the column's chunks of the other row
   * groups (the footer points at each), so one column of the file is one contiguous byte range: a reader
   * fetching ranges from an object store makes one request per column instead of one per row group. The
   * file's bytes are held until finish(). Undefined: the usual row group after row group.
   */
  readonly chunkLayout?: 'row-groups' | 'column-major';
}

export const PARQUET_EXPORT_DEFAULTS: ParquetExportOptions = Object.freeze({
  partitionBy: 'NONE',
  codec: 'ZSTD',
  compressionLevel: 9,
  rowGroupRows: 100_000,
  dataPageBytes: 1_048_576,
  statisticsEnabled: true,
  parquetVersion: 2,
  rawArrayEncoding: false,
  bloomFilterColumns: Object.freeze([]),
  bloomFilterFpp: 0.01,
});

type Query = Readonly<Record<string, string | undefined>>;

function badParameter(message: string): SvcError {
  return new SvcError('SVC_EXPORT_BAD_PARAMETER', message, 400);
}

/** QuestDB treats an empty parameter as absent. */
function present(value: string | undefined): value is string {
  return value !== undefined && value.length > 0;
}

/**
 * QuestDB's Numbers.parseInt: optional '-', decimal digits, within int32; undefined when malformed.
 * (types/intervals.ts has the same private helper; one exported copy in types/ could serve both.)
 */
function parseInt32(text: string): number | undefined {
  if (!/^-?\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= -2147483648 && value <= 2147483647 ? value : undefined;
}

/** http.md §1: a flag is true only for the literal `true`, any case; anything else is false. */
function parseFlag(text: string): boolean {
  return text.toLowerCase() === 'true';
}

function parsePartitionBy(text: string | undefined): ParquetPartitionUnit {
  if (!present(text)) return PARQUET_EXPORT_DEFAULTS.partitionBy;
  const unit = PARQUET_PARTITION_UNITS.find((name) => name === text.toUpperCase());
  if (unit === undefined) throw badParameter(`invalid partition by option: ${text}`);
  return unit;
}

function parseCodec(text: string | undefined): ParquetWrittenCodec {
  if (!present(text)) return PARQUET_EXPORT_DEFAULTS.codec;
  const name = text.toLowerCase();
  // QuestDB accepts `default` as an alias of its own default codec, LZ4_RAW.
  if (name === 'default' || name === 'lz4_raw' || name === 'lz4') return 'LZ4_RAW';
  if (name === 'lzo') {
    throw badParameter('compression codec lzo is not supported: no Parquet writer or common reader implements it; ' +
      'use one of: uncompressed, snappy, gzip, brotli, lz4, zstd, lz4_raw');
  }
  if (name === 'uncompressed' || name === 'snappy' || name === 'gzip' || name === 'brotli' || name === 'zstd') {
    return name.toUpperCase() as ParquetWrittenCodec;
  }
  throw badParameter(`invalid compression codec[${text}], expected one of: ${CODEC_NAMES.join(', ')}`);
}

/** Inclusive level range per codec, from QuestDB's ParquetCompression; undefined when the codec has no levels. */
function levelRange(codec: ParquetWrittenCodec): { min: number; max: number; label: string } | undefined {
  switch (codec) {
    case 'GZIP': return { min: 0, max: 9, label: 'GZIP' };
    case 'BROTLI': return { min: 0, max: 11, label: 'Brotli' };
    case 'ZSTD': return { min: 1, max: 22, label: 'ZSTD' };
    case 'UNCOMPRESSED': case 'SNAPPY': case 'LZ4_RAW': return undefined;
  }
}

/** An explicit level must fit the codec; the default level is clamped the way initDefaultCompressLevel does. */
function parseCompressionLevel(text: string | undefined, codec: ParquetWrittenCodec): number {
  const range = levelRange(codec);
  if (!present(text)) {
    const level = PARQUET_EXPORT_DEFAULTS.compressionLevel;
    return range === undefined || (level >= range.min && level <= range.max) ? level : range.min;
  }
  const level = parseInt32(text);
  if (level === undefined) throw badParameter(`invalid compression level:${text}`);
  if (range !== undefined && (level < range.min || level > range.max)) {
    throw badParameter(`${range.label} compression level must be between ${range.min} and ${range.max}`);
  }
  return level;
}

function parsePositive(text: string | undefined, fallback: number, max: number, label: string): number {
  if (!present(text)) return fallback;
  const value = parseInt32(text);
  if (value === undefined || value < 1 || value > max) throw badParameter(`invalid ${label}:${text}`);
  return value;
}

function parseParquetVersion(text: string | undefined): 1 | 2 {
  if (!present(text)) return PARQUET_EXPORT_DEFAULTS.parquetVersion;
  const version = parseInt32(text);
  if (version === undefined) throw badParameter(`invalid parquet version:${text}`);
  if (version !== 1 && version !== 2) throw badParameter(`invalid parquet version: ${text}, supported versions: 1, 2`);
  return version;
}

function parseBloomFilterColumns(text: string | undefined): readonly string[] {
  if (!present(text)) return PARQUET_EXPORT_DEFAULTS.bloomFilterColumns;
  const names = text.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  return Object.freeze([...new Set(names)]);
}

function parseBloomFilterFpp(text: string | undefined): number {
  if (!present(text)) return PARQUET_EXPORT_DEFAULTS.bloomFilterFpp;
  const fpp = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
  // Both ends are excluded: 0 asks for an infinite filter and 1 for one that answers "maybe" to everything.
  if (!(fpp > 0 && fpp < 1)) throw badParameter(`invalid bloom filter fpp:${text}, expected a value between 0 and 1 (exclusive)`);
  return fpp;
}

/**
 * Reads every Parquet parameter of `/exp` (names are case-sensitive, like all URL parameters). Column names in
 * bloom_filter_columns are checked later by checkParquetColumns, once the query's columns are known.
 */
export function parseParquetParams(query: Query): ParquetExportOptions {
  const codec = parseCodec(query['compression_codec']);
  const options: ParquetExportOptions = {
    partitionBy: parsePartitionBy(query['partition_by']),
    codec,
    compressionLevel: parseCompressionLevel(query['compression_level'], codec),
    rowGroupRows: parsePositive(query['row_group_size'], PARQUET_EXPORT_DEFAULTS.rowGroupRows, parquetRowGroupRowsMax, 'row group size'),
    dataPageBytes: parsePositive(query['data_page_size'], PARQUET_EXPORT_DEFAULTS.dataPageBytes, 2147483647, 'data page size'),
    statisticsEnabled: present(query['statistics_enabled']) ? parseFlag(query['statistics_enabled']) : true,
    parquetVersion: parseParquetVersion(query['parquet_version']),
    rawArrayEncoding: present(query['raw_array_encoding']) ? parseFlag(query['raw_array_encoding']) : false,
    bloomFilterColumns: parseBloomFilterColumns(query['bloom_filter_columns']),
    bloomFilterFpp: parseBloomFilterFpp(query['bloom_filter_fpp']),
  };
  return Object.freeze(options);
}

/** A result column as QueryFactory.columns describes it (a bare NULL literal has type NULL). */
export interface ExportColumn {
  readonly name: string;
  readonly type: ValueType;
}

/**
 * Checks the options against the query's result columns and returns them with bloom filter names spelled as the
 * result spells them (QuestDB column names are case-insensitive). `timestampIndex` is the designated timestamp of
 * the result, -1 when it has none; partitioning needs one.
 */
export function checkParquetColumns(
  options: ParquetExportOptions,
  columns: readonly ExportColumn[],
  timestampIndex: number,
): ParquetExportOptions {
  const resolved = options.bloomFilterColumns.map((name) => {
    const column = columns.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (column === undefined) throw badParameter(`invalid bloom filter column:${name}`);
    return column.name;
  });
  if (options.partitionBy !== 'NONE') {
    const timestamp = timestampIndex >= 0 ? columns[timestampIndex] : undefined;
    if (timestamp === undefined || timestamp.type !== 'TIMESTAMP') {
      throw badParameter(`partition by ${options.partitionBy} requires a designated timestamp column in the query result`);
    }
  }
  return Object.freeze({ ...options, bloomFilterColumns: Object.freeze([...new Set(resolved)]) });
}
