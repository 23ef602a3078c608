// Pass: sub-expressions made only of constants and foldable calls (arithmetic, casts, CASE, pure functions; never
// now(), systimestamp or rnd_*, which the binder leaves unmarked) are computed once at plan time, so that the
// passes after it see constants: `ts > dateadd('d', -1, '2024-01-05')` becomes a timestamp bound the interval
// pass turns into scan ranges, and `price > 2 * 250` compares with 500 per row instead of multiplying. The
// evaluation is injected (optimize/ does not import codegen); a call it declines stays as written.
import type { BoundCall, BoundConstant, BoundExpr } from '../bind/bound.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { filterPlan, latestPlan, projectPlan } from '../plan/plan-builders.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import type { OptimizerPass } from './optimizer-pass.js';
import { assert, assertNever } from '../../core/assert.js';

/** Computes a foldable call over constant arguments; undefined leaves it to run per row. */
export type ConstantEvaluator = (call: BoundCall) => BoundConstant | undefined;

export function constantFoldingPass(evaluate: ConstantEvaluator): OptimizerPass {
  const fold = (expr: BoundExpr): BoundExpr => foldExpression(expr, evaluate);
  return { name: 'constant folding', apply: (plan) => rewriteBottomUp(plan, (node) => foldNode(node, fold)) };
}

/** The expressions rows are filtered and projected by; a rewritten node keeps its columns. */
function foldNode(plan: LogicalPlan, fold: (expr: BoundExpr) => BoundExpr): LogicalPlan {
  switch (plan.kind) {
    case 'filter': {
      const predicate = fold(plan.predicate);
      return predicate === plan.predicate ? plan : filterPlan(plan.input, predicate);
    }
    case 'project': {
      const exprs = plan.exprs.map(fold);
      if (exprs.every((expr, k) => expr === plan.exprs[k])) return plan;
      return projectPlan(plan.input, exprs, plan.columns.map((column) => column.name), plan.timestampIndex);
    }
    case 'latest': {
      const predicate = plan.predicate === undefined ? undefined : fold(plan.predicate);
      if (predicate === plan.predicate) return plan;
      return latestPlan(plan.input, { predicate, keySlots: plan.keySlots, timestampSlot: plan.timestampSlot, designated: plan.designated });
    }
    default: return plan;
  }
}

/** `expr` with each foldable call over constants replaced by its value; the same object when nothing folds. */
function foldExpression(expr: BoundExpr, evaluate: ConstantEvaluator): BoundExpr {
  switch (expr.kind) {
    case 'column': case 'constant': return expr;
    case 'call': {
      const args = expr.args.map((arg) => foldExpression(arg, evaluate));
      const call = args.every((arg, k) => arg === expr.args[k]) ? expr : { ...expr, args };
      if (call.foldable !== true || !args.every((arg) => arg.kind === 'constant')) return call;
      const folded = evaluate(call);
      if (folded === undefined) return call;
      assert(folded.type === call.type, 'a folded call keeps its type');
      return folded;
    }
    default: return assertNever(expr, 'bound expression');
  }
}
