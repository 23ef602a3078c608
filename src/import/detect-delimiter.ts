// Delimiter detection over the first lines of an upload, after QuestDB's TextDelimiterScanner: count every
// punctuation byte per line (outside quotes) and pick the one whose count varies least between lines,
// preferring `,` TAB `|` on ties. Two additions: when the strict deviation test fails, a priority delimiter
// that has the same non-zero count on at least 80% of lines still wins (a few ragged lines should not fail a
// file), and a file where no candidate byte occurs at all is read as a single column.
import { ImportError } from '../core/errors.js';
import { BYTE_CR, BYTE_LF, BYTE_QUOTE } from './csv-lexer.js';
import { importDelimiterModeShareMin, importDelimiterStdDevMax, importLineLengthStdDevMax } from './import-limits.js';

const CANDIDATE_BYTES = 128;
/** Ties within this many standard deviations are decided by priority (QuestDB's DOUBLE_TOLERANCE). */
const STD_DEV_TOLERANCE = 0.05;

const PRIORITY = new Int8Array(CANDIDATE_BYTES);
PRIORITY[0x2c] = 10; // ,
PRIORITY[0x09] = 10; // TAB
PRIORITY[0x7c] = 10; // |
PRIORITY[0x3a] = 9; // :
PRIORITY[0x20] = 8; // space
PRIORITY[0x3b] = 8; // ;

/** Bytes that may delimit: ASCII that is not a letter, digit, quote, line end or `.` (decimal point). */
const IS_CANDIDATE = new Uint8Array(CANDIDATE_BYTES);
for (let b = 1; b < CANDIDATE_BYTES; b++) {
  const alphanumeric = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
  IS_CANDIDATE[b] = alphanumeric || b === BYTE_QUOTE || b === BYTE_LF || b === BYTE_CR || b === 0x2e ? 0 : 1;
}

interface LineCounts {
  /** lineCount × CANDIDATE_BYTES occurrence counts. */
  readonly counts: Int32Array;
  readonly lengths: Float64Array;
  readonly lineCount: number;
}

/** Counts candidate bytes per non-empty line of buf, quotes skipped; the unterminated tail counts only at EOF. */
function countPerLine(buf: Uint8Array, linesMax: number, atEof: boolean): LineCounts {
  const counts = new Int32Array(linesMax * CANDIDATE_BYTES);
  const lengths = new Float64Array(linesMax);
  let line = 0;
  let length = 0;
  let inQuotes = false;
  for (let i = 0; i < buf.length && line < linesMax; i++) {
    const b = buf[i];
    if (b === BYTE_QUOTE) inQuotes = !inQuotes; // a doubled quote toggles twice, which is what it should do
    if (inQuotes || b === BYTE_QUOTE) {
      length++;
      continue;
    }
    if (b === BYTE_LF || b === BYTE_CR) {
      if (length > 0) lengths[line++] = length;
      length = 0;
      continue;
    }
    length++;
    if (b < CANDIDATE_BYTES && IS_CANDIDATE[b] === 1) counts[line * CANDIDATE_BYTES + b]++;
  }
  if (atEof && length > 0 && line < linesMax) lengths[line++] = length;
  return { counts, lengths, lineCount: line };
}

function meanAndStdDev(values: ArrayLike<number>, count: number, stride: number, offset: number): [number, number] {
  let sum = 0;
  for (let l = 0; l < count; l++) sum += values[l * stride + offset];
  const mean = sum / count;
  let squares = 0;
  for (let l = 0; l < count; l++) {
    const x = values[l * stride + offset] - mean;
    squares += x * x;
  }
  return [mean, Math.sqrt(squares / count)];
}

/**
 * The delimiter byte of an upload, from at most linesMax lines of its beginning.
 * Throws ImportError "not enough lines" with fewer than two lines, "min deviation is too high" when no
 * candidate is consistent enough.
 */
export function detectDelimiter(buf: Uint8Array, linesMax: number, atEof: boolean): number {
  const { counts, lengths, lineCount } = countPerLine(buf, linesMax, atEof);
  if (lineCount < 2) throw new ImportError('not enough lines');
  let best = -1;
  let bestStdDev = Infinity;
  let bestMean = 0;
  let anyCandidate = false;
  for (let b = 1; b < CANDIDATE_BYTES; b++) {
    if (IS_CANDIDATE[b] === 0) continue;
    const [mean, stdDev] = meanAndStdDev(counts, lineCount, CANDIDATE_BYTES, b);
    if (mean === 0) continue;
    anyCandidate = true;
    const tie = Math.abs(stdDev - bestStdDev) < STD_DEV_TOLERANCE;
    if (best < 0 || (stdDev < bestStdDev && !tie)
      || (tie && (PRIORITY[b] > PRIORITY[best] || (PRIORITY[b] === PRIORITY[best] && mean > bestMean)))) {
      best = b;
      bestStdDev = stdDev;
      bestMean = mean;
    }
  }
  if (best > 0 && bestStdDev < importDelimiterStdDevMax) return best;
  const modal = detectDelimiterByMode(counts, lineCount);
  if (modal > 0) return modal;
  const [, lineLengthStdDev] = meanAndStdDev(lengths, lineCount, 1, 0);
  if (!anyCandidate || lineLengthStdDev < importLineLengthStdDevMax) return 0x2c;
  throw new ImportError(`min deviation is too high [delimiterStdDev=${bestStdDev}, delimiterMaxStdDev=${importDelimiterStdDevMax}`
    + `, lineLengthStdDev=${lineLengthStdDev}, lineLengthMaxStdDev=${importLineLengthStdDevMax}, lineCountLimit=${linesMax}`
    + `, lineCount=${lineCount}]`);
}

/** The priority delimiter whose most common non-zero per-line count covers the largest share of lines. */
function detectDelimiterByMode(counts: Int32Array, lineCount: number): number {
  let best = -1;
  let bestShare = 0;
  for (const b of [0x2c, 0x09, 0x7c, 0x3b]) {
    const frequency = new Map<number, number>();
    for (let l = 0; l < lineCount; l++) {
      const n = counts[l * CANDIDATE_BYTES + b];
      if (n > 0) frequency.set(n, (frequency.get(n) ?? 0) + 1);
    }
    let modeLines = 0;
    for (const lines of frequency.values()) modeLines = Math.max(modeLines, lines);
    const share = modeLines / lineCount;
    if (share > bestShare) {
      best = b;
      bestShare = share;
    }
  }
  return bestShare >= importDelimiterModeShareMin ? best : -1;
}
