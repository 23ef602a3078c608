// InfluxDB line protocol, as QuestDB's clients write it (text protocol 1, protocol 2's binary doubles and arrays,
// protocol 3's decimals), parsed straight from the network chunks into column builders: no object per row, no
// string per number.
// A line cut by a chunk boundary is parsed again, whole, once the next chunk arrives; the part of it already
// written into the builders is cut off first. The first bad line stops the request: the caller commits nothing.
import type { TableMeta } from '../storage/table-meta.js';
import { isValidTableName } from '../core/table-names.js';
import { assert } from '../core/assert.js';
import { IlpTableBuilder, bytesEqual, type IlpColumn } from './ilp-table-builder.js';
import { appendPlainValue, digitsEnd, digitsValue, plainKeyEnd } from './ilp-fast-values.js';
import { IlpError, IlpValueError, ilpLineError } from './ilp-errors.js';
import { SYMBOL_HASH_PRIME, SYMBOL_HASH_SEED } from './symbol-column-builder.js';
import { parseDouble, parseInt64, parseTimestampMicros, type Int64Words, type TimestampUnit } from './ilp-numbers.js';
import type { ColumnType } from '../types/column-type.js';
import { arrayTypeOf } from '../types/double-array.js';
import { readIlpArrayHeader, writeArray } from './ilp-arrays.js';
import { BINARY_DECIMAL, readBinaryDecimal, readTextDecimal, writeDecimalValue } from './ilp-decimals.js';
import { appendNanos, parseTimestampNanos } from './ilp-nanos.js';
import { nanosDigitsLineEnd, nanosDigitsMicros } from './ilp-timestamp-digits.js';
import { BOOLEAN_WORDS, NEW_COLUMN_TYPE, type IlpValueKind, unescapedString, writeBoolean, writeDouble, writeLong, writeLong256, writeText, writeTimestamp } from './ilp-values.js';

const LF = 10, CR = 13;
const SPACE = 32;
const COMMA = 44;
const EQUALS = 61;
const QUOTE = 34;
const HASH = 35;
const BACKSLASH = 92;
/** Protocol 2 binary fields: `name==` then the entity type byte (a double, an array). */
const BINARY_DOUBLE = 16, BINARY_ARRAY = 14;
/** The line is not complete in the bytes at hand. */
const INCOMPLETE = -1;
const NEWLINE = Buffer.from('\n');
/** Digits of a nanosecond timestamp the plain path reads: 16 of microseconds, which the caller checks against 2^53. */
const NANOS_DIGITS_MAX = 19;

export interface IlpParserOptions {
  /** Unit of a designated timestamp written without a suffix (HTTP `precision`; nanoseconds by default). */
  readonly precision: TimestampUnit;
  readonly lineBytesMax: number;
  readonly autoCreateTables: boolean;
  readonly autoCreateColumns: boolean;
  readonly tablesMax: number;
  /** Timestamp columns the parser creates (new tables' designated timestamp, `t`/`n` fields) are TIMESTAMP_NS. */
  readonly nanosTimestamps?: boolean;
  /** The table's structure as committed now, or undefined when no such table exists. */
  readonly lookupTable: (name: string) => TableMeta | undefined;
  readonly nowMicros: () => number;
  /** Rows to make room for in a table's column builders from the start (see IlpTableOptions.rowsHint). */
  readonly rowsHint?: (table: string) => number;
}

export class IlpParser {
  private readonly tablesByName = new Map<string, IlpTableBuilder>();
  private lastTable: IlpTableBuilder | undefined;
  private carry: Buffer | undefined;
  /** Lines finished so far, empty and comment lines included: the line being parsed is number lines + 1. */
  private lines = 0;
  /** Rows parsed so far, in every table. */
  rows = 0;
  private readonly scratch: Int64Words = { low: 0, high: 0, number: 0 };
  /** Whether the text unquotedEnd() last passed over held a backslash escape. */
  private sawEscape = false;
  /** The hash of the tag value tagValueEnd() last passed over. */
  private valueHash = 0;
  /** Tags parseTags() last parsed (duplicates included). */
  private tagCount = 0;
  /** The bytes parseLines() reads, with a view of them for reading four bytes at a time (made once per chunk). */
  private viewData: Buffer = NEWLINE;
  private view: DataView = new DataView(NEWLINE.buffer, NEWLINE.byteOffset, NEWLINE.length);
  /** Where the digits plainNanosEnd() last read end. */
  private plainDigitsEnd = 0;

