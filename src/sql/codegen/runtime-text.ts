// Runtime helpers of the text functions and pattern operators. Text is string | null; positions and lengths
// arrive as numbers with NaN for null. Every helper returns null (or NaN, or false for predicates) when an
// input it needs is null. Patterns compiled at bind time arrive as RegExp constants.
import { SqlError } from '../../core/errors.js';
import { paddedTextLengthMax } from '../../core/limits.js';

/** Text distinct dynamic patterns compile to; reset when full so a varying pattern column cannot grow it unbounded. */
const dynamicPatternCacheEntriesMax = 256;
const dynamicPatterns = new Map<string, RegExp>();

function cachedRegex(pattern: string, flags: string): RegExp {
  const key = `${flags}/${pattern}`;
  let regex = dynamicPatterns.get(key);
  if (regex === undefined) {
    if (dynamicPatterns.size >= dynamicPatternCacheEntriesMax) dynamicPatterns.clear();
    regex = new RegExp(pattern, flags);
    dynamicPatterns.set(key, regex);
  }
  return regex;
}

function pad(text: string | null, length: number, fill: string | null, left: boolean): string | null {
  if (text === null || length !== length || fill === null) return null;
  const target = Math.max(0, Math.trunc(length));
  if (target <= text.length) return text.slice(0, target);
  if (target > paddedTextLengthMax) {
    throw new SqlError(`${left ? 'lpad' : 'rpad'} length is too large [length=${target}, max=${paddedTextLengthMax}]`, 0, 'SVC_SQL_LIMIT');
  }
  if (fill.length === 0) return text;
  const padding = fill.repeat(Math.ceil((target - text.length) / fill.length)).slice(0, target - text.length);
  return left ? padding + text : text + padding;
}

export const textRuntime = {
  left(text: string | null, count: number): string | null {
    if (text === null || count !== count) return null;
    return count >= 0 ? text.slice(0, count) : text.slice(0, Math.max(0, text.length + count));
  },
  right(text: string | null, count: number): string | null {
    if (text === null || count !== count) return null;
    return count >= 0 ? text.slice(Math.max(0, text.length - count)) : text.slice(Math.min(text.length, -count));
  },
  /** 1-based start; a start before 1 still counts its length from there (substring('abc', -1, 3) = 'a'). */
  substring(text: string | null, start: number, length: number): string | null {
    if (text === null || start !== start || length !== length || length < 0) return null;
    const end = start + length;
    if (end < 0) return null;
    const from = Math.max(start, 1) - 1;
    return text.slice(from, Math.max(from, Math.min(end - 1, text.length)));
  },
  substringFrom: (text: string | null, start: number): string | null =>
    (text === null || start !== start ? null : text.slice(Math.max(start, 1) - 1)),
  strpos: (text: string | null, part: string | null): number => (text === null || part === null ? NaN : text.indexOf(part) + 1),
  replace(text: string | null, from: string | null, to: string | null): string | null {
    if (text === null || from === null || to === null) return null;
    return from.length === 0 ? text : text.split(from).join(to);
  },
  trim: (text: string | null): string | null => (text === null ? null : text.trim()),
  ltrim: (text: string | null): string | null => (text === null ? null : text.trimStart()),
  rtrim: (text: string | null): string | null => (text === null ? null : text.trimEnd()),
  /** split_part with PostgreSQL's rules: 1-based field, negative counts from the end, beyond the end is ''. */
  splitPart(text: string | null, delimiter: string | null, field: number): string | null {
    if (text === null || delimiter === null || field !== field || field === 0) return null;
    const parts = delimiter.length === 0 ? [text] : text.split(delimiter);
    const index = field > 0 ? field - 1 : parts.length + field;
    return parts[index] ?? '';
  },
  startsWith: (text: string | null, prefix: string | null): boolean => text !== null && prefix !== null && text.startsWith(prefix),
  reverse: (text: string | null): string | null => (text === null ? null : Array.from(text).reverse().join('')),
  lpad: (text: string | null, length: number, fill: string | null): string | null => pad(text, length, fill, true),
  rpad: (text: string | null, length: number, fill: string | null): string | null => pad(text, length, fill, false),
  /** LIKE/ILIKE/~ with a pattern compiled at bind time; NULL text never matches. */
  regexTest: (regex: RegExp, text: string | null): boolean => text !== null && regex.test(text),
  regexReplace: (regex: RegExp, text: string | null, replacement: string | null): string | null =>
    (text === null || replacement === null ? null : text.replace(regex, replacement)),
  regexReplaceText(text: string | null, pattern: string | null, replacement: string | null): string | null {
    if (text === null || pattern === null || replacement === null) return null;
    return text.replace(cachedRegex(pattern, 'g'), replacement);
  },
};
