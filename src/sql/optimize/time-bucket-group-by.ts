// GROUP BY a calendar bucket of the designated timestamp, planned as SAMPLE BY. Newer TSBS query forms write
// `GROUP BY timestamp_floor('1h', ts)` or `date_trunc('hour', ts)` (or, for a time zone, QuestDB's own rewrite
// of SAMPLE BY ... TIME ZONE: `to_utc(timestamp_floor('1h', to_timezone(ts, tz)), tz)`) where SAMPLE BY would
// do: over rows in timestamp order those buckets are runs, which SAMPLE BY folds without hashing. The rewrite
// keeps the results and their order: the hash GROUP BY emits groups in first-seen order, which over an
// ascending scan is bucket order, and keys within a bucket in first-seen order, as keyed SAMPLE BY does.
// Pure AST work: the caller says which expressions name the designated timestamp.
import type { CallExpr, Expr, SampleByClause } from '../syntax/ast.js';
import type { TimeUnit } from '../../types/timestamp.js';
import { isAggregateName } from '../functions/registry.js';
import { resolveTimeZone } from '../../types/time-zone-rules.js';
import { childrenOf } from '../bind/expression-walk.js';

/** A select-list item as the SELECT planner holds it: its expression and output name. */
export interface BucketItem {
  readonly expr: Expr;
  readonly name: string;
  readonly scopeIndex?: number;
}

export interface GroupByQueryParts {
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  readonly distinct: boolean;
}

export interface TimeBucketPlan<Item extends BucketItem> {
  /** The SAMPLE BY clause with the bucket's stride, unit and time zone (calendar aligned, no fill). */
  readonly clause: SampleByClause;
  /** The select list with the bucket item (if selected) replaced by the bare designated timestamp. */
  readonly items: readonly Item[];
  /** The selected bucket's value from the bucket start (a UTC timestamp) when it is not that start itself. */
  readonly bucketOutput?: Expr;
}

interface Bucket {
  readonly count: number;
  readonly unit: TimeUnit;
  readonly timeZone?: Expr;
  /** `floor(to_timezone(ts, tz))` without to_utc: the bucket shows as local wall-clock time. */
  readonly local?: boolean;
}

const SUB_DAY_UNITS: ReadonlySet<TimeUnit> = new Set<TimeUnit>(['U', 'T', 's', 'm', 'h']);
const FIXED_OFFSET_ZONE = /^(?:UTC|GMT|Z|[+-]\d{2}:?\d{2})$/i;

const FLOOR_UNITS: ReadonlySet<string> = new Set(['U', 'T', 's', 'm', 'h', 'd', 'w', 'M', 'y']);

const TRUNC_UNITS: Readonly<Record<string, { readonly count: number; readonly unit: TimeUnit }>> = {
  microsecond: { count: 1, unit: 'U' }, millisecond: { count: 1, unit: 'T' }, second: { count: 1, unit: 's' },
  minute: { count: 1, unit: 'm' }, hour: { count: 1, unit: 'h' }, day: { count: 1, unit: 'd' }, week: { count: 1, unit: 'w' },
  month: { count: 1, unit: 'M' }, quarter: { count: 3, unit: 'M' }, year: { count: 1, unit: 'y' },
};

/**
 * The SAMPLE BY plan of an aggregate query whose only time-derived key is one bucket of the designated
 * timestamp, or undefined when the query is anything else (HAVING and DISTINCT keep the GROUP BY plan, as does
 * a GROUP BY entry that names no select-list key).
 */
export function timeBucketGroupBy<Item extends BucketItem>(
  query: GroupByQueryParts, items: readonly Item[], isDesignatedTimestamp: (expr: Expr) => boolean,
): TimeBucketPlan<Item> | undefined {
  if (query.having !== undefined || query.distinct || items.some((item) => item.scopeIndex !== undefined)) return undefined;
  const keyIndexes = items.flatMap((item, k) => (containsAggregateCall(item.expr) ? [] : [k]));
  const bucketed = keyIndexes.filter((k) => bucketOf(items[k].expr, isDesignatedTimestamp) !== undefined);
  const groupOnly = query.groupBy.filter((expr) => selectedKeyIndex(expr, items, keyIndexes) < 0);
  if (bucketed.length + groupOnly.length !== 1) return undefined;
  const bucketExpr = bucketed.length === 1 ? items[bucketed[0]].expr : groupOnly[0];
  const bucket = bucketOf(bucketExpr, isDesignatedTimestamp);
  // The other keys must not read the timestamp: SAMPLE BY would group them per bucket, GROUP BY per value.
  if (bucket === undefined || keyIndexes.some((k) => !bucketed.includes(k) && anyColumn(items[k].expr, isDesignatedTimestamp))) return undefined;
  const timestamp = timestampIn(bucketExpr, isDesignatedTimestamp) as Expr;
  const clause: SampleByClause = {
    position: bucketExpr.position, count: bucket.count, unit: bucket.unit, unitPosition: bucketExpr.position, fill: [], align: 'calendar',
    ...(bucket.timeZone === undefined ? {} : { timeZone: bucket.timeZone }),
  };
  const rewritten = items.map((item, k) => (bucketed.includes(k) ? { ...item, expr: timestamp } : item));
  if (bucket.local !== true || bucket.timeZone === undefined) return { clause, items: rewritten };
  // Bound over the groups, where the bucket start answers to the timestamp's bare name.
  const start: Expr = timestamp.kind === 'column' ? { kind: 'column', position: timestamp.position, name: timestamp.name } : timestamp;
  const bucketOutput: Expr = { kind: 'call', position: bucketExpr.position, name: 'to_timezone', args: [start, bucket.timeZone], star: false, distinct: false, ignoreNulls: false };
  return { clause, items: rewritten, bucketOutput };
}

