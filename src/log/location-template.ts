// File locations of log writers: `${log.dir}`, `${date:<pattern>}` and `${ENV_VAR}` placeholders, resolved against the
// server root. `${log.dir}` and environment variables are fixed at start-up (an undefined variable is a start-up
// error); dates are formatted with the time each file is opened. A collision counter goes before a short alphabetic
// extension (`stdout-….1.txt`) so files keep their type, else at the end (`svc-rolling.log.20240115.1`).
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { compileDatePattern, type DateFormatter } from './date-pattern.js';

export interface LocationTemplate {
  /** The location as configured, for advisories. */
  readonly text: string;
  readonly hasDate: boolean;
  /** Absolute path of the file opened at `epochMicros`; `counter` > 0 is inserted to avoid an existing file. */
  pathAt(epochMicros: number, counter: number): string;
  /** Matches the base name of every file this location can produce (any date, any counter), for retention. */
  readonly familyPattern: RegExp;
}

export interface LocationContext {
  /** The key the location came from, for errors. */
  readonly key: string;
  readonly rootDir: string;
  readonly logDir: string;
  readonly env: NodeJS.ProcessEnv;
}

type Segment = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'date'; readonly format: DateFormatter };

/** Stands in for every date while building the family pattern; it cannot appear in a configured path. */
const DATE_SENTINEL = '\u0001';
const EXTENSION_PATTERN = /\.[A-Za-z]{1,5}$/;

export function compileLocation(text: string, context: LocationContext): LocationTemplate {
  if (text.trim().length === 0) throw new ConfigError(context.key, 'a file location is required');
  const segments = parseLocation(text, context);
  const render = (dateText: (format: DateFormatter) => string): string =>
    segments.map((segment) => (segment.kind === 'text' ? segment.text : dateText(segment.format))).join('');
  const familyBase = basename(resolve(context.rootDir, render(() => DATE_SENTINEL)));
  return {
    text,
    hasDate: segments.some((segment) => segment.kind === 'date'),
    pathAt(epochMicros, counter) {
      const path = resolve(context.rootDir, render((format) => format(epochMicros)));
      return counter === 0 ? path : join(dirname(path), withCounter(basename(path), counter));
    },
    familyPattern: buildFamilyPattern(familyBase),
  };
}

function parseLocation(text: string, context: LocationContext): Segment[] {
  const segments: Segment[] = [];
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf('${', index);
    if (open < 0) {
      segments.push({ kind: 'text', text: text.slice(index) });
      break;
    }
    if (open > index) segments.push({ kind: 'text', text: text.slice(index, open) });
    const close = text.indexOf('}', open + 2);
    if (close < 0) throw new ConfigError(context.key, `Missing '}' after position ${open} in ${text}`);
    segments.push(resolvePlaceholder(text.slice(open + 2, close).trim(), context));
    index = close + 1;
  }
  return segments;
}

function resolvePlaceholder(name: string, context: LocationContext): Segment {
  if (name === 'log.dir') return { kind: 'text', text: context.logDir };
  if (name.startsWith('date:')) {
    const format = compileDatePattern(name.slice('date:'.length).trim());
    if (format === undefined) throw new ConfigError(context.key, 'Missing date pattern in ${date:}');
    return { kind: 'date', format };
  }
  const value = context.env[name];
  if (value === undefined) throw new ConfigError(context.key, `Undefined property: ${name}`);
  return { kind: 'text', text: value };
}

function withCounter(name: string, counter: number): string {
  const extension = EXTENSION_PATTERN.exec(name)?.[0] ?? '';
  return `${name.slice(0, name.length - extension.length)}.${counter}${extension}`;
}

function buildFamilyPattern(name: string): RegExp {
  const extension = EXTENSION_PATTERN.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - extension.length);
  const toPattern = (part: string): string => escapeRegExp(part).split(DATE_SENTINEL).join('.+?');
  return new RegExp(`^${toPattern(stem)}(?:\\.\\d+)?${toPattern(extension)}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
