// The count-rows pass: count(*) without keys over a scan or a filter is counted, not aggregated; keyed counts,
// counts of a column and other aggregates keep the aggregation. Every output plan keeps the plan invariants.
import test from 'ava';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import { aggregatePlan, filterPlan, projectPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { countRowsPass } from '../../../../src/sql/optimize/count-rows.js';
import { boundWhere, countStar, explainAfterPass, fakeSnapshot, sumOf } from '../../../helpers/plan-fixtures.js';

const COLUMNS = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'x', type: 'LONG' }] as const;
const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1]);
const xColumn = { kind: 'column', type: 'LONG', index: 1, position: 0 } as const;

function optimized(plan: LogicalPlan): string[] {
  return explainAfterPass(countRowsPass, plan);
}

test('count(*) over a scan counts the scanned rows', (t) => {
  t.deepEqual(optimized(aggregatePlan(projectPlan(scan, [], [], -1), 0, [countStar()])), ['CountRows [count]', '    Scan t [ts, x]']);
});

test('count(*) over a filter counts its matches', (t) => {
  const filtered = filterPlan(scan, boundWhere('x > 3', COLUMNS));
  t.deepEqual(optimized(aggregatePlan(projectPlan(filtered, [], [], -1), 0, [countStar('c1'), countStar('c2')])), [
    'CountRows [c1, c2]',
    '    Filter >(x, 3)',
    '        Scan t [ts, x]',
  ]);
});

test('keyed counts and other aggregates keep the aggregation', (t) => {
  const keyed = aggregatePlan(projectPlan(scan, [xColumn], ['p0'], -1), 1, [countStar()]);
  t.is(optimized(keyed)[0], 'Aggregate keys: 1 values: [count]');
  const summed = aggregatePlan(projectPlan(scan, [xColumn], ['p0'], -1), 0, [countStar(), sumOf(0)]);
  t.is(optimized(summed)[0], 'Aggregate keys: 0 values: [count, sum]');
});
