// Invariants of a logical plan, checked after binding and (in tests) after every optimizer pass: every node's
// schema is resolved (a type per column, the designated timestamp among them), every column reference of its
// expressions and specifications is bound to a column of the input it is evaluated over, and the result's
// column names are unique (case-insensitively, as clients address them). A failure is a bug: InternalError.
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { LogicalPlan } from './logical-plan.js';
import { inputsOf } from './plan-walk.js';
import { symbolColumnsOf } from './expression-refs.js';
import { assert, assertNever } from '../../core/assert.js';

export function assertPlanInvariants(plan: LogicalPlan): void {
  assertNodeInvariants(plan);
  const names = new Set(plan.columns.map((column) => column.name.toLowerCase()));
  assert(names.size === plan.columns.length, `result column names are unique: ${plan.columns.map((column) => column.name).join(', ')}`);
}

function assertNodeInvariants(plan: LogicalPlan): void {
  for (const input of inputsOf(plan)) assertNodeInvariants(input);
  for (const column of plan.columns) assert(typeof column.type === 'string' && typeof column.name === 'string', `${plan.kind} columns have a name and a type`);
  assert(plan.timestampIndex >= -1 && plan.timestampIndex < plan.columns.length, `${plan.kind} designated timestamp is one of its columns`);
  assertReferencesBound(plan);
}

/** Every expression and column index of `plan` names a column of the input it reads. */
function assertReferencesBound(plan: LogicalPlan): void {
  switch (plan.kind) {
    case 'scan': case 'parquetFile': case 'values': case 'longSequence': case 'singleRow': case 'tail': return;
    case 'filter': return assertBound(plan.predicate, plan.input.columns, 'filter predicate');
    case 'project':
      assert(plan.exprs.length === plan.columns.length, 'a projection has one expression per column');
      return plan.exprs.forEach((expr) => assertBound(expr, plan.input.columns, 'projection'));
    case 'aggregate': case 'sample':
      return plan.aggregates.forEach((spec) => assert(spec.argIndex < plan.input.columns.length, `${plan.kind} argument ${spec.name} is an input column`));
    case 'countRows': return assert(plan.columns.every((column) => column.type === 'LONG'), 'count(*) columns are LONG');
    case 'latest':
      if (plan.predicate !== undefined) assertBound(plan.predicate, plan.input.columns, 'LATEST ON predicate');
      return [...plan.keySlots, plan.timestampSlot].forEach((slot) => assert(slot >= 0 && slot < plan.input.columns.length, 'LATEST ON keys and timestamp are input columns'));
    case 'hashJoin': case 'asofJoin': case 'spliceJoin': {
      const { leftKeys, rightKeys, outputs } = plan.spec;
      leftKeys.forEach((key) => assertBound(key, plan.left.columns, 'left join key'));
      rightKeys.forEach((key) => assertBound(key, plan.right.columns, 'right join key'));
      return outputs.forEach((output) => assert(output.index < (output.side === 'left' ? plan.left : plan.right).columns.length, 'join outputs are side columns'));
    }
    case 'window': return plan.exprs.forEach((expr) => assertBound(expr, plan.input.columns, 'window argument'));
    case 'sort': return plan.keys.forEach((key) => assert(key.index >= 0 && key.index < plan.input.columns.length, 'sort keys are input columns'));
    case 'limit': return;
    case 'setOperation': return assert(plan.left.columns.length === plan.right.columns.length, 'set operation inputs have one width');
    default: return assertNever(plan, 'logical plan node');
  }
}

function assertBound(expr: BoundExpr, input: readonly OutputColumn[], what: string): void {
  switch (expr.kind) {
    case 'column': return assert(expr.index >= 0 && expr.index < input.length, `${what} reads input column ${expr.index} of ${input.length}`);
    case 'constant': return;
    case 'call':
      for (const index of symbolColumnsOf(expr) ?? []) assert(index >= 0 && index < input.length, `${what} reads symbol column ${index} of ${input.length}`);
      return expr.args.forEach((arg) => assertBound(arg, input, what));
    default: return assertNever(expr, 'bound expression');
  }
}