  constructor(private readonly options: IlpParserOptions) {}

  /** The tables this request wrote rows to. */
  tables(): IlpTableBuilder[] {
    return [...this.tablesByName.values()].filter((table) => table.rowCount > 0);
  }

  /** Empties the builders once their rows are staged; tables and columns keep their types. */
  resetRows(): void {
    for (const table of this.tablesByName.values()) table.reset();
  }

  /** Gives the builders' buffers back to the pool once their rows are staged or dropped; nothing is parsed after. */
  release(): void {
    for (const table of this.tablesByName.values()) table.release();
    this.tablesByName.clear();
  }

  /** Lines finished so far (empty and comment lines included); a TCP connection numbers its lines across commits with it. */
  get linesFinished(): number {
    return this.lines;
  }

  /** Takes the bytes of the unfinished last line, so a TCP connection can carry them into its next commit unit. */
  takeUnfinishedLine(): Buffer | undefined {
    const carry = this.carry;
    this.carry = undefined;
    return carry;
  }

  /** Bytes held in column builders, for the caller's memory bound. */
  sizeBytes(): number {
    let total = this.carry?.length ?? 0;
    for (const table of this.tablesByName.values()) total += table.sizeBytes();
    return total;
  }

  /**
   * Parses every complete line of `chunk` (after what is left of the previous one). Throws IlpError. The chunk
   * is parsed where it lies: only the line cut by the previous chunk's end is copied, joined with this chunk's
   * bytes up to its first line break (a whole-chunk copy per chunk had been 5% of a worker's time).
   */
  feed(chunk: Buffer): void {
    let data = chunk;
    let from = 0;
    const carry = this.carry;
    if (carry !== undefined) {
      this.carry = undefined;
      from = this.finishCarriedLine(carry, chunk);
      // The carried line goes on past the first line break (one inside a string or a binary value): join it all.
      if (from < 0) {
        data = Buffer.concat([carry, chunk]);
        from = 0;
      }
    }
    const consumed = this.parseLines(data, from);
    if (consumed === data.length) return;
    if (data.length - consumed > this.options.lineBytesMax) throw this.tooLarge(this.lines + 1);
    this.carry = Buffer.from(data.subarray(consumed));
  }

  /**
   * Parses the carried line completed by `chunk` up to its first line break; returns where the rest of the
   * chunk starts, or -1 when that did not complete the line. Cutting the bytes there is like any chunk
   * boundary: a line that does not end within them is cut off again and parsed later, whole.
   */
  private finishCarriedLine(carry: Buffer, chunk: Buffer): number {
    const newline = chunk.indexOf(LF);
    if (newline < 0) return -1;
    const head = Buffer.concat([carry, chunk.subarray(0, newline + 1)]);
    const consumed = this.parseLines(head, 0);
    assert(consumed === 0 || consumed === head.length, 'a carried line is the only line that can end in the joined bytes');
    return consumed === head.length ? newline + 1 : -1;
  }

  /** The body ended: its last line needs no newline. */
  finish(): void {
    if (this.carry === undefined) return;
    const data = Buffer.concat([this.carry, NEWLINE]);
    this.carry = undefined;
    if (this.parseLines(data, 0) < data.length) throw ilpLineError('unexpected end of the line (an unterminated string?)', this.lines + 1);
  }

  private tooLarge(line: number): IlpError {
    return new IlpError('SVC_ILP_TOO_LARGE', `line ${line} is longer than the line size limit [limit=${this.options.lineBytesMax}]`, line, 413);
  }

  private parseLines(data: Buffer, from: number): number {
    if (data !== this.viewData) {
      this.viewData = data;
      this.view = new DataView(data.buffer, data.byteOffset, data.length);
    }
    let at = from;
    try {
      while (at < data.length) {
        const next = this.parseLine(data, at);
        if (next === INCOMPLETE) break;
        // The line is complete, so it is counted already.
        if (next - at > this.options.lineBytesMax) throw this.tooLarge(this.lines);
        at = next;
      }
    } catch (error) {
      if (error instanceof IlpValueError) throw ilpLineError(error.message, this.lines + 1);
      throw error;
    }
    return at;
  }

