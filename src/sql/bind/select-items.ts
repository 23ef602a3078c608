// Select-list items and their aggregation binding, shared by the SELECT planners (plain GROUP BY and SAMPLE BY):
// which items are keys and which contain aggregates, the projection below the aggregation
// ([leading..., keys..., aggregate arguments...]) and the expressions above it that rebuild the select list.
import type { CallExpr, Expr } from '../syntax/ast.js';
import type { BoundExpr, OutputColumn } from './bound.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { filterPlan } from '../plan/plan-builders.js';
import type { BindContext } from './bind-expression.js';
import { bindExpression } from './bind-expression.js';
import type { BoundSource } from './bind-source.js';
import type { AggregateSpec } from '../plan/plan-specs.js';
import { Scope } from './scope.js';
import { isAggregateName, resolveAggregate, resolvedReturnType } from '../functions/registry.js';
import { sqlSemanticError } from '../../core/errors.js';
import { typeDisplayName } from '../../types/column-type.js';
import { isArrayType } from '../../types/double-array.js';

export interface ProjectedItem {
  readonly expr: Expr;
  readonly name: string;
  /** Star-expanded items name their scope column by index: over a join a bare name may be ambiguous. */
  readonly scopeIndex?: number;
}

/** What the rest of SELECT binding needs from the projection/aggregation step. */
export interface ProjectionPlan {
  readonly outputs: readonly OutputColumn[];
  /** Adds a hidden sort column bound over the source (non-aggregate queries only); returns its output index. */
  addHidden(expr: Expr): number;
  build(predicate: BoundExpr | undefined): LogicalPlan;
}

export function filtered(source: BoundSource, predicate: BoundExpr | undefined): LogicalPlan {
  const input = source.build();
  return predicate === undefined ? input : filterPlan(input, predicate);
}

export function bindItem(item: ProjectedItem, context: BindContext): BoundExpr {
  if (item.scopeIndex === undefined) return bindExpression(item.expr, context);
  const type = context.scope.columns[item.scopeIndex]?.type ?? 'NULL';
  return { kind: 'column', type, index: context.scope.slotOf(item.scopeIndex), position: item.expr.position };
}

export function containsAggregate(expr: Expr): boolean {
  switch (expr.kind) {
    case 'call': return (isAggregateName(expr.name) && expr.over === undefined) || expr.args.some(containsAggregate);
    case 'unary': return containsAggregate(expr.operand);
    case 'binary': return containsAggregate(expr.left) || containsAggregate(expr.right);
    case 'cast': return containsAggregate(expr.operand);
    case 'case': return (expr.subject !== undefined && containsAggregate(expr.subject)) || expr.whens.some((w) => containsAggregate(w.when) || containsAggregate(w.then)) || (expr.otherwise !== undefined && containsAggregate(expr.otherwise));
    case 'in': return containsAggregate(expr.operand) || (expr.list ?? []).some(containsAggregate);
    case 'between': return containsAggregate(expr.operand) || containsAggregate(expr.low) || containsAggregate(expr.high);
    case 'isNull': return containsAggregate(expr.operand);
    default: return false;
  }
}

export interface AggregationBinding {
  /** Projection below the aggregation: [leading..., keys..., aggregate arguments...]. */
  readonly pre: readonly BoundExpr[];
  /** Key columns after the leading ones, GROUP BY keys the select list does not show included. */
  readonly keyCount: number;
  /** Keys that the select list shows (the rest group, then are projected away). */
  readonly visibleKeys: number;
  readonly specs: readonly AggregateSpec[];
  /** The select list over the aggregation's output [leading..., keys..., aggregates...]. */
  readonly post: readonly BoundExpr[];
  /** HAVING over the aggregation's output. */
  readonly having?: BoundExpr;
  /** Binds another expression over the groups (keys by name, aggregates added as needed), e.g. a hidden ORDER BY key. */
  readonly bindOverGroups: (expr: Expr, clause: string) => BoundExpr;
}

