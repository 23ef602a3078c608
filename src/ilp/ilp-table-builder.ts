// The rows one request sends to one table, in column form. Columns are the table's existing ones (their
// types fixed by the catalog snapshot the request started from) or new ones (typed by their first value).
// Rows are opened and closed one at a time: a value set twice in a row keeps the first (QuestDB's rule),
// columns a row leaves out get nulls, and an unfinished row can be cut off again.
import { appendNanos } from './ilp-nanos.js';
import type { ColumnType } from '../types/column-type.js';
import type { TableMeta } from '../storage/table-meta.js';
import { FixedColumnBuilder, VarColumnBuilder } from './column-builder.js';
import { SymbolColumnBuilder } from './symbol-column-builder.js';
import { storageWidthBytes } from '../types/column-type.js';
import { isTextCodedType } from '../types/coded-columns.js';
import { IlpValueError } from './ilp-errors.js';
import type { IncomingChunk } from '../storage/symbol-ids.js';
import { assert } from '../core/assert.js';
import { isUtf8 } from 'node:buffer';
import { isDecimalType } from '../types/decimal.js';
import { TagSetCache } from './tag-set-cache.js';

/** Name of the designated timestamp of a table the line protocol creates. */
export const ILP_TIMESTAMP_COLUMN = 'timestamp';
/** A backslash, the escape character of names. */
const BACKSLASH = 92;
/** QuestDB's cairo.max.file.name.length, which bounds column names too. */
const COLUMN_NAME_LENGTH_MAX = 127;
/** Characters QuestDB refuses in column names (they would break SQL or file names). */
const COLUMN_NAME_FORBIDDEN = /[\u0000-\u001f.?,'"\\/:()+\-*%~\u007f\ufeff]/;

export function isValidIlpColumnName(name: string): boolean {
  return name.length > 0 && name.length <= COLUMN_NAME_LENGTH_MAX && !COLUMN_NAME_FORBIDDEN.test(name);
}

export type ColumnBuilder = FixedColumnBuilder | VarColumnBuilder | SymbolColumnBuilder;

/** SYMBOL values travel as dictionary ids; variable-size types and UUID-like ones (encoded at commit) as text. */
function createColumnBuilder(type: ColumnType, rows: number): ColumnBuilder {
  if (type === 'SYMBOL') return new SymbolColumnBuilder(type, rows);
  if (storageWidthBytes(type) === 0 || isTextCodedType(type)) return new VarColumnBuilder(type, rows);
  return new FixedColumnBuilder(type, rows);
}

export interface IlpColumn {
  readonly name: string;
  /** The name's bytes as the last line spelled it, for the byte-compare fast path. */
  readonly nameBytes: Buffer;
  /** nameBytes four at a time (little-endian, the last partial word left out), for the key compare of each line. */
  readonly nameWords: Int32Array;
  /** nameBytes hold a backslash: a key matched through them was escaped (the tag-set cache records no escape). */
  readonly nameEscaped: boolean;
  readonly type: ColumnType;
  /** Added by this request (not in the catalog snapshot it started from). */
  readonly isNew: boolean;
  /** The type is a DECIMAL: decided once here, as a regular expression per value cost 1.4% of a worker's time. */
  readonly isDecimal: boolean;
  readonly builder: ColumnBuilder;
  /** Which plain-value reader of ilp-fast-values.ts fits the column (a fixed LONG or DOUBLE one), decided once. */
  readonly plainKind: PlainValueKind;
}

/** 0: every value takes the general path; 1: a plain integer fits; 2: a plain decimal fits. */
export type PlainValueKind = 0 | 1 | 2;
export const PLAIN_NONE = 0;
export const PLAIN_LONG = 1;
export const PLAIN_DOUBLE = 2;

function wordsOf(bytes: Buffer): Int32Array {
  const words = new Int32Array(bytes.length >> 2);
  for (let k = 0; k < words.length; k++) words[k] = bytes.readInt32LE(k * 4);
  return words;
}

function plainKindOf(type: ColumnType, builder: ColumnBuilder): PlainValueKind {
  if (builder.kind !== 'fixed') return PLAIN_NONE;
  return type === 'LONG' ? PLAIN_LONG : type === 'DOUBLE' ? PLAIN_DOUBLE : PLAIN_NONE;
}

export interface IlpTableOptions {
  readonly autoCreateColumns: boolean;
  /** A table this request creates gets a TIMESTAMP_NS designated timestamp. */
  readonly nanosTimestamps?: boolean;
  /** Rows the column builders start with room for (the rows the table's last commit unit held, bounded). */
  readonly rowsHint?: number;
}

export class IlpTableBuilder {
  readonly columns: IlpColumn[] = [];
  private readonly byName = new Map<string, IlpColumn>();
  /** Existing columns not used yet by this request, by lower-case name. */
  private readonly existing = new Map<string, ColumnType>();
  /** The designated timestamp column, always written. Undefined for a table without one. */
  readonly timestamp: FixedColumnBuilder | undefined;
  readonly timestampName: string | undefined;
  /** The designated timestamp is TIMESTAMP_NS: line timestamps are kept to the nanosecond. */
  readonly nanosTimestamp: boolean = false;
  /** The column found at each field position of the previous line: lines of one client repeat their order. */
  private readonly fieldOrder: (IlpColumn | undefined)[] = [];
  rowCount = 0;
  /** Tag sections of earlier lines, replayed when a line repeats one; cleared when the ids they hold may go stale. */
  readonly tagSets = new TagSetCache();

  /** `meta` undefined: a table this request creates. */
  constructor(readonly name: string, readonly nameBytes: Buffer, readonly meta: TableMeta | undefined, private readonly options: IlpTableOptions) {
    if (meta === undefined) {
      this.timestampName = ILP_TIMESTAMP_COLUMN;
      this.timestamp = new FixedColumnBuilder('TIMESTAMP', options.rowsHint);
      this.nanosTimestamp = options.nanosTimestamps === true;
      return;
    }
    for (const column of meta.columns) this.existing.set(column.name.toLowerCase(), column.type);
    const designated = meta.columns[meta.timestampIndex];
    this.timestampName = designated?.name;
    this.timestamp = designated === undefined ? undefined : new FixedColumnBuilder('TIMESTAMP', options.rowsHint);
    this.nanosTimestamp = designated?.type === 'TIMESTAMP_NS';
  }

  get isNew(): boolean {
    return this.meta === undefined;
  }

  /**
   * The column named by bytes [start, end) of `bytes` at field position `position` of the line, or undefined
   * when the name is new (the caller then calls addColumn with the decoded name).
   */
  findByBytes(bytes: Uint8Array, start: number, end: number, position: number): IlpColumn | undefined {
    const guess = this.fieldOrder[position];
    if (guess !== undefined && bytesEqual(guess.nameBytes, bytes, start, end)) return guess;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
    const name = view.toString('utf8');
    // Invalid UTF-8 decodes to U+FFFD and would match a column really named so: the decoding path refuses it.
    if (name.includes('\ufffd') && !isUtf8(view)) return undefined;
    const found = this.byName.get(name.toLowerCase());
    if (found !== undefined) this.fieldOrder[position] = found;
    return found;
  }

  /** The column found at field position `position` of the previous line, if any: the likely one of this line. */
  guessAt(position: number): IlpColumn | undefined {
    return this.fieldOrder[position];
  }

  /** The column of a decoded name (escaped names take this path), creating its builder on first use. */
  findOrAdd(name: string, nameBytes: Buffer, valueType: ColumnType, position: number): IlpColumn {
    const lower = name.toLowerCase();
    let column = this.byName.get(lower);
    if (column === undefined) column = this.addColumn(name, lower, nameBytes, valueType);
    this.fieldOrder[position] = column;
    return column;
  }

  private addColumn(name: string, lower: string, nameBytes: Buffer, valueType: ColumnType): IlpColumn {
    if (this.timestampName !== undefined && lower === this.timestampName.toLowerCase()) {
      throw new IlpValueError(`table: ${this.name}, column: ${name}; the designated timestamp is set by the line's timestamp, not by a field`);
    }
    const existingType = this.existing.get(lower);
    if (existingType === undefined) {
      if (!this.options.autoCreateColumns && !this.isNew) throw new IlpValueError(`table: ${this.name}, column: ${name}; column does not exist, creating new columns is disabled`);
      if (!isValidIlpColumnName(name)) throw new IlpValueError(`table: ${this.name}; invalid column name: ${name}`);
    }
    const type = existingType ?? valueType;
    const builder = createColumnBuilder(type, Math.max(this.rowCount + 1, this.options.rowsHint ?? 0));
    for (let row = 0; row < this.rowCount; row++) builder.appendNull();
    const column: IlpColumn = { name: existingType === undefined ? name : this.existingName(lower, name), nameBytes, nameWords: wordsOf(nameBytes), nameEscaped: nameBytes.includes(BACKSLASH), type, isNew: existingType === undefined, isDecimal: isDecimalType(type), builder, plainKind: plainKindOf(type, builder) };
    this.columns.push(column);
    this.byName.set(lower, column);
    return column;
  }

  private existingName(lower: string, fallback: string): string {
    return this.meta?.columns.find((column) => column.name.toLowerCase() === lower)?.name ?? fallback;
  }

  /** Whether `column` already has a value in the row being built (a repeated field name: the first wins). */
  isSet(column: IlpColumn): boolean {
    return column.builder.length > this.rowCount;
  }

  /** Closes the row: the designated timestamp is written and every column it left out gets a null. */
  endRow(timestampMicros: number): void {
    const timestamp = this.timestamp;
    if (timestamp !== undefined && this.nanosTimestamp) {
      appendNanos(timestamp, BigInt(timestampMicros) * 1000n);
    } else if (timestamp !== undefined) {
      const index = timestamp.next();
      const high = Math.floor(timestampMicros / 4294967296);
      timestamp.i32[index * 2] = (timestampMicros - high * 4294967296) | 0;
      timestamp.i32[index * 2 + 1] = high | 0;
    }
    this.closeRow();
  }

  /** Closes the row of a TIMESTAMP_NS table with its exact line timestamp. */
  endRowNanos(timestampNanos: bigint): void {
    if (this.timestamp !== undefined) appendNanos(this.timestamp, timestampNanos);
    this.closeRow();
  }

  /** Every column the row left out gets a null. */
  private closeRow(): void {
    const row = this.rowCount;
    const columns = this.columns;
    for (let k = 0; k < columns.length; k++) {
      const builder = columns[k].builder;
      if (builder.length === row) builder.appendNull();
    }
    this.rowCount = row + 1;
  }

  /** Forgets the values of the row being built (its line continues in the next chunk of the body). */
  discardRow(): void {
    const rows = this.rowCount;
    for (const column of this.columns) {
      const builder = column.builder;
      if (builder.length > rows) builder.truncate(rows);
    }
    // Values this row added to a dictionary are gone: a tag set it recorded may hold their ids.
    this.tagSets.discardLine();
    if (this.timestamp !== undefined && this.timestamp.length > rows) this.timestamp.truncate(rows);
  }

  /** Empties every column (its rows went to the staged file), keeping the columns and their types. */
  reset(): void {
    for (const column of this.columns) column.builder.truncate(0);
    this.tagSets.clear();
    this.timestamp?.truncate(0);
    this.rowCount = 0;
  }

  /** Gives every column's buffers back to the pool (the rows were staged); the builder is not used again. */
  release(): void {
    for (const column of this.columns) column.builder.release();
    this.timestamp?.release();
    this.tagSets.clear();
    this.rowCount = 0;
  }

  sizeBytes(): number {
    let total = this.timestamp === undefined ? 0 : this.timestamp.sizeBytes();
    for (const column of this.columns) total += column.builder.sizeBytes();
    return total;
  }

  /** The rows as a chunk of the columns this request wrote: the designated timestamp first, then `columns`. */
  toChunk(): IncomingChunk {
    for (const column of this.columns) assert(column.builder.length === this.rowCount, 'every built column holds one value per row');
    const data = this.columns.map((column) => column.builder.toColumnData());
    return { rowCount: this.rowCount, columns: this.timestamp === undefined ? data : [this.timestamp.toColumnData(), ...data] };
  }
}

/** Whether bytes [start, end) spell `name` exactly. */
export function bytesEqual(name: Buffer, bytes: Uint8Array, start: number, end: number): boolean {
  const length = name.length;
  if (end - start !== length) return false;
  for (let k = 0; k < length; k++) if (name[k] !== bytes[start + k]) return false;
  return true;
}
