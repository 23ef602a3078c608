// Pass: count(*) without keys is answered from the table layout or the filter, not by aggregating rows. Over a
// table scan (interval-pruned or not) the count is the rows in the scanned ranges, read from _txn metadata; over a
// filter it is the filter's match count, with no rows gathered. Runs after the interval pass, so a WHERE that only
// restricts the designated timestamp has become scan ranges and still counts from metadata.
import type { AggregatePlan, LogicalPlan } from '../plan/logical-plan.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import type { OptimizerPass } from './optimizer-pass.js';
import { assert } from '../../core/assert.js';

export const countRowsPass: OptimizerPass = { name: 'count rows', apply: (plan) => rewriteBottomUp(plan, countRowsNode) };

function countRowsNode(plan: LogicalPlan): LogicalPlan {
  if (plan.kind !== 'aggregate' || !countsRowsOnly(plan)) return plan;
  // Projections that only pick columns keep every row, and count(*) reads none of them (the binder's projection
  // of aggregate arguments, empty here, or a subquery's select list). One that computes a value stays: its
  // evaluation can fail, and the count must not skip that.
  let source = plan.input;
  while (source.kind === 'project' && source.exprs.every((expr) => expr.kind === 'column')) source = source.input;
  if (source.kind !== 'scan' && source.kind !== 'filter') return plan;
  assert(plan.aggregates.every((spec) => spec.resultType === 'LONG'), 'count(*) is LONG');
  return { kind: 'countRows', input: source, columns: plan.columns, timestampIndex: -1 };
}

function countsRowsOnly(plan: AggregatePlan): boolean {
  return plan.keyCount === 0 && plan.aggregates.length > 0 && plan.aggregates.every((spec) => spec.kind === 'count' && spec.argIndex < 0);
}
