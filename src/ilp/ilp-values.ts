// Writes one parsed field value into its column in the column's storage form, converting where QuestDB
// converts without loss (an integer into BYTE..DOUBLE, DATE or TIMESTAMP; a double into FLOAT; text into
// VARCHAR, STRING, SYMBOL, CHAR or UUID) and refusing everything else with QuestDB's cast error text.
import type { ColumnType } from '../types/column-type.js';
import { isUtf8 } from 'node:buffer';
import { FixedColumnBuilder, VarColumnBuilder } from './column-builder.js';
import type { IlpColumn } from './ilp-table-builder.js';
import { IlpValueError } from './ilp-errors.js';
import type { Int64Words } from './ilp-numbers.js';
import { toTextCoded } from '../types/coded-columns.js';
import { isGeohashType } from '../types/geohash.js';
import { parseLong256 } from '../types/long256.js';
import { NEW_DECIMAL_COLUMN_TYPE, writeDecimalValue, writeDoubleAsDecimal, writeTextAsDecimal } from './ilp-decimals.js';

const BACKSLASH = 92;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const SPACE = 32;
const COMMA = 44;
const EQUALS = 61;
const UUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Protocol type names as QuestDB's cast errors print them. */
export type IlpValueKind = 'LONG' | 'FLOAT' | 'BOOLEAN' | 'STRING' | 'SYMBOL' | 'TIMESTAMP' | 'LONG256' | 'DECIMAL';

/** Every spelling of a BOOLEAN field value QuestDB accepts. */
export const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map<string, boolean>([
  ['t', true], ['T', true], ['true', true], ['True', true], ['TRUE', true],
  ['f', false], ['F', false], ['false', false], ['False', false], ['FALSE', false],
]);

/** The type of a column the line protocol creates, from its first value. */
export const NEW_COLUMN_TYPE: Readonly<Record<IlpValueKind, ColumnType>> = {
  LONG: 'LONG', FLOAT: 'DOUBLE', BOOLEAN: 'BOOLEAN', STRING: 'VARCHAR', SYMBOL: 'SYMBOL', TIMESTAMP: 'TIMESTAMP', LONG256: 'LONG256',
  DECIMAL: NEW_DECIMAL_COLUMN_TYPE,
};

export function castError(table: string, column: IlpColumn, kind: IlpValueKind): IlpValueError {
  return new IlpValueError(`table: ${table}, column: ${column.name}; cast error from protocol type: ${kind} to column type: ${column.type}`);
}

function writeWords(builder: FixedColumnBuilder, low: number, high: number): void {
  const index = builder.next();
  builder.i32[index * 2] = low;
  builder.i32[index * 2 + 1] = high;
}

function writeNumberAsInt64(builder: FixedColumnBuilder, value: number): void {
  const high = Math.floor(value / 4294967296);
  writeWords(builder, (value - high * 4294967296) | 0, high | 0);
}

/** The nearest double of a 64-bit integer beyond 2^53 (its `number` is NaN there). */
function int64WordsAsNumber(value: Int64Words): number {
  return Number(BigInt.asIntN(64, (BigInt(value.high) << 32n) | BigInt(value.low >>> 0)));
}

