// Pass: GROUP BY a calendar bucket of the designated timestamp runs as SAMPLE BY. TSBS and Grafana write
// `GROUP BY timestamp_floor('1h', ts)` or `date_trunc('hour', ts)` (and QuestDB's own spelling of SAMPLE BY ...
// TIME ZONE, `to_utc(timestamp_floor('1h', to_timezone(ts, tz)), tz)`) where SAMPLE BY would do: over a table
// scan, which yields rows in timestamp order, those buckets are runs that SAMPLE BY folds without hashing. The
// results and their order stay: the hash GROUP BY emits groups in first-seen order, which over an ascending scan
// is bucket order, and keys within a bucket in first-seen order, as keyed SAMPLE BY does. Runs first, on the
// plan as the binder built it: select list → aggregate → [keys, arguments] → filters → scan.
import type { BoundColumn, BoundExpr } from '../bind/bound.js';
import type { AggregatePlan, LogicalPlan, ProjectPlan, ScanPlan } from '../plan/logical-plan.js';
import type { AggregateSpec, SamplerSpec } from '../plan/plan-specs.js';
import { projectPlan, samplePlan } from '../plan/plan-builders.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import { symbolColumnsOf } from '../plan/expression-refs.js';
import type { TimeBucket } from './time-bucket.js';
import { timeBucketOf } from './time-bucket.js';
import type { OptimizerPass } from './optimizer-pass.js';
import { assert, assertNever } from '../../core/assert.js';

export const timeBucketGroupByPass: OptimizerPass = {
  name: 'time bucket group by',
  apply: (plan) => rewriteBottomUp(plan, (node) => (node.kind === 'project' ? sampledSelectList(node) : node)),
};

/** What the aggregation under a select list groups by, when one key is a bucket of an ordered scan's timestamp. */
interface BucketGroups {
  readonly groups: AggregatePlan;
  /** The projection of keys and aggregate arguments the aggregation reads. */
  readonly keys: ProjectPlan;
  readonly scan: ScanPlan;
  /** Which of the group keys is the bucket. */
  readonly bucketKey: number;
  readonly bucket: TimeBucket;
}

/**
 * The select list over the aggregation, now over a SAMPLE BY of the same groups. A select list with HAVING
 * between it and the aggregation keeps the GROUP BY, as SAMPLE BY has no HAVING.
 */
function sampledSelectList(plan: ProjectPlan): LogicalPlan {
  const match = plan.input.kind === 'aggregate' ? matchBucketGroups(plan.input) : undefined;
  if (match === undefined) return plan;
  const { groups, bucketKey } = match;
  const sampled = sampleOf(match);
  const groupColumns = groupColumnsOver(match, sampled.columns[0]?.type ?? 'TIMESTAMP');
  // The bucket start must read as the key did (type included), or the select list would change.
  if (groupColumns[bucketKey]?.type !== groups.columns[bucketKey]?.type) return plan;
  const names = plan.columns.map((column) => column.name);
  const exprs = plan.exprs.map((expr) => overGroupColumns(expr, groupColumns));
  if (exprs.every((expr): expr is BoundExpr => expr !== undefined)) return projectPlan(sampled, exprs, names, plan.timestampIndex);
  // A call reading a SYMBOL key outside its arguments cannot be renumbered: the group columns are put back in
  // the aggregation's order first.
  const regrouped = projectPlan(sampled, groupColumns, groups.columns.map((column) => column.name), -1);
  return projectPlan(regrouped, plan.exprs, names, plan.timestampIndex);
}

function matchBucketGroups(groups: AggregatePlan): BucketGroups | undefined {
  const keys = groups.input;
  if (keys.kind !== 'project') return undefined;
  let source: LogicalPlan = keys.input;
  while (source.kind === 'filter') source = source.input;
  if (source.kind !== 'scan' || source.timestampIndex < 0) return undefined;
  const timestamp = source.timestampIndex;
  const keyExprs = keys.exprs.slice(0, groups.keyCount);
  const buckets = keyExprs.map((key) => timeBucketOf(key, timestamp));
  const bucketKey = buckets.findIndex((bucket) => bucket !== undefined);
  const bucket = buckets[bucketKey];
  if (bucket === undefined) return undefined;
  // The other keys must not read the timestamp: SAMPLE BY would group them per bucket, GROUP BY per value
  // (this also leaves a second bucket key to the GROUP BY).
  if (keyExprs.some((key, k) => k !== bucketKey && readsColumn(key, timestamp))) return undefined;
  return { groups, keys, scan: source, bucketKey, bucket };
}

