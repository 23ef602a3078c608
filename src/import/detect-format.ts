// Header and column type detection over the analysed lines, after QuestDB's TextMetadataDetector: every
// probe (type test) is tried on every value; a column takes the first probe, in priority order, that accepts
// all of its non-blank values; otherwise it is VARCHAR. The first line is a header when the columns are all
// text-like (VARCHAR or CHAR) with it but not all text-like without it, or when forceHeader says so.
// SYMBOL is never detected (QuestDB has no SYMBOL probe): a column becomes SYMBOL only through the schema.
import type { ColumnType } from '../types/column-type.js';
import type { CsvLexer } from './csv-lexer.js';
import { resolveColumnNames } from './import-names.js';
import { compileImportTimestampPattern } from './timestamp-pattern.js';
import type { ImportSchema } from './schema-part.js';
import {
  decodeField, isNanLiteral, parseBooleanBytes, parseDoubleBytes, parseIntBytes, parseIpv4Bytes, parseLongBigBytes,
  parseLongBytes, parseUuidBytes,
} from './value-parsers.js';

export { sanitizeColumnName, sanitizeTableName } from './import-names.js';

export interface TypeProbe {
  readonly type: ColumnType;
  /** DATE/TIMESTAMP probes: the pattern the column is then parsed with. */
  readonly pattern?: string;
  matches(buf: Uint8Array, s: number, e: number): boolean;
}

export interface DetectedColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly pattern?: string;
}

export interface DetectedFormat {
  readonly header: boolean;
  readonly columns: ReadonlyArray<DetectedColumn>;
}

/** QuestDB's default text_loader.json date formats, probed in this order before any timestamp format. */
export const DEFAULT_DATE_PATTERNS = ['dd/MM/y', 'yyyy-MM-dd HH:mm:ss', 'yyyy-MM-ddTHH:mm:ss.SSSz', 'MM/dd/y'];
/** QuestDB's default timestamp formats. */
export const DEFAULT_TIMESTAMP_PATTERNS = ['yyyy-MM-ddTHH:mm:ss.SSSUUUz', 'yyyy-MM-ddTHH:mm:ss.SSSUUUNNNz',
  'yyyy-MM-ddTHH:mm:ss.U+', 'yyyy-MM-ddTHH:mm:ss.U+z', 'yyyy-MM-ddTHH:mm:ss.N+', 'yyyy-MM-ddTHH:mm:ss.N+z'];
/** ISO forms QuestDB leaves as VARCHAR that svc also reads as TIMESTAMP; probed after QuestDB's own formats. */
export const EXTRA_TIMESTAMP_PATTERNS = ['yyyy-MM-ddTHH:mm:ssz', 'yyyy-MM-ddTHH:mm:ss', 'yyyy-MM-dd HH:mm:ss.U+',
  'yyyy-MM-dd HH:mm:ss.U+z', 'yyyy-MM-dd HH:mm:ssz'];

/** `0x` and 1 to 64 hex digits (either case): a LONG256. */
function isLong256Bytes(buf: Uint8Array, s: number, e: number): boolean {
  if (e - s < 3 || e - s > 66 || buf[s] !== 0x30 || (buf[s + 1] !== 0x78 && buf[s + 1] !== 0x58)) return false;
  for (let at = s + 2; at < e; at++) {
    const code = buf[at];
    const lower = code | 0x20;
    if (!((code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x66))) return false;
  }
  return true;
}

function isAsciiLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/** The probes in QuestDB's default priority order (GEOHASH is not a default probe there either). */
export function buildTypeProbes(schema: ImportSchema | undefined): TypeProbe[] {
  const probes: TypeProbe[] = [
    { type: 'CHAR', matches: (buf, s, e) => e - s === 1 && isAsciiLetter(buf[s]) },
    { type: 'INT', matches: (buf, s, e) => !Number.isNaN(parseIntBytes(buf, s, e)) },
    { type: 'LONG', matches: (buf, s, e) => !Number.isNaN(parseLongBytes(buf, s, e)) || parseLongBigBytes(buf, s, e) !== undefined },
    { type: 'DOUBLE', matches: (buf, s, e) => !Number.isNaN(parseDoubleBytes(buf, s, e)) || isNanLiteral(buf, s, e) },
    { type: 'BOOLEAN', matches: (buf, s, e) => parseBooleanBytes(buf, s, e) >= 0 },
    { type: 'LONG256', matches: (buf, s, e) => isLong256Bytes(buf, s, e) },
    { type: 'UUID', matches: (buf, s, e) => parseUuidBytes(buf, s, e) !== undefined },
    { type: 'IPV4', matches: (buf, s, e) => !Number.isNaN(parseIpv4Bytes(buf, s, e)) },
  ];
  const replace = schema?.formatsAction === 'REPLACE';
  const datePatterns = [...(replace ? [] : DEFAULT_DATE_PATTERNS), ...(schema?.formats.DATE ?? [])];
  const timestampPatterns = [...(replace ? [] : [...DEFAULT_TIMESTAMP_PATTERNS, ...EXTRA_TIMESTAMP_PATTERNS]),
    ...(schema?.formats.TIMESTAMP ?? [])];
  for (const pattern of datePatterns) probes.push(patternProbe('DATE', pattern));
  for (const pattern of timestampPatterns) probes.push(patternProbe('TIMESTAMP', pattern));
  return probes;
}