/** An integer field (`12i`). */
export function writeLong(table: string, column: IlpColumn, value: Int64Words): void {
  const builder = column.builder;
  if (column.isDecimal) {
    writeDecimalValue(table, column, 'LONG', BigInt.asIntN(64, (BigInt(value.high) << 32n) | BigInt(value.low >>> 0)), 0);
    return;
  }
  if (builder.kind !== 'fixed') throw castError(table, column, 'LONG');
  const number = value.number;
  // next() comes first in each case: it may grow the builder, which replaces its typed views.
  switch (column.type) {
    case 'LONG': case 'TIMESTAMP': case 'DATE': case 'TIMESTAMP_NS': writeWords(builder, value.low, value.high); return;
    case 'DOUBLE': {
      const index = builder.next();
      builder.f64[index] = number === number ? number : int64WordsAsNumber(value);
      return;
    }
    case 'FLOAT': {
      const index = builder.next();
      builder.f32[index] = number === number ? number : int64WordsAsNumber(value);
      return;
    }
    case 'INT': {
      if (!(number >= -2147483647 && number <= 2147483647)) throw castError(table, column, 'LONG');
      const index = builder.next();
      builder.i32[index] = number;
      return;
    }
    case 'SHORT': {
      if (!(number >= -32768 && number <= 32767)) throw castError(table, column, 'LONG');
      const index = builder.next();
      builder.i16[index] = number;
      return;
    }
    case 'BYTE': {
      if (!(number >= -128 && number <= 127)) throw castError(table, column, 'LONG');
      const index = builder.next();
      builder.bytes[index] = number & 0xff;
      return;
    }
    default: throw castError(table, column, 'LONG');
  }
}

/** A double field (text or protocol 2's binary form). */
export function writeDouble(table: string, column: IlpColumn, value: number): void {
  const builder = column.builder;
  if (column.isDecimal) {
    writeDoubleAsDecimal(table, column, value);
    return;
  }
  if (builder.kind !== 'fixed' || (column.type !== 'DOUBLE' && column.type !== 'FLOAT')) throw castError(table, column, 'FLOAT');
  // The index first: `builder.f64[builder.next()]` would read the view before next() grows (replaces) it.
  const index = builder.next();
  if (column.type === 'DOUBLE') builder.f64[index] = value;
  else builder.f32[index] = value;
}

export function writeBoolean(table: string, column: IlpColumn, value: boolean): void {
  const builder = column.builder;
  if (builder.kind !== 'fixed' || column.type !== 'BOOLEAN') throw castError(table, column, 'BOOLEAN');
  const index = builder.next();
  builder.bytes[index] = value ? 1 : 0;
}

/** A timestamp field (`123t` µs, `123n` ns), already in microseconds. */
export function writeTimestamp(table: string, column: IlpColumn, micros: number): void {
  const builder = column.builder;
  if (builder.kind !== 'fixed') throw castError(table, column, 'TIMESTAMP');
  if (column.type === 'TIMESTAMP') writeNumberAsInt64(builder, micros);
  else if (column.type === 'DATE') writeNumberAsInt64(builder, Math.floor(micros / 1000));
  else throw castError(table, column, 'TIMESTAMP');
}

/**
 * A string field's or tag's bytes [start, end) (between the quotes for a string), unescaped when `escaped`.
 * Text is stored as UTF-8; bytes that are not valid UTF-8 are refused rather than stored.
 */
export function writeText(table: string, column: IlpColumn, kind: 'STRING' | 'SYMBOL', bytes: Uint8Array, start: number, end: number, escaped: boolean): void {
  const builder = column.builder;
  if (builder.kind === 'symbol') {
    if (!escaped) {
      builder.append(bytes, start, end);
      return;
    }
    const length = unescapeInto(bytes, start, end, kind === 'STRING');
    builder.append(unescaped, 0, length);
    return;
  }
  if (builder.kind === 'var' && (column.type === 'VARCHAR' || column.type === 'STRING')) {
    copyText(builder, bytes, start, end, escaped, kind === 'STRING');
    return;
  }
  if (builder.kind === 'var' && column.type === 'UUID' && kind === 'STRING') {
    copyText(builder, bytes, start, end, escaped, true);
    const text = builder.bytes.toString('latin1', builder.offsets[builder.length - 1] + 4, builder.end);
    if (!UUID_TEXT.test(text)) throw castError(table, column, kind);
    return;
  }
  if (builder.kind === 'var' && isGeohashType(column.type) && kind === 'STRING') {
    // A string into a GEOHASH column reads base32 into the column's precision; staged as the value's text.
    const value = toTextCoded(column.type, 'STRING', unescapedString(bytes, start, end, escaped, true));
    if (value === undefined) throw castError(table, column, kind);
    appendStagedText(builder, value);
    return;
  }
  if (column.isDecimal && kind === 'STRING') {
    writeTextAsDecimal(table, column, unescapedString(bytes, start, end, escaped, true));
    return;
  }
  if (builder.kind === 'fixed' && column.type === 'CHAR' && kind === 'STRING') {
    const text = unescapedString(bytes, start, end, escaped, true);
    if (text.length !== 1) throw castError(table, column, kind);
    const index = builder.next();
    builder.i16[index] = text.charCodeAt(0);
    return;
  }
  throw castError(table, column, kind);
}

