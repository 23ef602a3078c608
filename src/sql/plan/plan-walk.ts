// Generic traversal of the logical plan: a node's inputs, and the same node over rewritten inputs. Optimizer
// passes use these so that each pass spells out only the nodes it rewrites. A node's own fields, schema
// included, are kept: a rewrite of an input must preserve that input's columns (assertPlanInvariants checks).
import type { LogicalPlan } from './logical-plan.js';
import { assertNever } from '../../core/assert.js';

export function inputsOf(plan: LogicalPlan): readonly LogicalPlan[] {
  switch (plan.kind) {
    case 'scan': case 'parquetFile': case 'values': case 'longSequence': case 'singleRow': return [];
    case 'filter': case 'project': case 'aggregate': case 'sample': case 'latest': case 'window': case 'sort': case 'limit':
      return [plan.input];
    case 'countRows': case 'tail': return [plan.input];
    case 'hashJoin': case 'asofJoin': case 'spliceJoin': case 'setOperation': return [plan.left, plan.right];
    default: return assertNever(plan, 'logical plan node');
  }
}

/** `plan` with each input replaced by `map(input)`; the same object when no input changed. */
export function mapInputs(plan: LogicalPlan, map: (input: LogicalPlan) => LogicalPlan): LogicalPlan {
  switch (plan.kind) {
    case 'scan': case 'parquetFile': case 'values': case 'longSequence': case 'singleRow': return plan;
    case 'filter': case 'project': case 'aggregate': case 'sample': case 'latest': case 'window': case 'sort': case 'limit': {
      const input = map(plan.input);
      return input === plan.input ? plan : { ...plan, input };
    }
    // These wrap one scan (or filter) by construction; a pass that rewrites their input keeps that shape.
    case 'countRows': case 'tail': return plan;
    case 'hashJoin': case 'asofJoin': case 'spliceJoin': case 'setOperation': {
      const left = map(plan.left);
      const right = map(plan.right);
      return left === plan.left && right === plan.right ? plan : { ...plan, left, right };
    }
    default: return assertNever(plan, 'logical plan node');
  }
}

/** Rewrites bottom-up: `rewrite` sees each node after its inputs were rewritten. */
export function rewriteBottomUp(plan: LogicalPlan, rewrite: (node: LogicalPlan) => LogicalPlan): LogicalPlan {
  return rewrite(mapInputs(plan, (input) => rewriteBottomUp(input, rewrite)));
}