export interface AggregationClauses {
  readonly groupBy?: readonly Expr[];
  readonly having?: Expr;
  readonly bindQuery?: BindContext['bindQuery'];
  /** Names the leading columns answer to over the groups (SAMPLE BY's bucket: the designated timestamp's name). */
  readonly leadingNames?: readonly string[];
}

/**
 * Binds an aggregating select list. `leading` columns (SAMPLE BY's bucket timestamp) come first in the
 * aggregation's input and output; `leadingIndexOf` maps an item that is one of them to its index.
 */
/**
 * The input column of an aggregate's argument. Aggregates of one plain column read it from one input column
 * (`columnArguments`: source column → input column), so kernels see that they share an argument: count(x)
 * beside sum(x) or avg(x) takes the non-null counts the sum keeps instead of reading x again.
 */
function argumentColumn(pre: BoundExpr[], columnArguments: Map<number, number>, arg: BoundExpr): number {
  if (arg.kind !== 'column') return pre.push(arg) - 1;
  const known = columnArguments.get(arg.index);
  if (known !== undefined) return known;
  const index = pre.push(arg) - 1;
  columnArguments.set(arg.index, index);
  return index;
}

export function bindAggregation(
  items: readonly ProjectedItem[], source: BoundSource, leading: readonly BoundExpr[] = [],
  leadingIndexOf: (item: ProjectedItem) => number = () => -1, clauses: AggregationClauses = {},
): AggregationBinding {
  const bindQuery = clauses.bindQuery === undefined ? {} : { bindQuery: clauses.bindQuery };
  const sourceContext: BindContext = { scope: source.scope, clause: 'SELECT', ...bindQuery };
  const pre: BoundExpr[] = [...leading];
  const isKey = (item: ProjectedItem): boolean => !containsAggregate(item.expr) && leadingIndexOf(item) < 0;
  const keyItems = items.filter(isKey);
  for (const item of keyItems) pre.push(bindItem(item, sourceContext));
  const visibleKeys = keyItems.length;
  // GROUP BY may name keys the select list does not show: they group, then are projected away.
  const keyNames = keyItems.map((item) => item.name);
  // GROUP BY expressions the select list lacks, by structure: ORDER BY may repeat one (`ORDER BY floor(ts)`).
  const hiddenKeys = new Map<string, number>();
  for (const expr of clauses.groupBy ?? []) {
    if (groupKeyIndex(expr, keyItems) >= 0 || items.some((item) => leadingIndexOf(item) >= 0 && sameExpr(item.expr, expr))) continue;
    pre.push(bindExpression(expr, sourceContext));
    keyNames.push(expr.kind === 'column' ? expr.name : `key${pre.length}`);
    hiddenKeys.set(exprKey(expr), pre.length - 1);
  }
  const groupColumns = pre.length;
  const specs: AggregateSpec[] = [];
  // The same aggregate written twice (select list, HAVING, ORDER BY) is computed once.
  const seen = new Map<string, BoundExpr>();
  const columnArguments = new Map<number, number>();
  const onAggregate = (call: CallExpr): BoundExpr => {
    const text = exprKey(call);
    const known = seen.get(text);
    if (known !== undefined) return known;
    const bound = bindAggregateCall(call);
    seen.set(text, bound);
    return bound;
  };
  const bindAggregateCall = (call: CallExpr): BoundExpr => {
    const args = call.args.map((arg) => bindExpression(arg, sourceContext));
    const types = args.map((arg) => arg.type);
    const def = resolveAggregate(call.distinct ? `${call.name}_distinct` : call.name, call.star ? [] : types, call.position);
    // Aggregate kernels hold scalars; of the aggregates only count(x) takes an array (it counts non-NULL ones).
    if (def.kind !== 'count_col' && types.some((type) => isArrayType(type))) {
      throw sqlSemanticError(`there is no matching function \`${call.name}\` with the argument types: (${types.map(typeDisplayName).join(', ')})`, call.position);
    }
    const resultType = resolvedReturnType(def, types);
    const argIndex = call.star || args.length === 0 ? -1 : argumentColumn(pre, columnArguments, args[0]);
    const params = def.params?.(args, call.position) ?? [];
    specs.push({ kind: def.kind, argIndex, argType: args[0]?.type, resultType, name: call.name, params });
    return { kind: 'column', type: resultType, index: groupColumns + specs.length - 1, position: call.position };
  };
  let keyIndex = leading.length;
  const post: BoundExpr[] = items.map((item) => {
    const leadingIndex = leadingIndexOf(item);
    if (leadingIndex >= 0) return { kind: 'column', type: leading[leadingIndex].type, index: leadingIndex, position: item.expr.position };
    if (isKey(item)) {
      const key = pre[keyIndex];
      return { kind: 'column', type: key.type, index: keyIndex++, position: item.expr.position };
    }
    return bindExpression(item.expr, { scope: new Scope([], false), clause: 'SELECT', onAggregate });
  });
  // Keys are visible by their output names to expressions over the grouped rows (HAVING, ORDER BY); scope
  // index k is output column k, so the leading columns come first (unnamed ones match nothing).
  const groupNames = [...leading.map((_, k) => clauses.leadingNames?.[k] ?? ''), ...keyNames];
  const groupScope = new Scope(groupNames.map((name, k) => ({ name, type: pre[k].type, qualifiers: [] })), false);
  const having = clauses.having === undefined ? undefined : bindHaving(clauses.having, groupScope, leading.length, onAggregate);
  const bindOverGroups = (expr: Expr, clause: string): BoundExpr => {
    const hidden = hiddenKeys.get(exprKey(expr));
    if (hidden !== undefined) return { kind: 'column', type: pre[hidden].type, index: hidden, position: expr.position };
    return bindExpression(expr, { scope: groupScope, clause, onAggregate });
  };
  checkGroupKeys(pre.slice(leading.length, groupColumns));
  const binding = { pre, keyCount: groupColumns - leading.length, visibleKeys, specs, post, bindOverGroups };
  return having === undefined ? binding : { ...binding, having };
}