  /** Parses the line at `start`; returns where the next line starts, or INCOMPLETE. */
  private parseLine(data: Buffer, start: number): number {
    const end = data.length;
    const first = data[start];
    if (first === LF || first === CR) return this.endOfLine(data, start);
    if (first === HASH) {
      const newline = data.indexOf(LF, start);
      if (newline < 0) return INCOMPLETE;
      this.lines++;
      return newline + 1;
    }
    const at = this.unquotedEnd(data, start);
    if (at >= end) return INCOMPLETE;
    if (at === start) throw new IlpValueError('table name is missing');
    const table = this.tableFor(data, start, at, this.sawEscape);
    if (data[at] === LF || data[at] === CR) throw new IlpValueError(`table: ${table.name}; the line has no fields`);
    const next = this.parseRow(table, data, at);
    if (next === INCOMPLETE) table.discardRow();
    else this.rows++;
    return next;
  }

  /** After the table name: tags, fields, timestamp. */
  private parseRow(table: IlpTableBuilder, data: Buffer, from: number): number {
    let at = from;
    let position = 0;
    if (data[at] === COMMA) {
      position = table.tagSets.lookUp(data, this.view, at);
      if (position >= 0) at = table.tagSets.end;
      else at = this.parseTags(table, data, at);
      if (at === INCOMPLETE) return INCOMPLETE;
      if (position < 0) position = this.tagCount;
    }
    if (data[at] !== SPACE) return this.finishRow(table, data, at, NaN);
    at++;
    const guess = table.guessAt(position);
    const fields = guess !== undefined && plainKeyEnd(guess, this.view, data, at) >= 0 ? 1 : this.startsField(data, at);
    if (fields === INCOMPLETE) return INCOMPLETE;
    if (fields === 1) {
      at = this.parseFields(table, data, at, position);
      if (at === INCOMPLETE) return INCOMPLETE;
      if (data[at] !== SPACE) return this.finishRow(table, data, at, NaN);
      at++;
    }
    return this.parseTimestamp(table, data, at);
  }

  /** Parses the tags at `from` (a comma) one by one, recording them for the table's tag-set cache; sets tagCount. */
  private parseTags(table: IlpTableBuilder, data: Buffer, from: number): number {
    let at = from;
    let position = 0;
    table.tagSets.startRecording();
    while (data[at] === COMMA) {
      at = this.parseTag(table, data, at + 1, position++);
      if (at === INCOMPLETE) return INCOMPLETE;
    }
    table.tagSets.finishRecording(at, position);
    this.tagCount = position;
    return at;
  }

  /**
   * Where the unquoted text at `from` (a table name or a tag value) ends: at the first comma, space or line
   * break that no backslash escapes (or past the end of the bytes at hand). Sets sawEscape.
   */
  private unquotedEnd(data: Buffer, from: number): number {
    let escaped = false;
    let at = from;
    for (; at < data.length; at++) {
      const code = data[at];
      if (code === BACKSLASH) {
        escaped = true;
        at++;
      } else if (code === COMMA || code === SPACE || code === LF || code === CR) break;
    }
    this.sawEscape = escaped;
    return at;
  }

  /**
   * unquotedEnd() for a tag value, hashing its bytes for the SYMBOL builder on the way (valueHash; meaningful
   * when no escape was seen), so the value is not read once more just to hash it.
   */
  private tagValueEnd(data: Buffer, from: number): number {
    let escaped = false;
    let hash = SYMBOL_HASH_SEED;
    let at = from;
    for (; at < data.length; at++) {
      const code = data[at];
      if (code === BACKSLASH) {
        escaped = true;
        at++;
      } else if (code === COMMA || code === SPACE || code === LF || code === CR) {
        break;
      } else {
        hash = Math.imul(hash ^ code, SYMBOL_HASH_PRIME);
      }
    }
    this.sawEscape = escaped;
    this.valueHash = hash;
    return at;
  }

