// Pass: LIMIT forms that keep only rows from the end (`-n`, `-m,-n`) directly over a table scan read only the
// scan's last rows: the rows of sorted storage those forms can return. The LIMIT itself stays on top (it still
// cuts `-m,-n`). Runs after the interval pass, so the tail is taken of the pruned ranges.
import type { LogicalPlan } from '../plan/logical-plan.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import type { OptimizerPass } from './optimizer-pass.js';

export const tailLimitPass: OptimizerPass = { name: 'tail limit', apply: (plan) => rewriteBottomUp(plan, tailLimitNode) };

function tailLimitNode(plan: LogicalPlan): LogicalPlan {
  if (plan.kind !== 'limit' || plan.input.kind !== 'scan' || plan.lo >= 0 || (plan.hi !== undefined && plan.hi >= 0)) return plan;
  const scan = plan.input;
  const rows = Math.max(-plan.lo, plan.hi === undefined ? 0 : -plan.hi);
  return { ...plan, input: { kind: 'tail', input: scan, rows, columns: scan.columns, timestampIndex: scan.timestampIndex } };
}
