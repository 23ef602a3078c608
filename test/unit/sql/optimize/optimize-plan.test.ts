// The whole pass list in order, with the plan invariants checked after every pass: an outer WHERE over a
// subquery that renames columns reaches the scan, becomes its intervals, and the scan reads only what is used.
import test from 'ava';
import type { BoundExpr } from '../../../../src/sql/bind/bound.js';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import { filterPlan, projectPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { explainLogical } from '../../../../src/sql/plan/explain-logical.js';
import { assertPlanInvariants } from '../../../../src/sql/plan/plan-invariants.js';
import { optimizePlan, optimizerPasses } from '../../../../src/sql/optimize/optimize-plan.js';
import { evaluateConstantCall } from '../../../../src/sql/exec/evaluate-constant.js';
import { boundWhere, fakeSnapshot } from '../../../helpers/plan-fixtures.js';

const COLUMNS = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'x', type: 'LONG' }, { name: 'y', type: 'LONG' }] as const;
const OPTIMIZER_PASSES = optimizerPasses(evaluateConstantCall);
const column = (index: number, type: 'TIMESTAMP' | 'LONG'): BoundExpr => ({ kind: 'column', type, index, position: 0 });

test('every pass keeps the invariants, and the passes together reach the scan', (t) => {
  const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1, 2]);
  const subquery = projectPlan(scan, [column(0, 'TIMESTAMP'), column(1, 'LONG')], ['at', 'xx'], 0);
  let plan: LogicalPlan = filterPlan(subquery, boundWhere("at in '2024-01-02'", [{ name: 'at', type: 'TIMESTAMP' }, { name: 'xx', type: 'LONG' }]));
  assertPlanInvariants(plan);
  for (const pass of OPTIMIZER_PASSES) {
    plan = pass.apply(plan);
    t.notThrows(() => assertPlanInvariants(plan), pass.name);
  }
  const expected = ['Project ts as at, x as xx', '    Scan t [ts, x] intervals: [2024-01-02T00:00:00.000000Z, 2024-01-02T23:59:59.999999Z] ranges: 1'];
  t.deepEqual(explainLogical(plan), expected);
  t.deepEqual(explainLogical(optimizePlan(filterPlan(subquery, boundWhere("at in '2024-01-02'", [{ name: 'at', type: 'TIMESTAMP' }, { name: 'xx', type: 'LONG' }])), OPTIMIZER_PASSES)), expected);
});