  /**
   * Where the `=` after the key at `from` is (or past the end of the bytes at hand); a key may not contain an
   * unescaped comma, space or line break. Sets sawEscape.
   */
  private keyEnd(table: IlpTableBuilder, data: Buffer, from: number, what: 'tag' | 'field'): number {
    let escaped = false;
    let at = from;
    for (; at < data.length; at++) {
      const code = data[at];
      if (code === BACKSLASH) {
        escaped = true;
        at++;
      } else if (code === EQUALS) break;
      else if (code === SPACE || code === COMMA || code === LF || code === CR) throw new IlpValueError(`table: ${table.name}; ${what} without a value`);
    }
    this.sawEscape = escaped;
    return at;
  }

  /** 1 when the text at `at` is a field (a name and `=`), 0 when it is the timestamp. */
  private startsField(data: Buffer, from: number): number {
    for (let at = from; at < data.length; at++) {
      const code = data[at];
      if (code === BACKSLASH) at++;
      else if (code === EQUALS) return 1;
      else if (code === SPACE || code === LF || code === CR || code === COMMA) return 0;
    }
    return INCOMPLETE;
  }

  private parseTag(table: IlpTableBuilder, data: Buffer, from: number, position: number): number {
    const end = data.length;
    const guess = table.guessAt(position);
    const guessedEnd = guess === undefined ? -1 : plainKeyEnd(guess, this.view, data, from);
    let at = guessedEnd >= 0 ? guessedEnd : this.keyEnd(table, data, from, 'tag');
    // A guess matches the key's bytes as first spelled, escapes included.
    const keyEscaped = guessedEnd < 0 ? this.sawEscape : (guess as IlpColumn).nameEscaped;
    if (at >= end) return INCOMPLETE;
    const keyEnd = at++;
    const valueStart = at;
    at = this.tagValueEnd(data, valueStart);
    const valueEscaped = this.sawEscape;
    if (at >= end) return INCOMPLETE;
    if (at === valueStart) throw new IlpValueError(`table: ${table.name}; tag value is empty`);
    const column = guessedEnd >= 0 ? (guess as IlpColumn) : this.column(table, data, from, keyEnd, keyEscaped, 'SYMBOL', position);
    if (table.isSet(column)) {
      // A repeated key is skipped, but its bytes stay in the section: an escape in them keeps it out of the cache.
      if (keyEscaped || valueEscaped) table.tagSets.spoil();
      return at;
    }
    const builder = column.builder;
    if (builder.kind === 'symbol' && !valueEscaped) {
      builder.appendHashed(data, valueStart, at, this.valueHash);
      if (keyEscaped) table.tagSets.spoil();
      else table.tagSets.recordSymbol(builder);
    } else {
      writeText(table.name, column, 'SYMBOL', data, valueStart, at, valueEscaped);
      table.tagSets.spoil();
    }
    return at;
  }

  private parseFields(table: IlpTableBuilder, data: Buffer, from: number, firstPosition: number): number {
    const end = data.length;
    let at = from;
    for (let position = firstPosition; ; position++) {
      const keyStart = at;
      const guess = table.guessAt(position);
      const guessedEnd = guess === undefined ? -1 : plainKeyEnd(guess, this.view, data, at);
      const plainEnd = guessedEnd >= 0 ? appendPlainValue(table, guess as IlpColumn, data, guessedEnd + 1) : -1;
      if (plainEnd >= 0) {
        if (data[plainEnd] !== COMMA) return plainEnd;
        at = plainEnd + 1;
        continue;
      }
      at = guessedEnd >= 0 ? guessedEnd : this.keyEnd(table, data, keyStart, 'field');
      const keyEscaped = guessedEnd < 0 && this.sawEscape;
      if (at + 1 >= end) return INCOMPLETE;
      at = this.parseFieldValue(table, guessedEnd >= 0 ? guess : undefined, data, keyStart, at, keyEscaped, at + 1, position);
      if (at === INCOMPLETE) return INCOMPLETE;
      if (data[at] !== COMMA) return at;
      at++;
    }
  }

