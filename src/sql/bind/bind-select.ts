// SELECT → logical plan: source, WHERE filter, projection, (implicit) aggregation, SAMPLE BY or window
// functions, DISTINCT, ORDER BY, LIMIT. Column pruning: table scans are built after binding, with only the
// columns the query referenced.
import type { Expr, OrderItem, SelectItem, SelectQuery } from '../syntax/ast.js';
import type { BoundExpr, OutputColumn } from './bound.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { aggregatePlan, filterPlan, limitPlan, projectPlan, sortPlan } from '../plan/plan-builders.js';
import type { SortKey } from '../plan/plan-specs.js';
import type { BindContext } from './bind-expression.js';
import { bindExpression, bindLiteral } from './bind-expression.js';
import { bindParameter } from './bind-parameters.js';
import type { BoundSource, SourceEnv } from './bind-source.js';
import { bindSource } from './bind-source.js';
import { OutputNames, defaultColumnName } from './output-names.js';
import { sqlSemanticError } from '../../core/errors.js';
import { typeDisplayName } from '../../types/column-type.js';
import { isArrayType } from '../../types/double-array.js';
import { limitKeepRows } from '../plan/limit-rows.js';
import { bindLatestOn } from './bind-latest-on.js';
import { firstWindowCall, planWindow } from './bind-window.js';
import { planSampleBy, sampleRangeWhere } from './bind-sample-by.js';
import type { ProjectedItem, ProjectionPlan } from './select-items.js';
import { bindAggregation, bindItem, containsAggregate, exprKey, filtered } from './select-items.js';

export function bindSelect(query: SelectQuery, env: SourceEnv): LogicalPlan {
  const from = bindSource(query.from, env);
  const whereContext: BindContext = { scope: from.scope, clause: 'WHERE', bindQuery: env.compileQuery };
  const whereExpr = sampleRangeWhere(query, from);
  const where = whereExpr === undefined ? undefined : bindExpression(whereExpr, whereContext);
  if (where !== undefined && where.type !== 'BOOLEAN') throw sqlSemanticError('boolean expression expected', whereExpr?.position ?? 0);
  // LATEST ON consumes the WHERE (it filters before picking the newest row per key); otherwise both pass through.
  const { source, predicate } = bindLatestOn(query, from, where);
  const items = expandItems(query.columns, source);
  const hasAggregates = items.some((item) => containsAggregate(item.expr)) || query.groupBy.length > 0;
  const windowCall = items.map((item) => firstWindowCall(item.expr)).find((call) => call !== undefined);
  // Window functions run over the rows WHERE leaves, so they cannot share a level with aggregation.
  if (windowCall !== undefined && hasAggregates) throw sqlSemanticError('Window function is not allowed in context of aggregation. Use sub-query.', windowCall.position);
  const plan = windowCall !== undefined ? planWindow(items, source)
    : query.sampleBy !== undefined ? planSampleBy(query, query.sampleBy, items, source)
    : hasAggregates ? planAggregate(items, source, env, query) : planProjection(items, source, env);
  // DISTINCT rows are the selected columns only: ordering by anything else would split them again.
  const orderPlan: ProjectionPlan = query.distinct ? { ...plan, addHidden: (expr) => { throw distinctOrderError(expr); } } : plan;
  const orderKeys = bindOrderBy(query.orderBy, orderPlan, items);
  let logical = plan.build(predicate);
  if (query.distinct) {
    const array = logical.columns.find((column) => isArrayType(column.type));
    if (array !== undefined) throw sqlSemanticError(`DISTINCT is not supported for ${typeDisplayName(array.type)} columns [column=${array.name}]`, query.position);
    logical = aggregatePlan(logical, logical.columns.length, []);
  }
  if (orderKeys.keys.length > 0) logical = sortPlan(logical, orderKeys.keys, rowsKeptByLimit(query));
  if (orderKeys.hidden > 0) logical = dropHidden(logical, logical.columns.length - orderKeys.hidden);
  return applyLimit(logical, query);
}

