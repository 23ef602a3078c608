// Designated-timestamp intervals over a TIMESTAMP_NS column, in exact int64 nanoseconds: the same conjunct
// rules as intervals.ts (comparisons with constants, AND/OR/NOT of them; those conjuncts leave the filter and the
// scan enforces them), but bounds are BigInts so rows a few ns apart are told apart (a double cannot at
// today's dates). Ranges are sorted, disjoint and inclusive; the int64 extremes mark open ends.
import type { BoundCall, BoundExpr } from '../bind/bound.js';
import type { TimestampInterval } from '../../types/intervals.js';
import { parseTimestampNanos } from '../../types/timestamp-ns.js';
import { assert } from '../../core/assert.js';
import { residualOf } from './intervals.js';

export interface NanoInterval {
  readonly lo: bigint;
  readonly hi: bigint;
}

const OPEN_LO = -9223372036854775807n;
const OPEN_HI = 9223372036854775807n;
const ALL_TIME: readonly NanoInterval[] = [{ lo: OPEN_LO, hi: OPEN_HI }];

export interface NanoIntervalExtraction {
  readonly intervals: readonly NanoInterval[] | undefined;
  readonly residual: BoundExpr | undefined;
}

export function extractNanoIntervals(predicate: BoundExpr, timestampIndex: number): NanoIntervalExtraction {
  let intervals: NanoInterval[] | undefined;
  const residual = residualOf(predicate, (conjunct) => exactNanoIntervals(conjunct, timestampIndex), (found: NanoInterval[]) => {
    intervals = intervals === undefined ? found : intersectNanoIntervals(intervals, found);
  });
  if (intervals !== undefined) assertNormalized(intervals);
  return { intervals, residual };
}

/** The µs intervals covering ns ones (each bound floored), for plan text. */
export function microsCover(intervals: readonly NanoInterval[]): TimestampInterval[] {
  const micros = (value: bigint, open: bigint, infinite: number): number => (value === open ? infinite : Number(value >= 0n ? value / 1000n : (value - 999n) / 1000n));
  return intervals.map((range) => ({ lo: micros(range.lo, OPEN_LO, -Infinity), hi: micros(range.hi, OPEN_HI, Infinity) }));
}

function exactNanoIntervals(expr: BoundExpr, timestampIndex: number): NanoInterval[] | undefined {
  if (expr.kind !== 'call') return undefined;
  const [a, b] = expr.args;
  switch (expr.name) {
    case 'and': case 'or': {
      if (a === undefined || b === undefined) return undefined;
      const left = exactNanoIntervals(a, timestampIndex);
      const right = left === undefined ? undefined : exactNanoIntervals(b, timestampIndex);
      if (left === undefined || right === undefined) return undefined;
      return expr.name === 'and' ? intersectNanoIntervals(left, right) : unionNanoIntervals(left, right);
    }
    case 'not': {
      const inner = a === undefined ? undefined : exactNanoIntervals(a, timestampIndex);
      return inner === undefined ? undefined : complementNanoIntervals(inner);
    }
    case '=': case '!=': case '<': case '<=': case '>': case '>=':
      return comparisonIntervals(expr, timestampIndex);
    default:
      return undefined;
  }
}

const FLIPPED: Readonly<Record<string, string>> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function comparisonIntervals(expr: BoundCall, timestampIndex: number): NanoInterval[] | undefined {
  const [a, b] = expr.args;
  if (a === undefined || b === undefined) return undefined;
  let op = expr.name;
  let constant: bigint | undefined;
  if (isNanoTimestampColumn(a, timestampIndex)) {
    constant = constantNanos(b);
  } else if (isNanoTimestampColumn(b, timestampIndex)) {
    constant = constantNanos(a);
    op = FLIPPED[op];
  }
  if (constant === undefined) return undefined;
  switch (op) {
    case '=': return [{ lo: constant, hi: constant }];
    case '!=': return complementNanoIntervals([{ lo: constant, hi: constant }]);
    case '<': return constant <= OPEN_LO ? [] : [{ lo: OPEN_LO, hi: constant - 1n }];
    case '<=': return [{ lo: OPEN_LO, hi: constant }];
    case '>': return constant >= OPEN_HI ? [] : [{ lo: constant + 1n, hi: OPEN_HI }];
    case '>=': return [{ lo: constant, hi: OPEN_HI }];
    default: return undefined;
  }
}

