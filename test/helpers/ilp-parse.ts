// Drives IlpParser directly for the unit tests: parser options with a fixed clock, hand-built TableMeta for
// tables that "exist", bodies fed whole or cut into chunks, and the built columns decoded back from their
// storage bytes (little-endian fixed-width values, [int32 length][utf8] records) into plain values to compare.
import { IlpParser, type IlpParserOptions } from '../../src/ilp/line-parser.js';
import { IlpError } from '../../src/ilp/ilp-errors.js';
import type { IlpTableBuilder } from '../../src/ilp/ilp-table-builder.js';
import type { ColumnMeta, TableMeta } from '../../src/storage/table-meta.js';
import type { ColumnData } from '../../src/storage/row-chunk.js';
import { symbolIdsToText, type IncomingColumnData } from '../../src/storage/symbol-ids.js';
import type { ColumnType } from '../../src/types/column-type.js';

/** The server clock the parser sees: rows without a timestamp get this one. */
export const FIXED_NOW_MICROS = 1_700_000_000_123_456;
const INT64_NULL = -(2n ** 63n);
const INT32_NULL = -2147483648;

export type CellValue = bigint | number | boolean | string | null;

export interface ParsedColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly values: CellValue[];
}

export interface ParsedTable {
  readonly name: string;
  readonly rowCount: number;
  /** The designated timestamp of each row in µs (empty for a table without one). */
  readonly timestamps: number[];
  readonly columns: ParsedColumn[];
}

export type ParseOutcome = { readonly tables: ParsedTable[] } | { readonly error: IlpError };

export function parserOptions(overrides: Partial<IlpParserOptions> = {}): IlpParserOptions {
  return {
    precision: 'ns', lineBytesMax: 4096, autoCreateTables: true, autoCreateColumns: true, tablesMax: 100,
    lookupTable: () => undefined, nowMicros: () => FIXED_NOW_MICROS, ...overrides,
  };
}

/** A committed table as the catalog would describe it; `timestampName` names the designated timestamp among `columns`. */
export function tableMeta(name: string, columns: readonly (readonly [string, ColumnType])[], timestampName?: string): TableMeta {
  const metas = columns.map(([column, type]): ColumnMeta => ({ name: column, type, fileStem: column, indexed: false, symbolCapacity: 256 }));
  const timestampIndex = timestampName === undefined ? -1 : metas.findIndex((column) => column.name === timestampName);
  return {
    formatVersion: 1, tableId: 1, name, columns: metas, timestampIndex, partitionBy: timestampIndex < 0 ? 'NONE' : 'DAY',
    walEnabled: timestampIndex >= 0, structureVersion: 0, maxUncommittedRows: 1000, o3MaxLagMs: 1000, dedupKeys: [],
  };
}

/** lookupTable for a fixed set of existing tables (case-insensitive, as the catalog resolves names). */
export function existingTables(...metas: TableMeta[]): (name: string) => TableMeta | undefined {
  return (name) => metas.find((meta) => meta.name.toLowerCase() === name.toLowerCase());
}

/** Concatenates text (UTF-8) and raw byte parts into one body. */
export function bytesOf(...parts: readonly (string | Uint8Array)[]): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
}

/** Protocol 2's binary double after `name==`: type byte 16 and the value's 8 little-endian bytes. */
export function binaryDouble(value: number): Buffer {
  const bytes = Buffer.alloc(9);
  bytes[0] = 16;
  bytes.writeDoubleLE(value, 1);
  return bytes;
}

/** A double whose little-endian bytes contain 0x0A (a line feed), 0x20, 0x2C and 0x3D: delimiters inside the value. */
export function doubleWithDelimiterBytes(): number {
  return Buffer.from([0x0a, 0x20, 0x2c, 0x3d, 0x22, 0x5c, 0x0d, 0x40]).readDoubleLE(0);
}

/** Feeds the chunks in order, then ends the body; IlpError becomes the outcome, anything else is rethrown. */
/**
 * Parses the chunks and decodes the tables; the builders' buffers then go back to the process's pool, as a
 * request's do, so each parse of a test file builds into memory earlier parses filled.
 */
