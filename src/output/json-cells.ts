// Per-column JSON cell formatters for /exec, chosen once per result column: every value is rendered as
// QuestDB's JSON does (LONG as a number or quoted, DOUBLE shortest round-trip with a fraction, null sentinels).
import { formatTimestampNanos, nanosAt } from '../types/timestamp-ns.js';
import { isArrayType } from '../types/double-array.js';
import { formatArrayJson } from '../types/double-array-format.js';
import type { Vector } from '../sql/compiler.js';
import type { ValueType } from '../types/column-type.js';
import { formatDouble, formatFloat, jsonString } from '../types/value-format.js';
import { formatDate, formatTimestamp } from '../types/timestamp.js';
import { formatIpv4 } from '../types/uuid-ipv4.js';
import { formatInterval } from '../types/interval-value.js';

export type CellFormatter = (vector: Vector, row: number) => string;

const SAFE = 2 ** 53;

function formatInt64(vector: Vector, row: number, quote: boolean): string {
  const value = (vector.data as Float64Array)[row];
  if (value !== value) return 'null';
  const text = vector.exact !== undefined && (value >= SAFE || value <= -SAFE) ? String(vector.exact[row]) : String(value);
  return quote ? `"${text}"` : text;
}

/** Symbol texts encoded once per dictionary (keys repeat across rows). */
const symbolJsonCache = new WeakMap<readonly string[], string[]>();

function symbolJson(symbols: readonly string[], key: number): string {
  let cache = symbolJsonCache.get(symbols);
  if (cache === undefined) {
    cache = [];
    symbolJsonCache.set(symbols, cache);
  }
  let text = cache[key];
  if (text === undefined) {
    text = jsonString(symbols[key] ?? '');
    cache[key] = text;
  }
  return text;
}

export function jsonCellFormatter(type: ValueType, quoteLargeNum: boolean): CellFormatter {
  if (isArrayType(type)) return (v, r) => { const x = (v.data as (Uint8Array | null)[])[r]; return x === null || x === undefined ? 'null' : formatArrayJson(x); };
  switch (type) {
    case 'DOUBLE': return (v, r) => { const x = (v.data as Float64Array)[r]; return Number.isFinite(x) ? formatDouble(x) : 'null'; };
    case 'FLOAT': return (v, r) => { const x = (v.data as Float32Array)[r]; return Number.isFinite(x) ? formatFloat(x) : 'null'; };
    case 'INT': return (v, r) => { const x = (v.data as Int32Array)[r]; return x === -2147483648 ? 'null' : String(x); };
    case 'SHORT': case 'BYTE': return (v, r) => String((v.data as Int16Array)[r]);
    case 'BOOLEAN': return (v, r) => ((v.data as Int8Array)[r] !== 0 ? 'true' : 'false');
    case 'LONG': return (v, r) => formatInt64(v, r, quoteLargeNum);
    case 'TIMESTAMP': return (v, r) => { const x = (v.data as Float64Array)[r]; return x !== x ? 'null' : `"${formatTimestamp(x)}"`; };
    case 'DATE': return (v, r) => { const x = (v.data as Float64Array)[r]; return x !== x ? 'null' : `"${formatDate(x)}"`; };
    case 'TIMESTAMP_NS': return (v, r) => { const x = nanosAt(v.data as Float64Array, v.exact, r); return x === undefined ? 'null' : `"${formatTimestampNanos(x)}"`; };
    case 'CHAR': return (v, r) => { const x = (v.data as Uint16Array)[r]; return x === 0 ? '""' : jsonString(String.fromCharCode(x)); };
    case 'SYMBOL': return (v, r) => { const k = (v.data as Int32Array)[r]; return k < 0 ? 'null' : symbolJson(v.symbols ?? [], k); };
    case 'IPV4': return (v, r) => { const x = (v.data as Int32Array)[r]; return x === 0 ? 'null' : `"${formatIpv4(x)}"`; };
    case 'BINARY': return () => '[]';
    case 'LONG256': return (v, r) => { const x = (v.data as (string | null)[])[r]; return x === null || x === undefined ? '""' : `"${x}"`; };
    case 'INTERVAL': return (v, r) => { const x = (v.data as (string | null)[])[r]; return x === null || x === undefined ? 'null' : jsonString(formatInterval(x)); };
    default: return (v, r) => { const x = (v.data as (string | null)[])[r]; return x === null || x === undefined ? 'null' : jsonString(x); };
  }
}
