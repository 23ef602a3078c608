// The header rule where types are declared (an existing table, or a `schema` part): the first line is a header
// when it names the declared columns, or when one of its values does not parse as its column's declared type
// (the bad values of later lines are then the atomicity mode's to handle). Detection alone cannot see either:
// a bad value later in the file makes a column text-like with and without the first line. When nothing
// declares types this rule is not consulted, so detection decides as before.
import type { ColumnType } from '../types/column-type.js';
import type { CsvLexer } from './csv-lexer.js';
import type { ImportSchema } from './schema-part.js';
import { generatedColumnName, sanitizeColumnName } from './import-names.js';
import { compileImportTimestampPattern } from './timestamp-pattern.js';
import { parseIsoTimestampBytes } from './iso-timestamp.js';
import { DEFAULT_DATE_PATTERNS, DEFAULT_TIMESTAMP_PATTERNS, EXTRA_TIMESTAMP_PATTERNS } from './detect-format.js';
import {
  decodeField, isNanLiteral, parseBooleanBytes, parseDoubleBytes, parseIntBytes, parseIpv4Bytes, parseLongBigBytes,
  parseLongBytes, parseUuidBytes,
} from './value-parsers.js';
import { parseLong256 } from '../types/long256.js';

export interface DeclaredTypes {
  readonly existingColumns?: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>;
  readonly schema?: ImportSchema;
}

/** A declared column as the rule sees it: where it sits in the file (if known), its name and type. */
interface DeclaredColumn {
  readonly index?: number;
  readonly name?: string;
  readonly type: ColumnType;
  readonly patterns: ReadonlyArray<string>;
}

/** True when declared types make the lexer's first row a header; false when nothing declares types or the rule does not hold. */
export function isDeclaredHeader(buf: Uint8Array, lexer: CsvLexer, declared: DeclaredTypes): boolean {
  if (lexer.rowCount === 0 || lexer.rowRecord[0] !== 1) return false;
  const columns = declaredColumns(declared);
  if (columns.length === 0) return false;
  const cells: string[] = [];
  for (let c = 0; c < lexer.width; c++) cells.push(sanitizeColumnName(decodeField(buf, lexer.fieldStart[c], lexer.fieldEnd[c], lexer.fieldEscaped[c])).toLowerCase());
  if (namesDeclaredColumns(cells, columns, declared.existingColumns !== undefined)) return true;
  return columns.some((column) => {
    // Without a header, a column declared by name sits where its generated name (f0, f1, …) says.
    const index = column.index ?? cells.findIndex((_, c) => generatedColumnName(c).toLowerCase() === column.name?.toLowerCase());
    if (index < 0 || index >= lexer.width) return false;
    const s = lexer.fieldStart[index];
    const e = lexer.fieldEnd[index];
    return s !== e && !parsesAs(column, buf, s, e);
  });
}

function declaredColumns(declared: DeclaredTypes): DeclaredColumn[] {
  if (declared.existingColumns !== undefined) {
    return declared.existingColumns.map((column, index) => ({ index, name: column.name, type: column.type, patterns: [] }));
  }
  return (declared.schema?.columns ?? []).map((column) => ({
    ...(column.index === undefined ? {} : { index: column.index }), ...(column.name === undefined ? {} : { name: column.name }),
    type: column.type, patterns: column.patterns,
  }));
}

/**
 * A table's columns are named when every cell of the first line is a distinct column name of the table; a
 * schema's when every column it declares by name is a cell of the first line.
 */
function namesDeclaredColumns(cells: readonly string[], columns: readonly DeclaredColumn[], table: boolean): boolean {
  const names = columns.flatMap((column) => (column.name === undefined ? [] : [sanitizeColumnName(column.name).toLowerCase()]));
  if (names.length === 0) return false;
  if (!table) return names.every((name) => cells.includes(name));
  return cells.every((cell, c) => cell !== '' && names.includes(cell) && cells.indexOf(cell) === c);
}

function parsesAs(column: DeclaredColumn, buf: Uint8Array, s: number, e: number): boolean {
  switch (column.type) {
    case 'INT': case 'SHORT': case 'BYTE': return integerInRange(column.type, parseIntBytes(buf, s, e));
    case 'LONG': return isLong(buf, s, e);
    case 'DOUBLE': case 'FLOAT': return !Number.isNaN(parseDoubleBytes(buf, s, e)) || isNanLiteral(buf, s, e);
    case 'BOOLEAN': return parseBooleanBytes(buf, s, e) >= 0;
    case 'UUID': return parseUuidBytes(buf, s, e) !== undefined;
    case 'LONG256': return parseLong256(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('latin1')) !== undefined;
    case 'IPV4': return !Number.isNaN(parseIpv4Bytes(buf, s, e));
    case 'DATE': case 'TIMESTAMP': return parsesAsTemporal(column.patterns, buf, s, e);
    // Text takes any value; other types are not judged from text.
    default: return true;
  }
}

function isLong(buf: Uint8Array, s: number, e: number): boolean {
  return !Number.isNaN(parseLongBytes(buf, s, e)) || parseLongBigBytes(buf, s, e) !== undefined;
}

function integerInRange(type: ColumnType, value: number): boolean {
  if (Number.isNaN(value)) return false;
  if (type === 'SHORT') return value >= -32768 && value <= 32767;
  if (type === 'BYTE') return value >= -128 && value <= 127;
  return true;
}

/**
 * A timestamp as every import reads one: ISO-8601, an epoch number, or one of the declared or default
 * formats. Generous on purpose: a data line mistaken for a header would be lost.
 */
function parsesAsTemporal(patterns: ReadonlyArray<string>, buf: Uint8Array, s: number, e: number): boolean {
  if (!Number.isNaN(parseIsoTimestampBytes(buf, s, e)) || isLong(buf, s, e)) return true;
  const candidates = [...patterns, ...DEFAULT_DATE_PATTERNS, ...DEFAULT_TIMESTAMP_PATTERNS, ...EXTRA_TIMESTAMP_PATTERNS];
  return candidates.some((pattern) => !Number.isNaN(compileImportTimestampPattern(pattern).parseBytes(buf, s, e)));
}
