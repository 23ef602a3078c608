// The helper object generated code may call (as `rt`): null-aware integer arithmetic, text comparison,
// parsing and rendering for casts. Functions are small and monomorphic so TurboFan inlines them into loops.
import { sqlRuntimeError } from '../../core/errors.js';
import { formatDate, formatTimestamp, parseTimestamp } from '../../types/timestamp.js';
import { formatDouble, formatFloat } from '../../types/value-format.js';
import { formatIpv4, parseIpv4, parseUuid, formatUuid } from '../../types/uuid-ipv4.js';
import { textRuntime } from './runtime-text.js';
import { dateRuntime } from './runtime-date.js';
import { mathRuntime } from './runtime-math.js';
import { randomRuntime } from './runtime-random.js';
import { typesRuntime } from './runtime-types.js';
import { arrayRuntime } from './runtime-array.js';
import { arrayMathRuntime } from './runtime-array-math.js';
import { decimalRuntime } from './runtime-decimal.js';
import { timestampNsRuntime } from './runtime-timestamp-ns.js';
import { int64Runtime } from './runtime-int64.js';

const INT_NULL = -2147483648;

export interface Runtime {
  queryNow: number;
  readonly [helper: string]: unknown;
}

function truncOrNaN(value: number): number {
  return value !== value ? NaN : Math.trunc(value);
}

export const runtimeHelpers = {
  // Function-family helpers live in runtime-*.ts modules, merged here into the one `rt` object.
  ...textRuntime,
  ...dateRuntime,
  ...mathRuntime,
  ...randomRuntime,
  ...typesRuntime,
  ...arrayRuntime,
  ...arrayMathRuntime,
  ...decimalRuntime,
  ...timestampNsRuntime,
  ...int64Runtime,
  imul: (a: number, b: number): number => (a !== a || b !== b ? NaN : Math.imul(a, b)),
  idiv: (a: number, b: number): number => (a !== a || b !== b || b === 0 ? NaN : Math.trunc(a / b)),
  imod: (a: number, b: number): number => (a !== a || b !== b || b === 0 ? NaN : a % b),
  fmod: (a: number, b: number): number => a % b,
  eqNum: (a: number, b: number): boolean => a === b || (a !== a && b !== b),
  isNaNum: (a: number): boolean => a !== a,
  cmpText(a: string | null, b: string | null, op: string): boolean {
    if (a === null || b === null) return false;
    switch (op) {
      case '<': return a < b;
      case '<=': return a <= b;
      case '>': return a > b;
      default: return a >= b;
    }
  },
  eqBinary(a: Uint8Array | null, b: Uint8Array | null): boolean {
    if (a === null || b === null) return a === b;
    return Buffer.compare(a, b) === 0;
  },
  concat2: (a: string | null, b: string | null): string => (a ?? '') + (b ?? ''),
  concatN: (parts: readonly (string | null)[]): string => parts.map((part) => part ?? '').join(''),
  textLength: (a: string | null): number => (a === null ? -1 : a.length),
  lower: (a: string | null): string | null => (a === null ? null : a.toLowerCase()),
  upper: (a: string | null): string | null => (a === null ? null : a.toUpperCase()),
  systemMicros: (): number => Date.now() * 1000,
  toInt(a: number): number {
    return a !== a || !Number.isFinite(a) ? NaN : Math.trunc(a) | 0;
  },
  toLong: truncOrNaN,
  toShortOrByte: (a: number): number => (a !== a || !Number.isFinite(a) ? 0 : Math.trunc(a)),
  toFloat: (a: number): number => Math.fround(a),
  toBool: (a: number): boolean => a === a && a !== 0,
  castToString(value: unknown, type: string): string | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number') {
      if (value !== value) return null;
      switch (type) {
        case 'TIMESTAMP': return formatTimestamp(value);
        case 'DATE': return formatDate(value);
        case 'TIMESTAMP_NS': return timestampNsRuntime.formatTimestampNs(value);
        case 'DOUBLE': return formatDouble(value);
        case 'FLOAT': return formatFloat(value);
        case 'IPV4': return formatIpv4(value | 0);
        default: return String(value);
      }
    }
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    return String(value);
  },
  parseNumber(text: string | null, target: string, from: string, position: number): number {
    if (text === null) return NaN;
    const trimmed = text.trim();
    const value = trimmed === '' ? NaN : Number(trimmed);
    const integral = target !== 'DOUBLE' && target !== 'FLOAT';
    if (value !== value || (integral && !Number.isInteger(value))) {
      throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> ${target}]`, position);
    }
    return value;
  },
  parseTimestampOrThrow(text: string | null, from: string, position: number): number {
    if (text === null) return NaN;
    const value = parseTimestamp(text);
    if (value === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> TIMESTAMP]`, position);
    return value;
  },
  parseDateOrThrow(text: string | null, from: string, position: number): number {
    if (text === null) return NaN;
    const value = parseTimestamp(text);
    if (value === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> DATE]`, position);
    return Math.floor(value / 1000);
  },
  parseUuidOrThrow(text: string | null, from: string, position: number): string | null {
    if (text === null) return null;
    const parsed = parseUuid(text);
    if (parsed === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> UUID]`, position);
    return formatUuid(parsed.hi, parsed.lo);
  },
  parseIpv4OrThrow(text: string | null, from: string, position: number): number {
    if (text === null) return NaN;
    const parsed = parseIpv4(text);
    if (parsed === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> IPv4]`, position);
    return parsed === 0 ? NaN : parsed >>> 0;
  },
  /** Rounds half away from zero at `scale` decimal places (negative scales round to tens, hundreds...). */
  roundScale(value: number, scale: number): number {
    if (value !== value || scale !== scale) return NaN;
    const factor = 10 ** scale;
    const scaled = Math.abs(value) * factor;
    const rounded = Math.round(scaled + (Number.EPSILON * scaled));
    return (value < 0 ? -rounded : rounded) / factor;
  },
  firstChar: (text: string | null): string | null => (text === null || text.length === 0 ? null : text.charAt(0)),
  intNull: INT_NULL,
};

export type RuntimeHelpers = typeof runtimeHelpers;

/** The per-query runtime: the shared helpers plus values fixed for one run (now()). */
export function createRuntime(queryNowMicros: number): RuntimeHelpers & { queryNow: number } {
  return Object.assign(Object.create(runtimeHelpers) as RuntimeHelpers, { queryNow: queryNowMicros });
}
