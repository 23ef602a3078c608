// QuestDB-style date patterns for `${date:<pattern>}` in file locations and alert templates, always in UTC.
// Letters: yyyy (or yy) year, MM month, dd day, HH hour, mm minute, ss second, SSS millisecond, UUU microsecond
// (a single letter prints the unpadded number). Any other character, `T` and `-` included, is literal; text in
// single quotes is literal too ('' is a quote). The pattern is compiled once into parts, then formatted per call.
import { assertNever } from '../core/assert.js';

type DateField = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'milli' | 'micro';

type PatternPart =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'field'; readonly field: DateField; readonly width: number };

const FIELD_BY_LETTER: Readonly<Record<string, DateField>> = {
  y: 'year',
  M: 'month',
  d: 'day',
  H: 'hour',
  m: 'minute',
  s: 'second',
  S: 'milli',
  U: 'micro',
};

export type DateFormatter = (epochMicros: number) => string;

/** Compiles `pattern`; returns undefined when it holds no text at all, so the caller can name the key in its error. */
export function compileDatePattern(pattern: string): DateFormatter | undefined {
  if (pattern.length === 0) return undefined;
  const parts = parseDatePattern(pattern);
  return (epochMicros) => formatDateParts(parts, epochMicros);
}

function parseDatePattern(pattern: string): PatternPart[] {
  const parts: PatternPart[] = [];
  let index = 0;
  while (index < pattern.length) {
    const char = pattern.charAt(index);
    if (char === "'") {
      const close = pattern.indexOf("'", index + 1);
      const end = close < 0 ? pattern.length : close;
      // A doubled quote is one literal quote.
      parts.push({ kind: 'literal', text: end === index + 1 ? "'" : pattern.slice(index + 1, end) });
      index = end + 1;
      continue;
    }
    const field = FIELD_BY_LETTER[char];
    let runEnd = index + 1;
    while (runEnd < pattern.length && pattern.charAt(runEnd) === char) runEnd++;
    if (field === undefined) {
      parts.push({ kind: 'literal', text: pattern.slice(index, runEnd) });
    } else {
      parts.push({ kind: 'field', field, width: runEnd - index });
    }
    index = runEnd;
  }
  return parts;
}

function formatDateParts(parts: readonly PatternPart[], epochMicros: number): string {
  const millis = Math.floor(epochMicros / 1000);
  const date = new Date(millis);
  let out = '';
  for (const part of parts) {
    if (part.kind === 'literal') {
      out += part.text;
      continue;
    }
    const value = fieldValue(date, part.field, epochMicros - millis * 1000);
    out += part.field === 'year' && part.width === 2 ? pad(value % 100, 2) : pad(value, part.width);
  }
  return out;
}

function fieldValue(date: Date, field: DateField, microsOfMilli: number): number {
  switch (field) {
    case 'year': return date.getUTCFullYear();
    case 'month': return date.getUTCMonth() + 1;
    case 'day': return date.getUTCDate();
    case 'hour': return date.getUTCHours();
    case 'minute': return date.getUTCMinutes();
    case 'second': return date.getUTCSeconds();
    case 'milli': return date.getUTCMilliseconds();
    case 'micro': return microsOfMilli;
    default: return assertNever(field, 'date field');
  }
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