function isNanoTimestampColumn(expr: BoundExpr, timestampIndex: number): boolean {
  return expr.kind === 'column' && expr.index === timestampIndex && expr.type === 'TIMESTAMP_NS';
}

/** The exact ns of a constant operand: TIMESTAMP_NS constants, TIMESTAMP ones (µs) cast up, text cast to TIMESTAMP_NS. */
function constantNanos(expr: BoundExpr): bigint | undefined {
  if (expr.kind === 'constant' && expr.type === 'TIMESTAMP_NS' && expr.exact !== undefined) return expr.exact;
  // An integer compared with a ns timestamp is a number of ns.
  if (expr.kind === 'constant' && (expr.type === 'LONG' || expr.type === 'INT') && typeof expr.value === 'number' && Number.isInteger(expr.value)) return expr.exact ?? BigInt(expr.value);
  if (expr.kind === 'call' && expr.name === 'cast' && expr.type === 'TIMESTAMP_NS' && expr.args.length === 1) {
    const operand = expr.args[0];
    if (operand.kind === 'constant' && typeof operand.value === 'string') return parseTimestampNanos(operand.value);
    const scale = operand.type === 'TIMESTAMP' ? 1000n : operand.type === 'DATE' ? 1_000_000n : operand.type === 'LONG' || operand.type === 'INT' ? 1n : 0n;
    if (operand.kind === 'constant' && scale !== 0n && operand.exact !== undefined) return operand.exact * scale;
    if (operand.kind === 'constant' && scale !== 0n && typeof operand.value === 'number' && Number.isInteger(operand.value)) return BigInt(operand.value) * scale;
  }
  return undefined;
}

export function intersectNanoIntervals(a: readonly NanoInterval[], b: readonly NanoInterval[]): NanoInterval[] {
  const out: NanoInterval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    const lo = x.lo > y.lo ? x.lo : y.lo;
    const hi = x.hi < y.hi ? x.hi : y.hi;
    if (lo <= hi) out.push({ lo, hi });
    if (x.hi < y.hi) i++;
    else j++;
  }
  return out;
}

export function unionNanoIntervals(a: readonly NanoInterval[], b: readonly NanoInterval[]): NanoInterval[] {
  const all = [...a, ...b].sort((x, y) => (x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : 0));
  const out: NanoInterval[] = [];
  for (const range of all) {
    const last = out[out.length - 1];
    if (last !== undefined && range.lo <= last.hi + 1n) out[out.length - 1] = { lo: last.lo, hi: last.hi > range.hi ? last.hi : range.hi };
    else out.push(range);
  }
  return out;
}

function complementNanoIntervals(a: readonly NanoInterval[]): NanoInterval[] {
  const out: NanoInterval[] = [];
  let next = OPEN_LO;
  for (const range of a) {
    if (range.lo > next) out.push({ lo: next, hi: range.lo - 1n });
    next = range.hi + 1n;
  }
  if (next <= OPEN_HI) out.push({ lo: next, hi: OPEN_HI });
  return a.length === 0 ? [...ALL_TIME] : out;
}

function assertNormalized(intervals: readonly NanoInterval[]): void {
  for (let k = 0; k < intervals.length; k++) {
    const range = intervals[k];
    assert(range.lo <= range.hi, 'extracted ns intervals are non-empty');
    assert(k === 0 || intervals[k - 1].hi < range.lo, 'extracted ns intervals are sorted and disjoint');
  }
}
