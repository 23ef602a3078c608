// The shape of one optimizer pass: a named pure function from logical plan to logical plan.
import type { LogicalPlan } from '../plan/logical-plan.js';

export interface OptimizerPass {
  readonly name: string;
  readonly apply: (plan: LogicalPlan) => LogicalPlan;
}
