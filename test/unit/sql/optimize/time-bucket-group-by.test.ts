// The time-bucket pass: an aggregation keyed by one calendar bucket of an ordered scan's designated timestamp
// (timestamp_floor, date_trunc, their local-time forms, QuestDB's to_utc(floor(to_timezone(ts, tz)), tz)) becomes
// the SAMPLE BY the SAMPLE BY binder makes, with the bucket key leading and the select list renumbered; the forms
// without a SAMPLE BY equivalent keep the aggregation. Plans are built as the binder builds a GROUP BY: select
// list → aggregate → [keys, aggregate arguments] → filters → scan. Every output plan keeps the plan invariants.
import test from 'ava';
import type { BoundExpr } from '../../../../src/sql/bind/bound.js';
import type { LogicalPlan, SamplePlan } from '../../../../src/sql/plan/logical-plan.js';
import type { ValueType } from '../../../../src/types/column-type.js';
import { aggregatePlan, filterPlan, projectPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { timeBucketGroupByPass } from '../../../../src/sql/optimize/time-bucket-group-by.js';
import type { FakeColumn } from '../../../helpers/plan-fixtures.js';
import { boundItem, boundWhere, countStar, explainAfterPass, fakeSnapshot, sumOf } from '../../../helpers/plan-fixtures.js';

const COLUMNS: readonly FakeColumn[] = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'k', type: 'SYMBOL' }, { name: 'x', type: 'LONG' }, { name: 'other', type: 'TIMESTAMP' }];
const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1, 2, 3]);
const column = (index: number, type: ValueType): BoundExpr => ({ kind: 'column', type, index, position: 0 });

/**
 * `select <keys>, sum(x) s, count() c from <input> group by <keys>` as the binder plans it: `keys` (SQL text over
 * the table's columns) are the group keys in order, `shown` the key indexes the select list shows, in its order.
 */
function groupBy(keys: readonly string[], shown: readonly number[] = keys.map((_, k) => k), input: LogicalPlan = scan): LogicalPlan {
  const keyExprs = keys.map((key) => boundItem(key, COLUMNS));
  const pre = projectPlan(input, [...keyExprs, column(2, 'LONG')], [...keys.map((_, k) => `p${k}`), `p${keys.length}`], -1);
  const groups = aggregatePlan(pre, keys.length, [sumOf(keys.length, 's'), countStar('c')]);
  const post = [...shown.map((k) => column(k, keyExprs[k]?.type ?? 'NULL')), column(keys.length, 'LONG'), column(keys.length + 1, 'LONG')];
  return projectPlan(groups, post, [...shown.map((k) => `key${k}`), 's', 'c'], -1);
}

function optimized(plan: LogicalPlan): string[] {
  return explainAfterPass(timeBucketGroupByPass, plan);
}

function sampleOf(plan: LogicalPlan): SamplePlan | undefined {
  const input = timeBucketGroupByPass.apply(plan);
  return input.kind === 'project' && input.input.kind === 'sample' ? input.input : undefined;
}

test('GROUP BY timestamp_floor of the designated timestamp samples the ordered scan', (t) => {
  t.deepEqual(optimized(groupBy(["timestamp_floor('15m', ts)"])), [
    'Project ts as key0, s as s, c as c',
    '    Sample 15m keys: 0 values: [s, c] ordered',
    '        Project ts as ts, x as p1',
    '            Scan t [ts, k, x, other]',
  ]);
});

test('the bucket key moves first among the keys and the select list follows it', (t) => {
  t.deepEqual(optimized(groupBy(['k', "date_trunc('hour', ts)", 'x % 2'])), [
    'Project p1 as key0, ts as key1, p2 as key2, s as s, c as c',
    '    Sample 1h keys: 2 values: [s, c] ordered',
    "        Project ts as ts, k as p1, %(x, 2) as p2, x as p3",
    '            Scan t [ts, k, x, other]',
  ]);
});

test('a bucket the select list does not show still groups', (t) => {
  t.deepEqual(optimized(groupBy(['k', "timestamp_floor('2h', ts)"], [0]))[0], 'Project p1 as key0, s as s, c as c');
});

test('WHERE stays under the projection of the sample input', (t) => {
  const filtered = filterPlan(scan, boundWhere('x > 3', COLUMNS));
  t.deepEqual(optimized(groupBy(["date_trunc('Quarter', ts)"], [0], filtered)).slice(1), [
    '    Sample 3M keys: 0 values: [s, c] ordered',
    '        Project ts as ts, x as p1',
    '            Filter >(x, 3)',
    '                Scan t [ts, k, x, other]',
  ]);
});

