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

function isAsciiLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/** The probes in QuestDB's priority order (LONG256 and GEOHASH have no svc type and are left out). */
export function buildTypeProbes(schema: ImportSchema | undefined): TypeProbe[] {
  const probes: TypeProbe[] = [
    { type: 'CHAR', matches: (buf, s, e) => e - s === 1 && isAsciiLetter(buf[s]) },
    { type: 'INT', matches: (buf, s, e) => parseIntBytes(buf, s, e) === parseIntBytes(buf, s, e) },
    { type: 'LONG', matches: (buf, s, e) => parseLongBytes(buf, s, e) === parseLongBytes(buf, s, e) || parseLongBigBytes(buf, s, e) !== undefined },
    { type: 'DOUBLE', matches: (buf, s, e) => parseDoubleBytes(buf, s, e) === parseDoubleBytes(buf, s, e) || isNanLiteral(buf, s, e) },
    { type: 'BOOLEAN', matches: (buf, s, e) => parseBooleanBytes(buf, s, e) >= 0 },
    { type: 'UUID', matches: (buf, s, e) => parseUuidBytes(buf, s, e) !== undefined },
    { type: 'IPV4', matches: (buf, s, e) => parseIpv4Bytes(buf, s, e) === parseIpv4Bytes(buf, s, e) },
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
  return { type, pattern, matches: (buf, s, e) => compiled.parseBytes(buf, s, e) === compiled.parseBytes(buf, s, e) };
}

/** Per column and probe: how many values of rows 1.. matched, whether row 0 matched, and blank counts. */
interface ProbeTally {
  readonly restMatches: Int32Array;
  readonly firstMatches: Uint8Array;
  readonly restBlanks: Int32Array;
  readonly firstBlank: Uint8Array;
}

function tallyProbes(buf: Uint8Array, lexer: CsvLexer, probes: ReadonlyArray<TypeProbe>): ProbeTally {
  const width = lexer.width;
  const probeCount = probes.length;
  const tally: ProbeTally = {
    restMatches: new Int32Array(width * probeCount), firstMatches: new Uint8Array(width * probeCount),
    restBlanks: new Int32Array(width), firstBlank: new Uint8Array(width),
  };
  // A probe that failed on a value of rows 1.. can never be chosen, so it is not tried again.
  const dead = new Uint8Array(width * probeCount);
  for (let row = 0; row < lexer.rowCount; row++) {
    for (let c = 0; c < width; c++) {
      const slot = row * width + c;
      const s = lexer.fieldStart[slot];
      const e = lexer.fieldEnd[slot];
      if (s === e) {
        if (row === 0) tally.firstBlank[c] = 1; else tally.restBlanks[c]++;
        continue;
      }
      for (let k = 0; k < probeCount; k++) {
        const index = c * probeCount + k;
        if (dead[index] === 1) continue;
        const ok = probes[k].matches(buf, s, e);
        if (row === 0) tally.firstMatches[index] = ok ? 1 : 0;
        else if (ok) tally.restMatches[index]++;
        else dead[index] = 1;
      }
    }
  }
  return tally;
}

/** Probe index chosen per column (-1 = VARCHAR) over rows [first, rowCount). */
function chooseProbes(tally: ProbeTally, width: number, probeCount: number, rowCount: number, includeFirst: boolean): Int32Array {
  const chosen = new Int32Array(width).fill(-1);
  const lines = includeFirst ? rowCount : rowCount - 1;
  for (let c = 0; c < width; c++) {
    const blanks = tally.restBlanks[c] + (includeFirst ? tally.firstBlank[c] : 0);
    for (let k = 0; k < probeCount; k++) {
      const index = c * probeCount + k;
      const matches = tally.restMatches[index] + (includeFirst ? tally.firstMatches[index] : 0);
      if (matches + blanks === lines && blanks < lines) {
        chosen[c] = k;
        break;
      }
    }
  }
  return chosen;
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
  const tally = tallyProbes(buf, lexer, probes);
  const firstRowIsFirstRecord = rowCount > 0 && lexer.rowRecord[0] === 1;
  const withFirst = chooseProbes(tally, width, probes.length, rowCount, true);
  const withoutFirst = chooseProbes(tally, width, probes.length, rowCount, false);
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
