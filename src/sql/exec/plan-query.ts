// The stages after binding, in order: check the bound plan's invariants, run the optimizer passes, pick the
// operators. Injected into the binder's SourceEnv (finishPlan) so bind/ never imports a later stage.
import type { QueryFactory } from './operator.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { optimizePlan } from '../optimize/optimize-plan.js';
import { physicalPlan } from './physical-planner.js';

export function finishPlan(plan: LogicalPlan): QueryFactory {
  return physicalPlan(optimizePlan(plan));
}