function distinctOrderError(expr: Expr): Error {
  if (expr.kind === 'column') return sqlSemanticError(`Invalid column: ${expr.qualifier === undefined ? expr.name : `${expr.qualifier}.${expr.name}`}`, expr.position);
  return sqlSemanticError('ORDER BY of SELECT DISTINCT must name a selected column', expr.position);
}

export function applyLimit(plan: LogicalPlan, query: { readonly limit?: SelectQuery['limit'] }): LogicalPlan {
  if (query.limit === undefined) return plan;
  const lo = limitValue(query.limit.lo);
  const hi = query.limit.hi === undefined ? undefined : limitValue(query.limit.hi);
  return limitPlan(plan, lo, hi);
}

/** Leading rows of the ordered result the LIMIT reads (a top-N sort keeps only these); undefined: all. */
function rowsKeptByLimit(query: SelectQuery): number | undefined {
  if (query.limit === undefined) return undefined;
  return limitKeepRows(limitValue(query.limit.lo), query.limit.hi === undefined ? undefined : limitValue(query.limit.hi));
}

function limitValue(expr: Expr): number {
  const negative = expr.kind === 'unary' && expr.op === '-';
  const inner = negative ? expr.operand : expr;
  if (inner.kind !== 'literal' && inner.kind !== 'parameter') throw sqlSemanticError('LIMIT expects an integer constant', expr.position);
  // `LIMIT $1` takes its bind value as the constant.
  const constant = inner.kind === 'parameter' ? bindParameter(inner) : bindLiteral(inner);
  if (constant.type === 'NULL') throw sqlSemanticError('invalid type: NULL', inner.position);
  const value = Number(constant.value);
  // A fraction (`limit 1e-320`, `limit 1.5`) would become a fractional row count downstream.
  if (!Number.isInteger(value)) throw sqlSemanticError('LIMIT expects an integer constant', expr.position);
  return negative ? -value : value;
}

function expandItems(columns: readonly SelectItem[], source: BoundSource): ProjectedItem[] {
  const names = new OutputNames();
  const items: ProjectedItem[] = [];
  for (const item of columns) {
    if (item.expr.kind === 'star') {
      const qualifier = item.expr.qualifier?.toLowerCase();
      const position = item.expr.position;
      source.scope.columns.forEach((column, scopeIndex) => {
        if (qualifier !== undefined && !column.qualifiers.some((q) => q.toLowerCase() === qualifier)) return;
        items.push({ expr: { kind: 'column', position, name: column.name, ...(item.expr.kind === 'star' && item.expr.qualifier !== undefined ? { qualifier: item.expr.qualifier } : {}) }, name: names.claim(column.name), scopeIndex });
      });
      continue;
    }
    items.push({ expr: item.expr, name: names.claim(item.alias?.name ?? defaultColumnName(item.expr)) });
  }
  if (items.length === 0) throw sqlSemanticError('no columns selected', 0);
  return items;
}

function planProjection(items: readonly ProjectedItem[], source: BoundSource, env: SourceEnv): ProjectionPlan {
  const context: BindContext = { scope: source.scope, clause: 'SELECT', bindQuery: env.compileQuery };
  const exprs: BoundExpr[] = items.map((item) => bindItem(item, context));
  const names: string[] = items.map((item) => item.name);
  const outputs = exprs.map((expr, k) => ({ name: names[k], type: expr.type }));
  return {
    outputs,
    addHidden(expr) {
      exprs.push(bindExpression(expr, context));
      names.push(`hidden${exprs.length}`);
      return exprs.length - 1;
    },
    build(predicate) {
      const input = filtered(source, predicate);
      const timestampSlot = source.timestampIndex >= 0 && source.scope.lazy ? source.scope.slotOf(source.timestampIndex) : source.timestampIndex;
      const timestampIndex = exprs.findIndex((expr) => expr.kind === 'column' && expr.index === timestampSlot && source.timestampIndex >= 0);
      if (exprs.every((expr, k) => expr.kind === 'column' && expr.index === k) && exprs.length === input.columns.length && names.every((name, k) => name === input.columns[k]?.name)) {
        return input;
      }
      return projectPlan(input, exprs, names, timestampIndex);
    },
  };
}