/** The bucket a key expression computes from the designated timestamp, if it is one of the recognised forms. */
export function bucketOf(expr: Expr, isDesignatedTimestamp: (expr: Expr) => boolean): Bucket | undefined {
  if (expr.kind !== 'call' || expr.over !== undefined) return undefined;
  const name = expr.name.toLowerCase();
  if (name === 'to_utc' && expr.args.length === 2) {
    const floored = expr.args[0];
    const zone = textLiteral(expr.args[1]);
    const bucket = floored.kind === 'call' ? localBucketOf(floored, isDesignatedTimestamp) : undefined;
    return bucket !== undefined && zone === textLiteral(bucket.timeZone as Expr) ? { ...bucket, local: false } : undefined;
  }
  const unit = floorUnitOf(expr);
  if (unit === undefined) return undefined;
  return isDesignatedTimestamp(expr.args[1]) ? unit : localBucketOf(expr, isDesignatedTimestamp);
}

/**
 * `floor(to_timezone(ts, tz))`: the local-time bucket (shown as local time unless to_utc wraps it). Sub-day
 * buckets in a zone with daylight saving meet the repeated hour of a fall-back change, where to_utc and SAMPLE
 * BY pick different instants for the bucket start, so only fixed-offset zones take sub-day units.
 */
function localBucketOf(floored: CallExpr, isDesignatedTimestamp: (expr: Expr) => boolean): Bucket | undefined {
  const unit = floorUnitOf(floored);
  const local = floored.args[1];
  if (unit === undefined || local === undefined || local.kind !== 'call' || local.name.toLowerCase() !== 'to_timezone' || local.args.length !== 2) return undefined;
  const zone = local.args[1];
  const zoneText = textLiteral(zone);
  if (zoneText === undefined || !isDesignatedTimestamp(local.args[0])) return undefined;
  // An unknown zone keeps the GROUP BY plan, so its error is to_timezone's.
  if (resolveTimeZone(zoneText) === undefined) return undefined;
  if (SUB_DAY_UNITS.has(unit.unit) && !FIXED_OFFSET_ZONE.test(zoneText)) return undefined;
  return { ...unit, timeZone: zone, local: true };
}

/** Stride and unit of `timestamp_floor('15m', x)` or `date_trunc('hour', x)`; undefined for other calls. */
function floorUnitOf(expr: CallExpr): { count: number; unit: TimeUnit } | undefined {
  if (expr.args.length !== 2 || expr.over !== undefined) return undefined;
  const text = textLiteral(expr.args[0]);
  if (text === undefined) return undefined;
  const name = expr.name.toLowerCase();
  if (name === 'date_trunc') return TRUNC_UNITS[text.toLowerCase()];
  if (name !== 'timestamp_floor') return undefined;
  const match = /^(\d*)([A-Za-z])$/.exec(text);
  if (match === null || !FLOOR_UNITS.has(match[2])) return undefined;
  const count = match[1] === '' ? 1 : Number(match[1]);
  return Number.isSafeInteger(count) && count >= 1 ? { count, unit: match[2] as TimeUnit } : undefined;
}

function textLiteral(expr: Expr): string | undefined {
  return expr.kind === 'literal' && expr.literalType === 'STRING' && typeof expr.value === 'string' ? expr.value : undefined;
}

function timestampIn(expr: Expr, isDesignatedTimestamp: (expr: Expr) => boolean): Expr | undefined {
  if (isDesignatedTimestamp(expr)) return expr;
  if (expr.kind !== 'call') return undefined;
  for (const arg of expr.args) {
    const found = timestampIn(arg, isDesignatedTimestamp);
    if (found !== undefined) return found;
  }
  return undefined;
}

function anyColumn(expr: Expr, test: (expr: Expr) => boolean): boolean {
  if (test(expr)) return true;
  return childrenOf(expr).some((child) => anyColumn(child, test));
}

function containsAggregateCall(expr: Expr): boolean {
  if (expr.kind === 'call' && expr.over === undefined && isAggregateName(expr.name)) return true;
  return childrenOf(expr).some(containsAggregateCall);
}

/** Index among the select-list keys of a GROUP BY entry (position, output name, column name or same expression). */
function selectedKeyIndex(expr: Expr, items: readonly BucketItem[], keyIndexes: readonly number[]): number {
  if (expr.kind === 'literal' && expr.literalType === 'INT') {
    const index = Number(expr.value) - 1;
    return keyIndexes.includes(index) ? index : -1;
  }
  const key = exprKey(expr);
  const name = expr.kind === 'column' && expr.qualifier === undefined ? expr.name.toLowerCase() : undefined;
  return keyIndexes.find((k) => {
    const item = items[k];
    return (name !== undefined && item.name.toLowerCase() === name) || exprKey(item.expr) === key;
  }) ?? -1;
}

function exprKey(expr: Expr): string {
  return JSON.stringify(expr, (key: string, value: unknown): unknown => {
    if (typeof value === 'bigint') return value.toString();
    return key === 'position' || key.endsWith('Position') || key === 'text' ? undefined : value;
  });
}