  /** The value at `at` of the field named by [keyStart, keyEnd); returns the position of the delimiter after it. */
  private parseFieldValue(table: IlpTableBuilder, known: IlpColumn | undefined, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, at: number, position: number): number {
    const end = data.length;
    const first = data[at];
    if (first === QUOTE) {
      let escaped = false;
      let close = at + 1;
      for (; close < end; close++) {
        const code = data[close];
        if (code === BACKSLASH) {
          escaped = true;
          close++;
        } else if (code === QUOTE) break;
      }
      if (close + 1 >= end) return INCOMPLETE;
      this.checkDelimiter(table, data[close + 1]);
      const column = known ?? this.column(table, data, keyStart, keyEnd, keyEscaped, 'STRING', position);
      if (!table.isSet(column)) writeText(table.name, column, 'STRING', data, at + 1, close, escaped);
      return close + 1;
    }
    if (first === EQUALS) return this.parseBinaryValue(table, known, data, keyStart, keyEnd, keyEscaped, at + 1, position);
    let stop = at;
    for (; stop < end; stop++) {
      const code = data[stop];
      if (code === COMMA || code === SPACE || code === LF || code === CR) break;
    }
    if (stop >= end) return INCOMPLETE;
    if (stop === at) throw new IlpValueError(`table: ${table.name}; field value is missing`);
    this.writeScalar(table, known, this.columnKindOf(data, at, stop), data, keyStart, keyEnd, keyEscaped, at, stop, position);
    return stop;
  }

  private columnKindOf(data: Buffer, start: number, stop: number): IlpValueKind {
    const first = data[start];
    if (first === 116 || first === 84 || first === 102 || first === 70) return 'BOOLEAN';
    const last = data[stop - 1];
    if (last === 105) {
      if (data[start] === 48 && (data[start + 1] === 120 || data[start + 1] === 88)) return 'LONG256';
      return 'LONG';
    }
    if (last === 116 || last === 110) return 'TIMESTAMP';
    if (last === 100) return 'DECIMAL';
    return 'FLOAT';
  }

  private writeScalar(table: IlpTableBuilder, known: IlpColumn | undefined, kind: IlpValueKind, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, start: number, stop: number, position: number): void {
    const column = known ?? this.column(table, data, keyStart, keyEnd, keyEscaped, kind, position);
    if (table.isSet(column)) return;
    switch (kind) {
      case 'BOOLEAN': {
        const value = BOOLEAN_WORDS.get(data.toString('latin1', start, stop));
        if (value === undefined) throw new IlpValueError(`table: ${table.name}, column: ${column.name}; invalid boolean value`);
        writeBoolean(table.name, column, value);
        return;
      }
      case 'LONG':
        parseInt64(data, start, stop - 1, this.scratch);
        writeLong(table.name, column, this.scratch);
        return;
      case 'LONG256':
        writeLong256(table.name, column, data.toString('latin1', start, stop - 1));
        return;
      case 'TIMESTAMP':
        if (column.type === 'TIMESTAMP_NS' && column.builder.kind === 'fixed') {
          appendNanos(column.builder, parseTimestampNanos(data, start, stop - 1, data[stop - 1] === 110 ? 'ns' : 'us'));
          return;
        }
        writeTimestamp(table.name, column, parseTimestampMicros(data, start, stop - 1, data[stop - 1] === 110 ? 'ns' : 'us', this.scratch));
        return;
      case 'DECIMAL': {
        const value = readTextDecimal(table.name, data.toString('latin1', start, stop - 1));
        writeDecimalValue(table.name, column, 'DECIMAL', value.unscaled, value.scale);
        return;
      }
      default:
        writeDouble(table.name, column, parseDouble(data, start, stop));
    }
  }

  /** Protocol 2: `name==` then a type byte and little-endian binary data. */
  private parseBinaryValue(table: IlpTableBuilder, known: IlpColumn | undefined, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, at: number, position: number): number {
    if (at >= data.length) return INCOMPLETE;
    const type = data[at];
    if (type === BINARY_ARRAY) return this.parseBinaryArray(table, known, data, keyStart, keyEnd, keyEscaped, at, position);
    if (type === BINARY_DECIMAL) return this.parseBinaryDecimal(table, known, data, keyStart, keyEnd, keyEscaped, at, position);
    if (type !== BINARY_DOUBLE) throw new IlpValueError(`table: ${table.name}; unknown binary field type ${String(type)}`);
    const after = at + 9;
    if (after >= data.length) return INCOMPLETE;
    this.checkDelimiter(table, data[after]);
    const column = known ?? this.column(table, data, keyStart, keyEnd, keyEscaped, 'FLOAT', position);
    if (!table.isSet(column)) writeDouble(table.name, column, data.readDoubleLE(at + 1));
    return after;
  }

