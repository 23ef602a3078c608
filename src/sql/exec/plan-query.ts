// The stages after binding, in order: check the bound plan's invariants, run the optimizer passes, pick the
// operators. Invariants are checked once per statement, on the bound plan (tests check them after every pass). Injected into the binder's SourceEnv (finishPlan) so bind/ never imports a later stage.
import type { QueryFactory } from './operator.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { optimizePlan, optimizerPasses } from '../optimize/optimize-plan.js';
import { evaluateConstantCall } from './evaluate-constant.js';
import { physicalPlan } from './physical-planner.js';
import { assertPlanInvariants } from '../plan/plan-invariants.js';

const OPTIMIZER_PASSES = optimizerPasses(evaluateConstantCall);

export function finishPlan(plan: LogicalPlan): QueryFactory {
  return finishPlanExplained(plan).factory;
}

/** The factory and the optimized logical plan it was planned from (EXPLAIN (VERBOSE) prints both). */
export function finishPlanExplained(plan: LogicalPlan): { factory: QueryFactory; optimized: LogicalPlan } {
  assertPlanInvariants(plan);
  const optimized = optimizePlan(plan, OPTIMIZER_PASSES);
  return { factory: physicalPlan(optimized), optimized };
}
