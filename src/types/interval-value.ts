// INTERVAL values, an expression-only type (interval(lo, hi), interval_start, interval_end). While a query runs
// a value is held as `<lo>,<hi>` in epoch microseconds, so no precision is lost between functions; results are
// printed as QuestDB prints them: `('<lo>', '<hi>')` with millisecond ISO timestamps.
import { formatDate } from './timestamp.js';

export function encodeInterval(lo: number, hi: number): string {
  return `${lo},${hi}`;
}

/** The bound at `index` (0 = lo, 1 = hi) in epoch µs. */
export function intervalBound(encoded: string, index: 0 | 1): number {
  const comma = encoded.indexOf(',');
  return Number(index === 0 ? encoded.slice(0, comma) : encoded.slice(comma + 1));
}

export function formatInterval(encoded: string): string {
  return `('${formatDate(Math.floor(intervalBound(encoded, 0) / 1000))}', '${formatDate(Math.floor(intervalBound(encoded, 1) / 1000))}')`;
}