function patternProbe(type: 'DATE' | 'TIMESTAMP', pattern: string): TypeProbe {
  const compiled = compileImportTimestampPattern(pattern);
  return { type, pattern, matches: (buf, s, e) => !Number.isNaN(compiled.parseBytes(buf, s, e)) };
}

/** A column's choice: the first probe accepting all its non-blank values, with and without row 0 (-1 = none). */
interface ColumnChoice {
  withFirst: number;
  withoutFirst: number;
}

/** True when probe k accepts every non-blank value of rows 1.. of column c and at least one is non-blank. */
function probeAcceptsRest(buf: Uint8Array, lexer: CsvLexer, c: number, probe: TypeProbe): boolean {
  let values = 0;
  for (let row = 1, slot = lexer.width + c; row < lexer.rowCount; row++, slot += lexer.width) {
    const s = lexer.fieldStart[slot];
    const e = lexer.fieldEnd[slot];
    if (s === e) continue;
    if (!probe.matches(buf, s, e)) return false;
    values++;
  }
  return values > 0;
}

/**
 * Tries the probes in priority order, each scanning rows 1.. only until its first failure, and row 0 only
 * where needed: equivalent to counting every probe on every value (QuestDB's histogram) at a fraction of the cost.
 */
function chooseColumnProbes(buf: Uint8Array, lexer: CsvLexer, c: number, probes: ReadonlyArray<TypeProbe>): ColumnChoice {
  const choice: ColumnChoice = { withFirst: -1, withoutFirst: -1 };
  const s0 = lexer.fieldStart[c];
  const e0 = lexer.fieldEnd[c];
  const firstBlank = s0 === e0;
  for (let k = 0; k < probes.length && (choice.withFirst < 0 || choice.withoutFirst < 0); k++) {
    const firstOk = !firstBlank && probes[k].matches(buf, s0, e0);
    const needWithFirst = choice.withFirst < 0 && (firstOk || firstBlank);
    if (choice.withoutFirst >= 0 && !needWithFirst) continue;
    const restOk = probeAcceptsRest(buf, lexer, c, probes[k]);
    if (restOk && choice.withoutFirst < 0) choice.withoutFirst = k;
    // With row 0 counted, a column whose only non-blank value is row 0 is typed by it alone.
    const restBlank = !restOk && probeAcceptsRestBlank(lexer, c);
    if (needWithFirst && (restOk || (restBlank && firstOk))) choice.withFirst = k;
  }
  return choice;
}

function probeAcceptsRestBlank(lexer: CsvLexer, c: number): boolean {
  for (let row = 1, slot = lexer.width + c; row < lexer.rowCount; row++, slot += lexer.width) {
    if (lexer.fieldStart[slot] !== lexer.fieldEnd[slot]) return false;
  }
  return true;
}

function allTextLike(chosen: Int32Array, probes: ReadonlyArray<TypeProbe>): boolean {
  for (const k of chosen) if (k >= 0 && probes[k].type !== 'CHAR') return false;
  return true;
}

/**
 * Detects header and column types from the rows the lexer holds (row 0 is the file's first record).
 * The returned names are final: cleaned header cells, or generated f0, f1, … without a header.
 */
export function detectFormat(buf: Uint8Array, lexer: CsvLexer, probes: ReadonlyArray<TypeProbe>, forceHeader: boolean): DetectedFormat {
  const width = lexer.width;
  const rowCount = lexer.rowCount;
  const firstRowIsFirstRecord = rowCount > 0 && lexer.rowRecord[0] === 1;
  const withFirst = new Int32Array(width);
  const withoutFirst = new Int32Array(width);
  withFirst.fill(-1);
  withoutFirst.fill(-1);
  for (let c = 0; c < width && rowCount > 0; c++) {
    const choice = chooseColumnProbes(buf, lexer, c, probes);
    withFirst[c] = choice.withFirst;
    withoutFirst[c] = choice.withoutFirst;
  }
  const header = firstRowIsFirstRecord
    && (forceHeader || (allTextLike(withFirst, probes) && !allTextLike(withoutFirst, probes)));
  const chosen = header ? withoutFirst : withFirst;
  const headerCells: string[] = [];
  if (header) {
    for (let c = 0; c < width; c++) {
      headerCells.push(decodeField(buf, lexer.fieldStart[c], lexer.fieldEnd[c], lexer.fieldEscaped[c]));
    }
  }
  const names = resolveColumnNames(header ? headerCells : undefined, width);
  const columns: DetectedColumn[] = [];
  for (let c = 0; c < width; c++) {
    const k = chosen[c];
    if (k < 0) columns.push({ name: names[c], type: 'VARCHAR' });
    else columns.push({ name: names[c], type: probes[k].type, pattern: probes[k].pattern });
  }
  return { header, columns };
}