  /** Protocol 2 array: type byte 14, element type, dimension count, uint32 length per dimension, LE elements. */
  private parseBinaryArray(table: IlpTableBuilder, known: IlpColumn | undefined, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, at: number, position: number): number {
    const header = readIlpArrayHeader(table.name, data, at);
    if (header === undefined) return INCOMPLETE;
    const after = header.valuesStart + 8 * header.elementCount;
    if (after >= data.length) return INCOMPLETE;
    this.checkDelimiter(table, data[after]);
    // A NULL array has no dimensionality: it creates a one-dimensional column when the field is new.
    const type = header.shape.length === 0 ? undefined : arrayTypeOf(header.shape.length);
    const column = known ?? this.columnOfType(table, data, keyStart, keyEnd, keyEscaped, type ?? arrayTypeOf(1), position);
    if (!table.isSet(column)) writeArray(table.name, column, type, header.shape, data, header.valuesStart);
    return after;
  }

  /** Protocol 3 decimal: type byte 23, scale, length, the unscaled value big-endian (length 0: null). */
  private parseBinaryDecimal(table: IlpTableBuilder, known: IlpColumn | undefined, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, at: number, position: number): number {
    const value = readBinaryDecimal(table.name, data, at);
    if (value === undefined || value.end >= data.length) return INCOMPLETE;
    this.checkDelimiter(table, data[value.end]);
    const column = known ?? this.column(table, data, keyStart, keyEnd, keyEscaped, 'DECIMAL', position);
    if (!table.isSet(column)) writeDecimalValue(table.name, column, 'DECIMAL', value.unscaled, value.scale);
    return value.end;
  }

  private checkDelimiter(table: IlpTableBuilder, code: number): void {
    if (code !== COMMA && code !== SPACE && code !== LF && code !== CR) throw new IlpValueError(`table: ${table.name}; unexpected character after a field value`);
  }

  private parseTimestamp(table: IlpTableBuilder, data: Buffer, start: number): number {
    const common = table.nanosTimestamp ? -1 : nanosDigitsLineEnd(data, start, this.options.precision === 'ns');
    const commonMicros = common < 0 ? -1 : nanosDigitsMicros(this.view, data, start);
    if (commonMicros >= 0) return this.finishRow(table, data, common, commonMicros);
    const plain = table.nanosTimestamp ? -1 : this.plainNanosEnd(data, start);
    // Microseconds past 2^53 are refused by the general path, with its error text.
    const plainMicros = plain < 0 ? -1 : digitsValue(data, start, this.plainDigitsEnd - 3);
    if (plainMicros >= 0 && plainMicros <= Number.MAX_SAFE_INTEGER) return this.finishRow(table, data, plain, plainMicros);
    let at = start;
    for (; at < data.length; at++) {
      const code = data[at];
      if (code === LF || code === CR) break;
      if (code === SPACE) throw new IlpValueError(`table: ${table.name}; unexpected text after the timestamp`);
    }
    if (at >= data.length) return INCOMPLETE;
    if (at === start) throw new IlpValueError(`table: ${table.name}; timestamp is missing after the space`);
    const suffix = data[at - 1];
    if (table.nanosTimestamp) return this.finishNanosRow(table, data, start, at, suffix);
    const micros = suffix === 110 ? parseTimestampMicros(data, start, at - 1, 'ns', this.scratch)
      : suffix === 116 ? parseTimestampMicros(data, start, at - 1, 'us', this.scratch)
        : parseTimestampMicros(data, start, at, this.options.precision, this.scratch);
    if (micros < 0) throw new IlpValueError(`table: ${table.name}; designated timestamp before 1970-01-01 is not supported`);
    return this.finishRow(table, data, at, micros);
  }

  /**
   * Where the line break after a plain nanosecond timestamp at `start` is (digits only, `n` or no suffix with
   * nanosecond precision, its microseconds below 2^53), or -1 for the general path; sets plainDigitsEnd.
   */
  private plainNanosEnd(data: Buffer, start: number): number {
    const stop = digitsEnd(data, start);
    this.plainDigitsEnd = stop;
    if (stop - start <= 3 || stop - start > NANOS_DIGITS_MAX) return -1;
    const suffixed = data[stop] === 110;
    if (!suffixed && this.options.precision !== 'ns') return -1;
    const lineEnd = suffixed ? stop + 1 : stop;
    const code = data[lineEnd];
    return lineEnd < data.length && (code === LF || code === CR) ? lineEnd : -1;
  }

