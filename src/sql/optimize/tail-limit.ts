// Pass: LIMIT forms that keep only rows from the end (`-n`, `-m,-n`) over a table scan read only the scan's last
// rows: the rows of sorted storage those forms can return. The LIMIT itself stays on top (it still cuts `-m,-n`).
// To reach the scan, a LIMIT moves below projections that only pick columns (a subquery's select list): they
// keep every row in order, so limiting before or after picks the same rows. Runs after the interval pass, so the
// tail is taken of the pruned ranges.
import type { LimitPlan, LogicalPlan } from '../plan/logical-plan.js';
import { limitPlan, projectPlan } from '../plan/plan-builders.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import type { OptimizerPass } from './optimizer-pass.js';

export const tailLimitPass: OptimizerPass = { name: 'tail limit', apply: (plan) => rewriteBottomUp(plan, (node) => (node.kind === 'limit' ? tailLimit(node) : node)) };

function tailLimit(plan: LimitPlan): LogicalPlan {
  if (plan.lo >= 0 || (plan.hi !== undefined && plan.hi >= 0)) return plan;
  const input = plan.input;
  if (input.kind === 'project' && input.exprs.every((expr) => expr.kind === 'column')) {
    const below = tailLimit(limitPlan(input.input, plan.lo, plan.hi));
    return below.kind === 'limit' && below.input.kind === 'tail' ? projectPlan(below, input.exprs, input.columns.map((column) => column.name), input.timestampIndex) : plan;
  }
  if (input.kind !== 'scan') return plan;
  const rows = Math.max(-plan.lo, plan.hi === undefined ? 0 : -plan.hi);
  return { ...plan, input: { kind: 'tail', input, rows, columns: input.columns, timestampIndex: input.timestampIndex } };
}
