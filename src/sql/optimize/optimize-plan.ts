// The optimizer: an ordered list of pure passes over the logical plan, each plan in → plan out, applied once per
// statement after binding. Order matters where a pass creates what a later one matches; each entry says why it
// sits where it does.
import type { LogicalPlan } from '../plan/logical-plan.js';

export interface OptimizerPass {
  readonly name: string;
  readonly apply: (plan: LogicalPlan) => LogicalPlan;
}

export const OPTIMIZER_PASSES: readonly OptimizerPass[] = [];

export function optimizePlan(plan: LogicalPlan, passes: readonly OptimizerPass[] = OPTIMIZER_PASSES): LogicalPlan {
  let current = plan;
  for (const pass of passes) current = pass.apply(current);
  return current;
}
