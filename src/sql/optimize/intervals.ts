// Designated-timestamp intervals from a bound WHERE predicate. Each top-level conjunct that is exactly a
// condition on the designated timestamp (`ts IN '<interval>'`, kept by the binder as its ranges, comparisons with a constant, BETWEEN, IN lists,
// NOT, and AND/OR of those) becomes a set of inclusive µs ranges; the sets of all such conjuncts intersect,
// and those conjuncts leave the filter (the scan enforces them). Anything else stays in the residual predicate.
// Ranges are sorted, disjoint, inclusive integers; ±Infinity marks an open end.
import type { BoundCall, BoundExpr } from '../bind/bound.js';
import type { TimestampInterval } from '../../types/intervals.js';
import { parseTimestamp } from '../../types/timestamp.js';
import { assert } from '../../core/assert.js';

export type { TimestampInterval };

export interface IntervalExtraction {
  /** Where the designated timestamp may lie; undefined when no conjunct restricts it. */
  readonly intervals: readonly TimestampInterval[] | undefined;
  /** The conjuncts the intervals do not express, still AND-ed; undefined when nothing remains. */
  readonly residual: BoundExpr | undefined;
}

const ALL_TIME: readonly TimestampInterval[] = [{ lo: -Infinity, hi: Infinity }];

/** Splits `predicate` (over an input whose column `timestampIndex` is the designated timestamp). */
export function extractIntervals(predicate: BoundExpr, timestampIndex: number): IntervalExtraction {
  let intervals: TimestampInterval[] | undefined;
  const residual = residualOf(predicate, (conjunct) => exactIntervals(conjunct, timestampIndex), (found: TimestampInterval[]) => {
    intervals = intervals === undefined ? found : intersectIntervals(intervals, found);
  });
  if (intervals !== undefined) assertNormalized(intervals);
  return { intervals, residual };
}

/**
 * Walks the AND tree: conjuncts `exact` gives a form for are reported and dropped, others kept (shared with the
 * nanosecond intervals of intervals-ns.ts, whose forms are exact int64 ranges).
 */
export function residualOf<T>(expr: BoundExpr, exact: (conjunct: BoundExpr) => T | undefined, report: (found: T) => void): BoundExpr | undefined {
  if (expr.kind === 'call' && expr.name === 'and' && expr.args.length === 2) {
    const left = expr.args[0];
    const right = expr.args[1];
    const keptLeft = residualOf(left, exact, report);
    const keptRight = residualOf(right, exact, report);
    if (keptLeft === undefined) return keptRight;
    if (keptRight === undefined) return keptLeft;
    // Spreading keeps the node's own emitter, so no function lookup is needed to rebuild the AND.
    return keptLeft === left && keptRight === right ? expr : { ...expr, args: [keptLeft, keptRight] };
  }
  const found = exact(expr);
  if (found === undefined) return expr;
  report(found);
  return undefined;
}

/** The timestamps for which `expr` is true, when `expr` tests only the designated timestamp against constants. */
export function exactIntervals(expr: BoundExpr, timestampIndex: number): TimestampInterval[] | undefined {
  if (expr.kind !== 'call') return undefined;
  const [a, b] = expr.args;
  switch (expr.name) {
    case 'and': case 'or': {
      if (a === undefined || b === undefined) return undefined;
      const left = exactIntervals(a, timestampIndex);
      const right = left === undefined ? undefined : exactIntervals(b, timestampIndex);
      if (left === undefined || right === undefined) return undefined;
      return expr.name === 'and' ? intersectIntervals(left, right) : unionIntervals(left, right);
    }
    case 'not': {
      const inner = a === undefined ? undefined : exactIntervals(a, timestampIndex);
      return inner === undefined ? undefined : complementIntervals(inner);
    }
    case '=': case '!=': case '<': case '<=': case '>': case '>=':
      return comparisonIntervals(expr, timestampIndex);
    case 'in_interval':
      return a !== undefined && isTimestampColumn(a, timestampIndex) && expr.intervals !== undefined ? [...expr.intervals] : undefined;
    default:
      return undefined;
  }
}