/** A LONG256 field (`0x...i`, the text without its `i`): staged as canonical hex text, encoded at commit. */
export function writeLong256(table: string, column: IlpColumn, text: string): void {
  const builder = column.builder;
  const value = parseLong256(text);
  if (builder.kind !== 'var' || column.type !== 'LONG256') throw castError(table, column, 'LONG256');
  if (value === undefined) throw new IlpValueError(`table: ${table}, column: ${column.name}; invalid long256 value`);
  appendStagedText(builder, value);
}

/** One staged text value (null: a null record). */
function appendStagedText(builder: VarColumnBuilder, value: string | null): void {
  if (value === null) {
    builder.appendNull();
    return;
  }
  const payload = builder.reserve(value.length);
  builder.bytes.write(value, payload, 'latin1');
}

function copyText(builder: VarColumnBuilder, bytes: Uint8Array, start: number, end: number, escaped: boolean, quoted: boolean): void {
  const payload = builder.reserve(end - start);
  const target = builder.bytes;
  let high = 0;
  let length = 0;
  if (!escaped) {
    for (let at = start; at < end; at++) {
      const code = bytes[at];
      high |= code;
      target[payload + length++] = code;
    }
  } else {
    for (let at = start; at < end; at++) {
      let code = bytes[at];
      if (code === BACKSLASH && at + 1 < end && isEscapable(bytes[at + 1], quoted)) code = bytes[++at];
      high |= code;
      target[payload + length++] = code;
    }
    builder.shrinkLast(length);
  }
  if (high >= 0x80 && !isUtf8(target.subarray(payload, payload + length))) throw new IlpValueError('invalid UTF-8 in a value');
}

/** Scratch for an escaped tag value, grown to the longest one seen. */
let unescaped = Buffer.allocUnsafe(256);

/** Copies bytes [start, end) into `unescaped` without their escapes; returns the length. */
function unescapeInto(bytes: Uint8Array, start: number, end: number, quoted: boolean): number {
  if (unescaped.length < end - start) unescaped = Buffer.allocUnsafe(end - start);
  let length = 0;
  for (let at = start; at < end; at++) {
    let code = bytes[at];
    if (code === BACKSLASH && at + 1 < end && isEscapable(bytes[at + 1], quoted)) code = bytes[++at];
    unescaped[length++] = code;
  }
  return length;
}

/** Characters a backslash escapes: in quoted strings `"`, `\` and line breaks; elsewhere also space, comma and `=`. */
function isEscapable(code: number, quoted: boolean): boolean {
  if (code === BACKSLASH || code === LF || code === CR || code === QUOTE) return true;
  return !quoted && (code === SPACE || code === COMMA || code === EQUALS);
}

/** Decodes a name or value that needs a string (names, the slow paths), removing escapes. */
export function unescapedString(bytes: Uint8Array, start: number, end: number, escaped: boolean, quoted: boolean): string {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
  if (!isUtf8(view)) throw new IlpValueError('invalid UTF-8 in a name or value');
  if (!escaped) return view.toString('utf8');
  const out: number[] = [];
  for (let at = start; at < end; at++) {
    let code = bytes[at];
    if (code === BACKSLASH && at + 1 < end && isEscapable(bytes[at + 1], quoted)) code = bytes[++at];
    out.push(code);
  }
  return Buffer.from(out).toString('utf8');
}
