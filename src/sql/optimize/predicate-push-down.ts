// Pass: a filter moves below operators that keep every row as it is, so that it meets the scan (and the interval
// pass) sooner: below a projection whose columns the predicate reads are plain column references (a subquery or
// CTE that selects and renames columns), and below a sort (sorting the kept rows gives the same order). The
// predicate is rewritten over the lower input; a projection that computes a column the predicate reads stops it,
// so no expression is evaluated on rows it was not evaluated on before, nor the predicate on other values.
import type { BoundExpr } from '../bind/bound.js';
import type { FilterPlan, LogicalPlan, ProjectPlan } from '../plan/logical-plan.js';
import { filterPlan, projectPlan, sortPlan } from '../plan/plan-builders.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import { symbolColumnsOf } from '../plan/expression-refs.js';
import type { OptimizerPass } from './optimizer-pass.js';
import { assertNever } from '../../core/assert.js';

export const predicatePushDownPass: OptimizerPass = {
  name: 'predicate push-down',
  apply: (plan) => rewriteBottomUp(plan, (node) => (node.kind === 'filter' ? pushFilter(node) : node)),
};

function pushFilter(plan: FilterPlan): LogicalPlan {
  const input = plan.input;
  // A sort that keeps only its first rows (a LIMIT above) would keep other rows once filtered first.
  if (input.kind === 'sort' && input.keepRows === undefined) return sortPlan(pushFilter(filterPlan(input.input, plan.predicate)), input.keys, input.keepRows);
  if (input.kind !== 'project') return plan;
  const predicate = overProjectionInput(plan.predicate, input);
  if (predicate === undefined) return plan;
  return projectPlan(pushFilter(filterPlan(input.input, predicate)), input.exprs, input.columns.map((column) => column.name), input.timestampIndex);
}

/** `predicate` (over the projection's columns) over the projection's input; undefined when it reads a computed column. */
function overProjectionInput(predicate: BoundExpr, projection: ProjectPlan): BoundExpr | undefined {
  switch (predicate.kind) {
    case 'column': {
      const source = projection.exprs[predicate.index];
      return source?.kind === 'column' && source.type === predicate.type ? { ...predicate, index: source.index } : undefined;
    }
    case 'constant': return predicate;
    case 'call': {
      // A column read outside the arguments cannot be rewritten: the filter stays.
      if (symbolColumnsOf(predicate)?.length !== 0) return undefined;
      const args: BoundExpr[] = [];
      for (const arg of predicate.args) {
        const moved = overProjectionInput(arg, projection);
        if (moved === undefined) return undefined;
        args.push(moved);
      }
      return { ...predicate, args };
    }
    default: return assertNever(predicate, 'bound expression');
  }
}
