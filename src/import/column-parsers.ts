// Text bytes → column values in storage form, one loop per output type, run column by column over a lexed
// block. Empty fields are nulls (the type's sentinel; BOOLEAN/BYTE/SHORT have none and get 0). A value that does
// not convert counts as an error and is stored as null; the caller decides per atomicity mode whether the
// row survives. Numbers and ISO timestamps are parsed from bytes; other timestamp patterns are interpreted.
import { isDecimalType } from '../types/decimal.js';
import { isArrayType } from '../types/double-array.js';
import { assert, assertNever, unreachable } from '../core/assert.js';
import type { ColumnType } from '../types/column-type.js';
import { INT_NULL } from '../types/nulls.js';
import { writeInt64Words } from '../types/int64-words.js';
import type { ColumnTarget, ParseJob } from './column-target.js';
import { targetFloat64, targetInt32, targetInt64Words } from './column-target.js';
import { parseIsoTimestampBytes } from './iso-timestamp.js';
import { parseTimestampNsColumn } from './timestamp-ns-column.js';
import { parseCharColumn, parseTextCodedColumn, parseTextColumn, parseUuidColumn, reportBad } from './string-columns.js';
import { isGeohashType } from '../types/geohash.js';
import { compileImportTimestampPattern, type ImportTimestampPattern } from './timestamp-pattern.js';
import {
  isNanLiteral, parseBooleanBytes, parseDoubleBytes, parseIntBytes, parseIpv4Bytes, parseLongBigBytes, parseLongBytes,
} from './value-parsers.js';

export interface ColumnParser {
  readonly type: ColumnType;
  /** Parses one column of a block into target rows [job.base, job.base + job.rowCount); returns bad values. */
  parse(job: ParseJob, target: ColumnTarget): number;
}

export interface ColumnParserOptions {
  /** DATE/TIMESTAMP: formats tried in order; empty = ISO-8601. */
  readonly patterns: ReadonlyArray<string>;
  /** DATE/TIMESTAMP: also accept integers as epoch values (µs for TIMESTAMP, ms for DATE). */
  readonly acceptEpochNumbers: boolean;
}

const NO_PATTERNS: ColumnParserOptions = { patterns: [], acceptEpochNumbers: false };

/** The parser for values written to a column of `type`. BINARY cannot come from text. */
export function createColumnParser(type: ColumnType, options: ColumnParserOptions = NO_PATTERNS): ColumnParser {
  const plain = (parse: (job: ParseJob, target: ColumnTarget) => number): ColumnParser => ({ type, parse });
  if (isGeohashType(type) || isDecimalType(type)) return plain((job, target) => parseTextCodedColumn(job, target, type));
  if (isArrayType(type)) return unreachable('array columns are rejected by schema parsing and table mapping before parsers exist');
  switch (type) {
    case 'DOUBLE': return plain((job, target) => parseDoubleColumn(job, targetFloat64(target)));
    case 'FLOAT': return plain(parseFloatColumn);
    case 'INT': return plain((job, target) => parseIntegerColumn(job, targetInt32(target), -2147483648, 2147483647, INT_NULL));
    case 'SHORT': return plain((job, target) => parseIntegerColumn(job, checkedInt16(target), -32768, 32767, 0));
    case 'BYTE': return plain((job, target) => parseIntegerColumn(job, checkedInt8(target), -128, 127, 0));
    case 'LONG': return plain(parseLongColumn);
    case 'BOOLEAN': return plain(parseBooleanColumn);
    case 'IPV4': return plain((job, target) => parseIpv4Column(job, targetInt32(target)));
    case 'UUID': return plain(parseUuidColumn);
    case 'LONG256': return plain((job, target) => parseTextCodedColumn(job, target, type));
    case 'CHAR': return plain(parseCharColumn);
    case 'TIMESTAMP':
    case 'DATE': {
      const reader = createTemporalReader(options, type === 'DATE' ? 1000 : 1);
      return plain((job, target) => parseTemporalColumn(job, targetInt64Words(target), reader));
    }
    case 'TIMESTAMP_NS': return plain((job, target) => parseTimestampNsColumn(job, targetInt64Words(target), options.acceptEpochNumbers));
    case 'STRING':
    case 'VARCHAR':
    case 'SYMBOL': return plain(parseTextColumn);
    case 'BINARY': return unreachable('BINARY columns are rejected by schema parsing and table mapping before parsers exist');
    default: return assertNever(type, 'column type');
  }
}

function checkedInt16(target: ColumnTarget): Int16Array {
  assert(target.data instanceof Int16Array, 'SHORT column target must be an Int16Array');
  return target.data;
}

