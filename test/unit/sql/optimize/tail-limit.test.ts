// The tail-limit pass: LIMIT forms that keep only the last rows read only the tail of a scan; forms that keep
// leading rows, and limits over anything but a scan, are left alone.
import test from 'ava';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import { filterPlan, limitPlan, projectPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { tailLimitPass } from '../../../../src/sql/optimize/tail-limit.js';
import { boundWhere, explainAfterPass, fakeSnapshot } from '../../../helpers/plan-fixtures.js';

const COLUMNS = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'x', type: 'LONG' }] as const;
const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1]);

function optimized(plan: LogicalPlan): string[] {
  return explainAfterPass(tailLimitPass, plan);
}

test('LIMIT -n reads the last n rows of the scan', (t) => {
  t.deepEqual(optimized(limitPlan(scan, -5, undefined)), ['Limit -5', '    Tail 5', '        Scan t [ts, x]']);
});

test('LIMIT -m,-n reads the last m rows', (t) => {
  t.deepEqual(optimized(limitPlan(scan, -10, -5)), ['Limit -10,-5', '    Tail 10', '        Scan t [ts, x]']);
});

test('leading-row limits and limits over a filter are unchanged', (t) => {
  t.deepEqual(optimized(limitPlan(scan, 5, undefined)), ['Limit 5', '    Scan t [ts, x]']);
  t.deepEqual(optimized(limitPlan(scan, 2, -1)), ['Limit 2,-1', '    Scan t [ts, x]']);
  t.deepEqual(optimized(limitPlan(filterPlan(scan, boundWhere('x > 1', COLUMNS)), -5, undefined))[1], '    Filter >(x, 1)');
});

test('a tail LIMIT moves below a projection that only picks columns to reach the scan', (t) => {
  const picked = projectPlan(scan, [{ kind: 'column', type: 'LONG', index: 1, position: 0 }], ['xx'], -1);
  t.deepEqual(optimized(limitPlan(picked, -3, undefined)), ['Project x as xx', '    Limit -3', '        Tail 3', '            Scan t [ts, x]']);
  t.deepEqual(optimized(limitPlan(picked, 3, undefined)), ['Limit 3', '    Project x as xx', '        Scan t [ts, x]']);
});