/** Key `old` of the aggregation among the sample's keys: the bucket leads, the others keep their order. */
function sampleKeyIndex(old: number, bucketKey: number, keyCount: number): number {
  if (old >= keyCount) return old;
  return old === bucketKey ? 0 : old < bucketKey ? old + 1 : old;
}

/** The SAMPLE BY the SAMPLE BY binder makes for these groups: calendar aligned, no FILL, no FROM/TO. */
function sampleOf(match: BucketGroups): LogicalPlan {
  const { groups, keys, scan, bucketKey, bucket } = match;
  const keyCount = groups.keyCount;
  const timestamp = scan.columns[scan.timestampIndex];
  assert(timestamp !== undefined, 'a scan reads its designated timestamp column');
  const start: BoundColumn = { kind: 'column', type: timestamp.type, index: scan.timestampIndex, position: keys.exprs[bucketKey]?.position ?? 0 };
  const exprs: BoundExpr[] = [start];
  keys.exprs.forEach((expr, k) => {
    if (k !== bucketKey) exprs.push(expr);
  });
  assert(exprs.length === keys.exprs.length, 'the bucket key is replaced by the timestamp, the rest keep their place');
  const input = projectPlan(keys.input, exprs, exprs.map((_, k) => (k === 0 ? 'ts' : `p${k}`)), 0);
  const aggregates = groups.aggregates.map((spec): AggregateSpec => (spec.argIndex < 0 ? spec : { ...spec, argIndex: sampleKeyIndex(spec.argIndex, bucketKey, keyCount) }));
  const sampler: SamplerSpec = { count: bucket.count, unit: bucket.unit, alignFirstObservation: false, offsetMicros: 0, ...(bucket.timeZone === undefined ? {} : { timeZone: bucket.timeZone }) };
  const sampled = samplePlan(input, { keyCount: keyCount - 1, aggregates, sampler, fills: undefined, ordered: true });
  assert(sampled.columns.length === groups.columns.length, 'SAMPLE BY yields as many columns as the aggregation it replaces');
  return sampled;
}

/** Each column of the aggregation's output as an expression over the sample's output. */
function groupColumnsOver(match: BucketGroups, startType: BoundColumn['type']): BoundExpr[] {
  const { groups, bucketKey, bucket } = match;
  const start: BoundColumn = { kind: 'column', type: startType, index: 0, position: 0 };
  // A local-time bucket shows the bucket start (a UTC instant) in the zone, through the key's own to_timezone.
  const bucketValue: BoundExpr = bucket.localTime === undefined ? start : { ...bucket.localTime, args: [start, ...bucket.localTime.args.slice(1)] };
  return groups.columns.map((column, k): BoundExpr => (k === bucketKey ? bucketValue
    : { kind: 'column', type: column.type, index: sampleKeyIndex(k, bucketKey, groups.keyCount), position: 0 }));
}

/** `expr` (over the aggregation's output) over the sample's; undefined when a call reads a column outside its arguments. */
function overGroupColumns(expr: BoundExpr, groupColumns: readonly BoundExpr[]): BoundExpr | undefined {
  switch (expr.kind) {
    case 'column': {
      const column = groupColumns[expr.index];
      assert(column !== undefined, 'the select list reads the aggregation output');
      return column.kind === 'column' ? { ...column, position: expr.position } : column;
    }
    case 'constant': return expr;
    case 'call': {
      if (symbolColumnsOf(expr)?.length !== 0) return undefined;
      const args = expr.args.map((arg) => overGroupColumns(arg, groupColumns));
      return args.every((arg): arg is BoundExpr => arg !== undefined) ? { ...expr, args } : undefined;
    }
    default: return assertNever(expr, 'bound expression');
  }
}

function readsColumn(expr: BoundExpr, index: number): boolean {
  switch (expr.kind) {
    case 'column': return expr.index === index;
    case 'constant': return false;
    case 'call': return expr.args.some((arg) => readsColumn(arg, index)) || (symbolColumnsOf(expr) ?? [index]).includes(index);
    default: return assertNever(expr, 'bound expression');
  }
}
