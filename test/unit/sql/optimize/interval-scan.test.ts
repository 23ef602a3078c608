// The interval pass: designated-timestamp conjuncts of a filter over a scan become the scan's intervals and row
// ranges, the rest stays a filter; LATEST ON over a backward scan keeps only the residual, over other inputs it
// filters first. Every output plan also keeps the plan invariants.
import test from 'ava';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import { filterPlan, latestPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { intervalScanPass } from '../../../../src/sql/optimize/interval-scan.js';
import { boundWhere, explainAfterPass, fakeSnapshot } from '../../../helpers/plan-fixtures.js';

const COLUMNS = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'x', type: 'LONG' }, { name: 'k', type: 'SYMBOL' }] as const;
const snapshot = fakeSnapshot('t', COLUMNS, 0);
const scan = scanPlan(snapshot, [0, 1, 2]);

function optimized(plan: LogicalPlan): string[] {
  return explainAfterPass(intervalScanPass, plan);
}

test('a WHERE on the designated timestamp alone becomes the scan ranges', (t) => {
  t.deepEqual(optimized(filterPlan(scan, boundWhere("ts in '2024-01-02'", COLUMNS))), [
    'Scan t [ts, x, k] intervals: [2024-01-02T00:00:00.000000Z, 2024-01-02T23:59:59.999999Z] ranges: 1',
  ]);
});

test('the other conjuncts stay a filter over the pruned scan', (t) => {
  t.deepEqual(optimized(filterPlan(scan, boundWhere("x > 3 and ts >= '2024-01-02'", COLUMNS))), [
    'Filter >(x, 3)',
    '    Scan t [ts, x, k] intervals: [2024-01-02T00:00:00.000000Z, MAX] ranges: 2',
  ]);
});

test('a filter without a timestamp conjunct is left as it is', (t) => {
  t.deepEqual(optimized(filterPlan(scan, boundWhere('x > 3', COLUMNS))), ['Filter >(x, 3)', '    Scan t [ts, x, k]']);
});

test('a scan without a designated timestamp is not pruned', (t) => {
  const plain = scanPlan(fakeSnapshot('p', COLUMNS, -1), [0, 1, 2]);
  t.deepEqual(optimized(filterPlan(plain, boundWhere("ts in '2024-01-02'", COLUMNS))).length, 2);
});

test('an interval string is one interval test, which a filter keeps with its ranges when no scan takes them', (t) => {
  const plain = scanPlan(fakeSnapshot('p', COLUMNS, -1), [0, 1, 2]);
  t.deepEqual(optimized(filterPlan(plain, boundWhere("ts not in '2024-01-02T00:00:00;1h;2d;2'", COLUMNS))), [
    'Filter not(in_interval(ts, [2024-01-02T00:00:00.000000Z, 2024-01-02T01:00:00.999999Z],[2024-01-04T00:00:00.000000Z, 2024-01-04T01:00:00.999999Z]))',
    '    Scan p [ts, x, k]',
  ]);
  t.deepEqual(optimized(filterPlan(scan, boundWhere("ts not in '2024-01-02'", COLUMNS))), [
    'Scan t [ts, x, k] intervals: [MIN, 2024-01-01T23:59:59.999999Z],[2024-01-03T00:00:00.000000Z, MAX] ranges: 2',
  ]);
});

test('LATEST ON by the designated timestamp keeps the residual and reads the pruned scan', (t) => {
  const latest = latestPlan(scan, { predicate: boundWhere("ts in '2024-01-01' and x > 1", COLUMNS), keySlots: [2], timestampSlot: 0, designated: true });
  t.deepEqual(optimized(latest), [
    'Latest keys: [k] where >(x, 1)',
    '    Scan t [ts, x, k] intervals: [2024-01-01T00:00:00.000000Z, 2024-01-01T23:59:59.999999Z] ranges: 1',
  ]);
});

test('LATEST ON over another timestamp filters first, and the filter is pruned like any other', (t) => {
  const latest = latestPlan(scan, { predicate: boundWhere("ts in '2024-01-03'", COLUMNS), keySlots: [2], timestampSlot: 0, designated: false });
  t.deepEqual(optimized(latest), [
    'Latest keys: [k]',
    '    Scan t [ts, x, k] intervals: [2024-01-03T00:00:00.000000Z, 2024-01-03T23:59:59.999999Z] ranges: 1',
  ]);
});
