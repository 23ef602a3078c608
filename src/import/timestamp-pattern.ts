// Timestamp patterns for the import: the shared Java-style pattern compiler of types/timestamp.ts (QuestDB's
// letters and greedy rules), adapted to byte ranges, plus a flag telling column parsers when the fast ISO
// parser reads every value the pattern accepts. The pattern path is only taken for non-ISO formats
// (dd/MM/y, schema patterns such as "dd.MM.yyyy HH:mm"), so decoding each value to a string here is affordable.
import { ImportError } from '../core/errors.js';
import { compileTimestampPattern } from '../types/timestamp.js';

export interface ImportTimestampPattern {
  readonly pattern: string;
  /** True when every value the pattern accepts is also read correctly by parseIsoTimestampBytes. */
  readonly isoCompatible: boolean;
  /** Epoch microseconds of buf[s, e), NaN when the text does not match the pattern. */
  parseBytes(buf: Uint8Array, s: number, e: number): number;
}

/** QuestDB's default probe patterns and the common ISO schema patterns, all readable by the fast ISO parser. */
const ISO_COMPATIBLE_PATTERNS = new Set([
  'yyyy-MM-ddTHH:mm:ss.SSSUUUz', 'yyyy-MM-ddTHH:mm:ss.SSSUUUZ', 'yyyy-MM-ddTHH:mm:ss.SSSUUUNNNz',
  'yyyy-MM-ddTHH:mm:ss.SSSz', 'yyyy-MM-ddTHH:mm:ss.SSSZ', 'yyyy-MM-ddTHH:mm:ss.SSSUUU', 'yyyy-MM-ddTHH:mm:ss.SSS',
  'yyyy-MM-ddTHH:mm:ss.U+', 'yyyy-MM-ddTHH:mm:ss.U+z', 'yyyy-MM-ddTHH:mm:ss.N+', 'yyyy-MM-ddTHH:mm:ss.N+z',
  'yyyy-MM-ddTHH:mm:ssz', 'yyyy-MM-ddTHH:mm:ssZ', 'yyyy-MM-ddTHH:mm:ss', 'yyyy-MM-dd HH:mm:ss',
  'yyyy-MM-dd HH:mm:ss.SSS', 'yyyy-MM-dd HH:mm:ss.SSSUUU', 'yyyy-MM-dd HH:mm:ss.U+', 'yyyy-MM-dd HH:mm:ss.U+z',
  'yyyy-MM-dd HH:mm:ssz', 'yyyy-MM-dd',
]);

/** Compiles a pattern; an empty pattern is a schema error (any other text is letters and literals). */
export function compileImportTimestampPattern(pattern: string): ImportTimestampPattern {
  if (pattern.trim().length === 0) {
    throw new ImportError(`invalid timestamp pattern [pattern=${pattern}]`, 'SVC_IMPORT_BAD_SCHEMA');
  }
  const compiled = compileTimestampPattern(pattern);
  return {
    pattern,
    isoCompatible: ISO_COMPATIBLE_PATTERNS.has(pattern),
    parseBytes: (buf, s, e) => {
      const micros = compiled.parse(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8'));
      return micros === undefined ? NaN : micros;
    },
  };
}