test('a bucket in a time zone samples in that zone, and a local-time bucket shows the start as local time', (t) => {
  const utc = groupBy(["to_utc(timestamp_floor('1d', to_timezone(ts, 'Europe/Berlin')), 'Europe/Berlin')"]);
  t.is(optimized(utc)[0], 'Project ts as key0, s as s, c as c');
  t.not(sampleOf(utc)?.sampler.timeZone, undefined);
  const local = groupBy(["date_trunc('month', to_timezone(ts, 'America/New_York'))"]);
  t.is(optimized(local)[0], "Project to_timezone(ts, 'America/New_York') as key0, s as s, c as c");
  t.deepEqual([sampleOf(local)?.sampler.count, sampleOf(local)?.sampler.unit], [1, 'M']);
  t.is(optimized(groupBy(["to_utc(timestamp_floor('1h', to_timezone(ts, '+05:30')), '+05:30')"]))[1], '    Sample 1h keys: 0 values: [s, c] ordered');
});

test('a nanosecond designated timestamp keeps its type through the bucket', (t) => {
  const nanos: readonly FakeColumn[] = [{ name: 'ts', type: 'TIMESTAMP_NS' }, { name: 'x', type: 'LONG' }];
  const nanoScan = scanPlan(fakeSnapshot('n', nanos, 0), [0, 1]);
  const key = boundItem("timestamp_floor('1s', ts)", nanos, 'n');
  const groups = aggregatePlan(projectPlan(nanoScan, [key, column(1, 'LONG')], ['p0', 'p1'], -1), 1, [sumOf(1, 's')]);
  const plan = projectPlan(groups, [column(0, 'TIMESTAMP_NS'), column(1, 'LONG')], ['b', 's'], -1);
  t.is(optimized(plan)[1], '    Sample 1s keys: 0 values: [s] ordered');
  t.is(sampleOf(plan)?.nanos, true);
});

test('a select-list call reading a SYMBOL key outside its arguments reads the groups in their old order', (t) => {
  const groupsPlan = groupBy(['k', "timestamp_floor('1h', ts)"]);
  if (groupsPlan.kind !== 'project') throw new TypeError('groupBy plans a select list');
  const inList = boundWhere("k in ('a', 'b')", [{ name: 'k', type: 'SYMBOL' }, { name: 'b', type: 'TIMESTAMP' }]);
  const plan = projectPlan(groupsPlan.input, [inList, column(1, 'TIMESTAMP')], ['in_ab', 'b'], -1);
  t.deepEqual(optimized(plan).slice(0, 3), [
    // The symbol IN tests the key column's bitmap, so it shows no arguments.
    'Project in() as in_ab, p1 as b',
    '    Project p1 as p0, ts as p1, s as s, c as c',
    '        Sample 1h keys: 1 values: [s, c] ordered',
  ]);
});

const KEPT: readonly (readonly string[])[] = [
  // Not the designated timestamp, or not a bucket of it.
  ["timestamp_floor('1h', other)"],
  ["timestamp_floor('1h', dateadd('s', 1, ts))"],
  ['ts'],
  // Two time keys, or another key reading the timestamp.
  ["timestamp_floor('1h', ts)", "timestamp_floor('1d', ts)"],
  ["timestamp_floor('1h', ts)", 'hour(ts)'],
  // Units and zones without a SAMPLE BY equivalent (or where to_utc and SAMPLE BY differ at DST changes).
  ["date_trunc('decade', ts)"],
  ["timestamp_floor('10n', ts)"],
  ["to_utc(timestamp_floor('1h', to_timezone(ts, 'Europe/Berlin')), 'Europe/Berlin')"],
  ["to_utc(timestamp_floor('1d', to_timezone(ts, 'Europe/Berlin')), 'Europe/Paris')"],
  ["timestamp_floor('1h', to_timezone(ts, 'Europe/Berlin'))"],
  ["timestamp_floor('1h', ts, '2024-01-01T00:30:00Z')"],
];

for (const keys of KEPT) {
  test(`kept as GROUP BY: ${keys.join(', ')}`, (t) => {
    t.regex(optimized(groupBy(keys))[1] ?? '', /^ {4}Aggregate keys/);
  });
}

test('HAVING between the select list and the aggregation keeps the GROUP BY', (t) => {
  const plan = groupBy(["timestamp_floor('1h', ts)"]);
  if (plan.kind !== 'project') throw new TypeError('groupBy plans a select list');
  const having = filterPlan(plan.input, boundWhere('c > 1', [{ name: 'p0', type: 'TIMESTAMP' }, { name: 's', type: 'LONG' }, { name: 'c', type: 'LONG' }]));
  t.regex(optimized(projectPlan(having, plan.exprs, ['b', 's', 'c'], -1))[2] ?? '', /^ {8}Aggregate keys/);
});

test('an input that is not a table scan, or a scan without a designated timestamp, keeps the GROUP BY', (t) => {
  const projected = projectPlan(scan, [column(0, 'TIMESTAMP'), column(1, 'SYMBOL'), column(2, 'LONG')], ['ts', 'k', 'x'], 0);
  t.regex(optimized(groupBy(["timestamp_floor('1h', ts)"], [0], projected))[1] ?? '', /^ {4}Aggregate keys/);
  const unordered = scanPlan(fakeSnapshot('u', COLUMNS, -1), [0, 1, 2, 3]);
  t.regex(optimized(groupBy(["timestamp_floor('1h', ts)"], [0], unordered))[1] ?? '', /^ {4}Aggregate keys/);
});
