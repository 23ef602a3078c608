// The projection pruning pass: a projection picking columns of another projection merges into it, and the scan
// under a projection (through filters) keeps only the columns they read, with references renumbered.
import test from 'ava';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import type { BoundExpr } from '../../../../src/sql/bind/bound.js';
import { filterPlan, projectPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { projectionPruningPass } from '../../../../src/sql/optimize/projection-pruning.js';
import { boundWhere, explainAfterPass, fakeSnapshot } from '../../../helpers/plan-fixtures.js';

const COLUMNS = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'x', type: 'LONG' }, { name: 'y', type: 'LONG' }] as const;
const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1, 2]);
const column = (index: number, type: 'TIMESTAMP' | 'LONG'): BoundExpr => ({ kind: 'column', type, index, position: 0 });

function optimized(plan: LogicalPlan): string[] {
  return explainAfterPass(projectionPruningPass, plan);
}

test('the scan under a projection keeps only the columns it and the filters read', (t) => {
  const filtered = filterPlan(scan, boundWhere('y > 1', COLUMNS));
  t.deepEqual(optimized(projectPlan(filtered, [column(0, 'TIMESTAMP')], ['ts'], 0)), ['Project ts as ts', '    Filter >(y, 1)', '        Scan t [ts, y]']);
});

test('a projection picking columns of another merges into it', (t) => {
  const inner = projectPlan(scan, [column(1, 'LONG'), column(0, 'TIMESTAMP'), column(2, 'LONG')], ['xx', 'ts', 'yy'], 1);
  t.deepEqual(optimized(projectPlan(inner, [column(0, 'LONG')], ['xx'], -1)), ['Project x as xx', '    Scan t [x]']);
});

test('a projection reading every scan column, or none, is left alone', (t) => {
  t.deepEqual(optimized(projectPlan(scan, [column(2, 'LONG'), column(1, 'LONG'), column(0, 'TIMESTAMP')], ['y', 'x', 'ts'], 2))[1], '    Scan t [ts, x, y]');
  t.deepEqual(optimized(projectPlan(scan, [], [], -1)), ['Project ', '    Scan t [ts, x, y]']);
});