  /** The line timestamp of a TIMESTAMP_NS table, kept to the nanosecond, then the row closed. */
  private finishNanosRow(table: IlpTableBuilder, data: Buffer, start: number, at: number, suffix: number | undefined): number {
    const nanos = suffix === 110 ? parseTimestampNanos(data, start, at - 1, 'ns')
      : suffix === 116 ? parseTimestampNanos(data, start, at - 1, 'us')
        : parseTimestampNanos(data, start, at, this.options.precision);
    if (nanos < 0n) throw new IlpValueError(`table: ${table.name}; designated timestamp before 1970-01-01 is not supported`);
    const next = this.endOfLine(data, at);
    if (next !== INCOMPLETE) table.endRowNanos(nanos);
    return next;
  }

  /** Closes the row at the line break `at` (the server's clock when `micros` is NaN). */
  private finishRow(table: IlpTableBuilder, data: Buffer, at: number, micros: number): number {
    const next = this.endOfLine(data, at);
    if (next !== INCOMPLETE) table.endRow(micros === micros ? micros : this.options.nowMicros());
    return next;
  }

  /** Past the line break at `at` (LF or CR LF); counts the line. */
  private endOfLine(data: Buffer, at: number): number {
    if (data[at] === CR) {
      if (at + 1 >= data.length) return INCOMPLETE;
      if (data[at + 1] !== LF) throw new IlpValueError('carriage return without a line feed');
      this.lines++;
      return at + 2;
    }
    this.lines++;
    return at + 1;
  }

  private column(table: IlpTableBuilder, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, kind: IlpValueKind, position: number): IlpColumn {
    const type = kind === 'TIMESTAMP' && this.options.nanosTimestamps === true ? 'TIMESTAMP_NS' : NEW_COLUMN_TYPE[kind];
    return this.columnOfType(table, data, keyStart, keyEnd, keyEscaped, type, position);
  }

  /** The field's column, created with `type` when the table has no such column. */
  private columnOfType(table: IlpTableBuilder, data: Buffer, keyStart: number, keyEnd: number, keyEscaped: boolean, type: ColumnType, position: number): IlpColumn {
    if (!keyEscaped) {
      const found = table.findByBytes(data, keyStart, keyEnd, position);
      if (found !== undefined) return found;
    }
    const name = unescapedString(data, keyStart, keyEnd, keyEscaped, false);
    return table.findOrAdd(name, Buffer.from(data.subarray(keyStart, keyEnd)), type, position);
  }

  private tableFor(data: Buffer, start: number, end: number, escaped: boolean): IlpTableBuilder {
    const last = this.lastTable;
    if (last !== undefined && !escaped && bytesEqual(last.nameBytes, data, start, end)) return last;
    const name = unescapedString(data, start, end, escaped, false);
    let table = this.tablesByName.get(name.toLowerCase());
    if (table === undefined) table = this.openTable(name, Buffer.from(data.subarray(start, end)));
    this.lastTable = table;
    return table;
  }

  private openTable(name: string, nameBytes: Buffer): IlpTableBuilder {
    if (!isValidTableName(name)) throw new IlpValueError(`table: ${name}; invalid table name`);
    if (this.tablesByName.size >= this.options.tablesMax) throw new IlpValueError(`one request may write at most ${this.options.tablesMax} tables`);
    const meta = this.options.lookupTable(name);
    if (meta === undefined && !this.options.autoCreateTables) throw new IlpValueError(`table: ${name}; table does not exist, creating new tables is disabled`);
    const table = new IlpTableBuilder(meta?.name ?? name, nameBytes, meta, {
      autoCreateColumns: this.options.autoCreateColumns, nanosTimestamps: this.options.nanosTimestamps === true, rowsHint: this.options.rowsHint?.(name) ?? 0,
    });
    this.tablesByName.set(name.toLowerCase(), table);
    return table;
  }
}