function checkedInt8(target: ColumnTarget): Int8Array {
  assert(target.data instanceof Int8Array, 'BYTE/BOOLEAN column target must be an Int8Array');
  return target.data;
}

function parseDoubleColumn(job: ParseJob, out: Float64Array): number {
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      out[base + r] = NaN;
      continue;
    }
    const v = parseDoubleBytes(buf, s, e);
    if (v !== v && !isNanLiteral(buf, s, e)) errors = reportBad(job, r, errors);
    out[base + r] = v;
  }
  return errors;
}

function parseFloatColumn(job: ParseJob, target: ColumnTarget): number {
  const out = target.data;
  assert(out instanceof Float32Array, 'FLOAT column target must be a Float32Array');
  const scratch = new Float64Array(job.rowCount);
  const errors = parseDoubleColumn({ ...job, base: 0 }, scratch);
  for (let r = 0; r < job.rowCount; r++) out[job.base + r] = scratch[r];
  return errors;
}

function parseIntegerColumn(job: ParseJob, out: Int32Array | Int16Array | Int8Array, min: number, max: number, nullValue: number): number {
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const v = s === e ? nullValue : parseIntBytes(buf, s, e);
    if (v >= min && v <= max) {
      out[base + r] = v;
    } else {
      out[base + r] = nullValue;
      errors = reportBad(job, r, errors);
    }
  }
  return errors;
}

function parseLongColumn(job: ParseJob, target: ColumnTarget): number {
  const words = targetInt64Words(target);
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const v = s === e ? NaN : parseLongBytes(buf, s, e);
    if (v === v || s === e) {
      writeInt64Words(words, base + r, v);
      continue;
    }
    // 16–19 digits: exact through BigInt, on this rare path only.
    const big = parseLongBigBytes(buf, s, e);
    if (big === undefined) {
      errors = reportBad(job, r, errors);
      writeInt64Words(words, base + r, NaN);
    } else {
      words[(base + r) * 2] = Number(big & 0xffffffffn) | 0;
      words[(base + r) * 2 + 1] = Number(BigInt.asIntN(32, big >> 32n));
    }
  }
  return errors;
}

function parseBooleanColumn(job: ParseJob, target: ColumnTarget): number {
  const out = checkedInt8(target);
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const v = s === e ? 0 : parseBooleanBytes(buf, s, e);
    out[base + r] = v > 0 ? 1 : 0;
    if (v < 0) errors = reportBad(job, r, errors);
  }
  return errors;
}

function parseIpv4Column(job: ParseJob, out: Int32Array): number {
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const v = s === e ? 0 : parseIpv4Bytes(buf, s, e);
    out[base + r] = v === v ? v : 0;
    if (v !== v) errors = reportBad(job, r, errors);
  }
  return errors;
}

/** How a DATE/TIMESTAMP column reads text: the fast ISO parser, or schema/detected patterns in order. */
interface TemporalReader {
  readonly patterns: ReadonlyArray<ImportTimestampPattern>;
  readonly iso: boolean;
  readonly epochNumbers: boolean;
  /** 1 for TIMESTAMP (µs), 1000 for DATE (ms). */
  readonly microsPerUnit: number;
}

function createTemporalReader(options: ColumnParserOptions, microsPerUnit: number): TemporalReader {
  const patterns = options.patterns.map(compileImportTimestampPattern);
  const iso = patterns.length === 0 || patterns.every((p) => p.isoCompatible);
  return { patterns: iso ? [] : patterns, iso, epochNumbers: options.acceptEpochNumbers, microsPerUnit };
}

function readTemporalSlow(reader: TemporalReader, buf: Buffer, s: number, e: number): number {
  for (const pattern of reader.patterns) {
    const micros = pattern.parseBytes(buf, s, e);
    if (micros === micros) return micros;
  }
  if (reader.epochNumbers) {
    const epoch = parseLongBytes(buf, s, e);
    if (epoch === epoch) return epoch * reader.microsPerUnit;
  }
  return NaN;
}

function parseTemporalColumn(job: ParseJob, words: Int32Array, reader: TemporalReader): number {
  const { buf, fieldStart, fieldEnd, width, rowCount, base, nullIsError } = job;
  const iso = reader.iso;
  const unit = reader.microsPerUnit;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      writeInt64Words(words, base + r, NaN);
      if (nullIsError) errors = reportBad(job, r, errors);
      continue;
    }
    let micros = iso ? parseIsoTimestampBytes(buf, s, e) : NaN;
    if (micros !== micros) micros = readTemporalSlow(reader, buf, s, e);
    if (micros !== micros) errors = reportBad(job, r, errors);
    writeInt64Words(words, base + r, unit === 1 ? micros : Math.floor(micros / unit));
  }
  return errors;
}