const FLIPPED: Readonly<Record<string, string>> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function comparisonIntervals(expr: BoundCall, timestampIndex: number): TimestampInterval[] | undefined {
  const [a, b] = expr.args;
  if (a === undefined || b === undefined) return undefined;
  let op = expr.name;
  let constant: number | undefined;
  if (isTimestampColumn(a, timestampIndex)) {
    constant = constantMicros(b);
  } else if (isTimestampColumn(b, timestampIndex)) {
    constant = constantMicros(a);
    op = FLIPPED[op];
  }
  if (constant === undefined) return undefined;
  // Timestamps are whole µs: `ts > 1.5` is `ts >= 2`, `ts <= 1.5` is `ts <= 1`.
  switch (op) {
    case '=': return Number.isInteger(constant) ? [{ lo: constant, hi: constant }] : [];
    case '!=': return Number.isInteger(constant) ? complementIntervals([{ lo: constant, hi: constant }]) : [...ALL_TIME];
    case '<': return [{ lo: -Infinity, hi: Math.ceil(constant) - 1 }];
    case '<=': return [{ lo: -Infinity, hi: Math.floor(constant) }];
    case '>': return [{ lo: Math.floor(constant) + 1, hi: Infinity }];
    case '>=': return [{ lo: Math.ceil(constant), hi: Infinity }];
    default: return undefined;
  }
}

function isTimestampColumn(expr: BoundExpr, timestampIndex: number): boolean {
  return expr.kind === 'column' && expr.index === timestampIndex && expr.type === 'TIMESTAMP';
}

/**
 * The µs value of a constant operand: a TIMESTAMP/LONG/INT/DOUBLE constant, or a text constant cast to TIMESTAMP
 * (how `ts > '2024-01-06'` binds). Invalid text is left to the runtime cast, which raises the proper error.
 */
function constantMicros(expr: BoundExpr): number | undefined {
  if (expr.kind === 'constant') {
    const numeric = expr.type === 'TIMESTAMP' || expr.type === 'LONG' || expr.type === 'INT' || expr.type === 'DOUBLE';
    return numeric && typeof expr.value === 'number' && Number.isFinite(expr.value) ? expr.value : undefined;
  }
  if (expr.kind === 'call' && expr.name === 'cast' && expr.type === 'TIMESTAMP' && expr.args.length === 1) {
    const operand = expr.args[0];
    if (operand.kind === 'constant' && typeof operand.value === 'string') return parseTimestamp(operand.value);
    if (operand.kind === 'constant' && typeof operand.value === 'number' && Number.isInteger(operand.value)) return operand.value;
  }
  return undefined;
}

export function intersectIntervals(a: readonly TimestampInterval[], b: readonly TimestampInterval[]): TimestampInterval[] {
  const out: TimestampInterval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    const lo = Math.max(x.lo, y.lo);
    const hi = Math.min(x.hi, y.hi);
    if (lo <= hi) out.push({ lo, hi });
    if (x.hi < y.hi) i++;
    else j++;
  }
  return out;
}

export function unionIntervals(a: readonly TimestampInterval[], b: readonly TimestampInterval[]): TimestampInterval[] {
  const all = [...a, ...b].sort((x, y) => x.lo - y.lo);
  const out: TimestampInterval[] = [];
  for (const range of all) {
    const last = out[out.length - 1];
    // Whole µs: ranges that touch (hi + 1 === lo) join.
    if (last !== undefined && range.lo <= last.hi + 1) out[out.length - 1] = { lo: last.lo, hi: Math.max(last.hi, range.hi) };
    else out.push(range);
  }
  return out;
}

export function complementIntervals(a: readonly TimestampInterval[]): TimestampInterval[] {
  const out: TimestampInterval[] = [];
  let next = -Infinity;
  for (const range of a) {
    if (range.lo > next) out.push({ lo: next, hi: range.lo - 1 });
    next = range.hi + 1;
  }
  if (next !== Infinity) out.push({ lo: next, hi: Infinity });
  // Beyond 2^53 µs (the year 2255) `lo - 1` and `hi + 1` round back to the bound itself, so the gaps can
  // overlap their neighbours (`ts NOT IN 9223372036854775807`); merging keeps the set sorted and disjoint.
  return unionIntervals(out, []);
}

function assertNormalized(intervals: readonly TimestampInterval[]): void {
  for (let k = 0; k < intervals.length; k++) {
    const range = intervals[k];
    assert(range.lo <= range.hi, 'extracted intervals are non-empty');
    assert(k === 0 || intervals[k - 1].hi < range.lo, 'extracted intervals are sorted and disjoint');
  }
}
