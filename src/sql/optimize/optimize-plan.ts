// The optimizer: an ordered list of pure passes over the logical plan, each plan in → plan out, applied once per
// statement after binding. Order matters where a pass creates what a later one matches; each entry says why it
// sits where it does. The constant evaluator comes from the caller (exec/plan-query.ts): evaluating runs
// compiled code, a later stage than this one.
import type { LogicalPlan } from '../plan/logical-plan.js';
import { timeBucketGroupByPass } from './time-bucket-group-by.js';
import type { ConstantEvaluator } from './constant-folding.js';
import { constantFoldingPass } from './constant-folding.js';
import { predicatePushDownPass } from './predicate-push-down.js';
import { intervalScanPass } from './interval-scan.js';
import { countRowsPass } from './count-rows.js';
import { tailLimitPass } from './tail-limit.js';
import { projectionPruningPass } from './projection-pruning.js';
import type { OptimizerPass } from './optimizer-pass.js';

export function optimizerPasses(evaluate: ConstantEvaluator): readonly OptimizerPass[] {
  return [
    // First, on the plan as bound: it matches the binder's select list → aggregate → keys → filters → scan, and
    // the SAMPLE BY it makes meets the later passes exactly as a written SAMPLE BY does.
    timeBucketGroupByPass,
    // Before the passes that match expressions: they see `ts > '2024-01-04T00:00:00.000000Z'` where the query
    // wrote `ts > dateadd('d', -1, '2024-01-05')`.
    constantFoldingPass(evaluate),
    // Then filters of outer queries move down to the scans of subqueries and CTEs, where the next pass finds them.
    predicatePushDownPass,
    // The passes below match scans, and a WHERE on the designated timestamp alone becomes scan ranges here.
    intervalScanPass,
    countRowsPass,
    tailLimitPass,
    // Last: filters have moved and shrunk, so the columns still read under each projection are final.
    projectionPruningPass,
  ];
}

export function optimizePlan(plan: LogicalPlan, passes: readonly OptimizerPass[]): LogicalPlan {
  let current = plan;
  for (const pass of passes) current = pass.apply(current);
  return current;
}