export function parseChunks(chunks: readonly Uint8Array[], overrides: Partial<IlpParserOptions> = {}): ParseOutcome {
  const parser = new IlpParser(parserOptions(overrides));
  try {
    for (const chunk of chunks) parser.feed(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    parser.finish();
    return { tables: parser.tables().map(decodeTable) };
  } catch (error) {
    if (error instanceof IlpError) return { error };
    throw error;
  } finally {
    parser.release();
  }
}

export function parseBody(body: string | Uint8Array, overrides: Partial<IlpParserOptions> = {}): ParseOutcome {
  return parseChunks([typeof body === 'string' ? Buffer.from(body, 'utf8') : body], overrides);
}

/** The tables a valid body builds; fails with the parser's message when the body is refused. */
export function parsedTables(body: string | Uint8Array, overrides: Partial<IlpParserOptions> = {}): ParsedTable[] {
  const outcome = parseBody(body, overrides);
  if ('error' in outcome) throw new Error(`expected the body to parse, got line ${outcome.error.line}: ${outcome.error.message}`);
  return outcome.tables;
}

/** The one table a valid body builds. */
export function parsedTable(body: string | Uint8Array, overrides: Partial<IlpParserOptions> = {}): ParsedTable {
  const tables = parsedTables(body, overrides);
  if (tables.length !== 1) throw new Error(`expected one table, got ${tables.length}`);
  return tables[0] as ParsedTable;
}

/** The error a bad body raises; fails when the body is accepted. */
export function parseError(body: string | Uint8Array, overrides: Partial<IlpParserOptions> = {}): IlpError {
  const outcome = parseBody(body, overrides);
  if (!('error' in outcome)) throw new Error('expected the body to be refused');
  return outcome.error;
}

/** Values of column `name` of a parsed table; fails when the table has no such column. */
export function columnValues(table: ParsedTable, name: string): CellValue[] {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (column === undefined) throw new Error(`no column ${name} in ${table.name} (${table.columns.map((c) => c.name).join(', ')})`);
  return column.values;
}

/** Name and type of every column the request wrote, in the order it met them. */
export function columnTypes(table: ParsedTable): [string, ColumnType][] {
  return table.columns.map((column) => [column.name, column.type]);
}

function decodeTable(table: IlpTableBuilder): ParsedTable {
  const chunk = table.toChunk();
  const data = [...chunk.columns];
  const timestamps = table.timestamp === undefined ? [] : decodeTimestamps(plainColumn(data.shift() as IncomingColumnData), chunk.rowCount);
  const columns = table.columns.map((column, k): ParsedColumn => ({
    name: column.name, type: column.type, values: decodeColumn(plainColumn(data[k] as IncomingColumnData), column.type, chunk.rowCount),
  }));
  return { name: table.name, rowCount: chunk.rowCount, timestamps, columns };
}

/** SYMBOL columns travel as dictionary ids: the tests read them as the text they stand for. */
function plainColumn(data: IncomingColumnData): ColumnData {
  return data.kind === 'symbolIds' ? symbolIdsToText(data) : data;
}

function decodeTimestamps(data: ColumnData, rowCount: number): number[] {
  const values: number[] = [];
  if (data.kind !== 'fixed') throw new Error('the designated timestamp is fixed-width');
  for (let row = 0; row < rowCount; row++) values.push(Number(data.bytes.readBigInt64LE(row * 8)));
  return values;
}

/** Storage bytes → values: INT64 and INT32 null sentinels become null; NaN stays NaN (DOUBLE's null). */
export function decodeColumn(data: ColumnData, type: ColumnType, rowCount: number): CellValue[] {
  const values: CellValue[] = [];
  for (let row = 0; row < rowCount; row++) values.push(data.kind === 'var' ? decodeVarValue(data.bytes, data.offsets, row) : decodeFixedValue(data.bytes, type, row));
  return values;
}

function decodeVarValue(bytes: Buffer, offsets: Float64Array, row: number): string | null {
  const start = offsets[row] as number;
  const length = bytes.readInt32LE(start);
  if (length < 0) return null;
  if (start + 4 + length !== offsets[row + 1]) throw new Error(`record ${row} does not end where the next begins`);
  return bytes.toString('utf8', start + 4, start + 4 + length);
}

function decodeFixedValue(bytes: Buffer, type: ColumnType, row: number): CellValue {
  switch (type) {
    case 'BOOLEAN': return bytes[row] !== 0;
    case 'BYTE': return bytes.readInt8(row);
    case 'SHORT': return bytes.readInt16LE(row * 2);
    case 'CHAR': return String.fromCharCode(bytes.readUInt16LE(row * 2));
    case 'INT': {
      const value = bytes.readInt32LE(row * 4);
      return value === INT32_NULL ? null : value;
    }
    case 'FLOAT': return bytes.readFloatLE(row * 4);
    case 'DOUBLE': return bytes.readDoubleLE(row * 8);
    case 'LONG': case 'DATE': case 'TIMESTAMP': {
      const value = bytes.readBigInt64LE(row * 8);
      return value === INT64_NULL ? null : value;
    }
    default: throw new Error(`no decoder for ${type} in the ILP tests`);
  }
}