function planAggregate(items: readonly ProjectedItem[], source: BoundSource, env: SourceEnv, query: SelectQuery): ProjectionPlan {
  const clauses = query.having === undefined ? { groupBy: query.groupBy, bindQuery: env.compileQuery } : { groupBy: query.groupBy, having: query.having, bindQuery: env.compileQuery };
  const aggregation = bindAggregation(items, source, [], () => -1, clauses);
  const { pre, keyCount, specs, having } = aggregation;
  const post = [...aggregation.post];
  const names = items.map((item) => item.name);
  return {
    outputs: post.map((expr, k) => ({ name: names[k], type: expr.type })),
    addHidden(expr) {
      // ORDER BY an aggregate or key expression the select list does not show: computed per group, then dropped.
      post.push(aggregation.bindOverGroups(expr, 'ORDER BY'));
      names.push(`hidden${post.length}`);
      return post.length - 1;
    },
    build(predicate) {
      const input = filtered(source, predicate);
      const preNames = pre.map((_, k) => `p${k}`);
      let grouped: LogicalPlan = aggregatePlan(projectPlan(input, pre, preNames, -1), keyCount, specs);
      if (having !== undefined) grouped = filterPlan(grouped, having);
      return projectPlan(grouped, post, names, -1);
    },
  };
}

function bindOrderBy(orderBy: readonly OrderItem[], plan: ProjectionPlan, items: readonly ProjectedItem[]): { keys: SortKey[]; hidden: number } {
  let hidden = 0;
  const keys = orderBy.map((item): SortKey => {
    const nulls = item.nulls === undefined ? {} : { nullsFirst: item.nulls === 'first' };
    const index = outputIndexOf(item.expr, plan.outputs) ?? selectedColumnIndex(item.expr, items) ?? sameItemIndex(item.expr, items) ?? (hidden++, plan.addHidden(item.expr));
    return { index, descending: item.descending, ...nulls };
  });
  return { keys, hidden };
}

/** A qualified ORDER BY column (`t.sym`) that the select list shows as the same qualified column. */
function selectedColumnIndex(expr: Expr, items: readonly ProjectedItem[]): number | undefined {
  if (expr.kind !== 'column' || expr.qualifier === undefined) return undefined;
  const name = expr.name.toLowerCase();
  const qualifier = expr.qualifier.toLowerCase();
  const index = items.findIndex((item) => item.expr.kind === 'column' && item.expr.name.toLowerCase() === name && item.expr.qualifier?.toLowerCase() === qualifier);
  return index >= 0 ? index : undefined;
}

/** An ORDER BY expression written exactly as a select item (`ORDER BY count() DESC`). */
function sameItemIndex(expr: Expr, items: readonly ProjectedItem[]): number | undefined {
  if (expr.kind === 'column' || expr.kind === 'literal') return undefined;
  const key = exprKey(expr);
  const index = items.findIndex((item) => exprKey(item.expr) === key);
  return index >= 0 ? index : undefined;
}

function outputIndexOf(expr: Expr, outputs: readonly OutputColumn[]): number | undefined {
  if (expr.kind === 'literal' && expr.literalType === 'INT') {
    const position = Number(expr.value);
    if (position < 1 || position > outputs.length) throw sqlSemanticError('order column position is out of range', expr.position);
    return position - 1;
  }
  if (expr.kind === 'column' && expr.qualifier === undefined) {
    const lower = expr.name.toLowerCase();
    const index = outputs.findIndex((output) => output.name.toLowerCase() === lower);
    return index >= 0 ? index : undefined;
  }
  return undefined;
}

function dropHidden(plan: LogicalPlan, keep: number): LogicalPlan {
  const exprs: BoundExpr[] = plan.columns.slice(0, keep).map((column, index) => ({ kind: 'column', type: column.type, index, position: 0 }));
  return projectPlan(plan, exprs, plan.columns.slice(0, keep).map((column) => column.name), plan.timestampIndex < keep ? plan.timestampIndex : -1);
}