/** Keys hash and compare as scalars: array keys are refused. */
function checkGroupKeys(keys: readonly BoundExpr[]): void {
  const array = keys.find((key) => isArrayType(key.type));
  if (array !== undefined) throw sqlSemanticError(`group by is not supported for ${typeDisplayName(array.type)} keys`, array.position);
}

function bindHaving(expr: Expr, groupScope: Scope, leadingCount: number, onAggregate: (call: CallExpr) => BoundExpr): BoundExpr {
  if (leadingCount > 0) throw sqlSemanticError('HAVING is not supported with SAMPLE BY; filter in an outer query', expr.position);
  const having = bindExpression(expr, { scope: groupScope, clause: 'HAVING', onAggregate });
  if (having.type !== 'BOOLEAN') throw sqlSemanticError('boolean expression expected', expr.position);
  return having;
}

/** Index of the select-list key a GROUP BY expression names (output name, column name or position); -1: none. */
function groupKeyIndex(expr: Expr, keyItems: readonly ProjectedItem[]): number {
  if (expr.kind === 'column') {
    const lower = expr.name.toLowerCase();
    return keyItems.findIndex((item) => (expr.qualifier === undefined && item.name.toLowerCase() === lower) || (item.expr.kind === 'column' && item.expr.name.toLowerCase() === lower));
  }
  return keyItems.findIndex((item) => sameExpr(item.expr, expr));
}

/** An expression's structure without positions: equal keys mean the same expression written twice. */
export function exprKey(expr: Expr): string {
  return JSON.stringify(expr, (key: string, value: unknown): unknown => {
    if (typeof value === 'bigint') return value.toString();
    return key === 'position' || key.endsWith('Position') ? undefined : value;
  });
}

function sameExpr(a: Expr, b: Expr): boolean {
  return exprKey(a) === exprKey(b);
}
