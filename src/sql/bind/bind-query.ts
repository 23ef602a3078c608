// Query expressions: WITH (common table expressions, visible to later CTEs and the body, nested queries
// included) and set operations (UNION [ALL], EXCEPT [ALL], INTERSECT [ALL]) with QuestDB's column rules:
// names from the first operand, each column widened to the type both operands share.
import type { Expr, OrderItem, QueryExpr, SetOperationQuery } from '../syntax/ast.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { projectPlan, setOperationPlan, sortPlan } from '../plan/plan-builders.js';
import { limitKeepRows } from '../plan/limit-rows.js';
import type { BoundExpr } from './bound.js';
import type { SourceEnv } from './bind-source.js';
import type { ValueType } from '../../types/column-type.js';
import { bindSelect, applyLimit } from './bind-select.js';
import { bindCast, commonType } from './bind-expression.js';
import { bindLiteral } from './bind-expression.js';
import { sqlSemanticError } from '../../core/errors.js';
import { bindOrEmpty } from './bind-catalog.js';

export function bindQueryWith(query: QueryExpr, env: SourceEnv): LogicalPlan {
  let scoped = env;
  for (const cte of query.with) {
    const ctes = new Map(scoped.ctes ?? []);
    ctes.set(cte.name.name.toLowerCase(), { query: cte.query, env: scoped });
    const next: SourceEnv = {
      ...scoped, ctes, bindQuery: (inner) => bindQueryWith(inner, next), compileQuery: (inner) => next.finishPlan(bindQueryWith(inner, next)),
    };
    scoped = next;
  }
  const bodyEnv = scoped;
  return bindOrEmpty(query, env.catalog, () => (query.kind === 'select' ? bindSelect(query, bodyEnv) : bindSetOperation(query, bodyEnv)));
}

function bindSetOperation(query: SetOperationQuery, env: SourceEnv): LogicalPlan {
  const left = env.bindQuery(query.left);
  const right = env.bindQuery(query.right);
  if (left.columns.length !== right.columns.length) throw sqlSemanticError('queries have different number of columns', query.position);
  const types = left.columns.map((column, k) => setColumnType(column.type, right.columns[k]?.type ?? 'NULL', query.position));
  const names = left.columns.map((column) => column.name);
  const columns = names.map((name, k) => ({ name, type: types[k] }));
  let plan: LogicalPlan = setOperationPlan(widen(left, types, names), widen(right, types, names), query.op, query.all, columns);
  const keys = query.orderBy.map((item) => ({ index: setOrderIndex(item, names), descending: item.descending, ...(item.nulls === undefined ? {} : { nullsFirst: item.nulls === 'first' }) }));
  if (keys.length > 0) plan = sortPlan(plan, keys, keepRows(query));
  return applyLimit(plan, query);
}

function setColumnType(left: ValueType, right: ValueType, position: number): ValueType {
  if (left === right) return left;
  if (left === 'NULL') return right;
  if (right === 'NULL') return left;
  // A symbol meeting text, or text of both kinds, becomes the wider text type.
  if ((left === 'SYMBOL' || right === 'SYMBOL') && (left === 'STRING' || right === 'STRING' || left === 'VARCHAR' || right === 'VARCHAR')) {
    return left === 'VARCHAR' || right === 'VARCHAR' ? 'VARCHAR' : 'STRING';
  }
  return commonType([left, right], position);
}

function widen(plan: LogicalPlan, types: readonly ValueType[], names: readonly string[]): LogicalPlan {
  if (plan.columns.every((column, k) => column.type === types[k] && column.name === names[k])) return plan;
  const exprs = plan.columns.map((column, k): BoundExpr => {
    const ref: BoundExpr = { kind: 'column', type: column.type, index: k, position: 0 };
    const target = types[k];
    if (column.type === target) return ref;
    if (column.type === 'NULL') return { kind: 'constant', type: target, value: null, position: 0 };
    return bindCast(ref, target, 0, 0);
  });
  return projectPlan(plan, exprs, names, -1);
}

function setOrderIndex(item: OrderItem, names: readonly string[]): number {
  const expr: Expr = item.expr;
  if (expr.kind === 'literal' && expr.literalType === 'INT') {
    const position = Number(expr.value);
    if (position < 1 || position > names.length) throw sqlSemanticError('order column position is out of range', expr.position);
    return position - 1;
  }
  if (expr.kind === 'column') {
    const index = names.findIndex((name) => name.toLowerCase() === expr.name.toLowerCase());
    if (index >= 0) return index;
    throw sqlSemanticError(`Invalid column: ${expr.name}`, expr.position);
  }
  throw sqlSemanticError('ORDER BY of a set operation must name an output column', expr.position);
}

function keepRows(query: SetOperationQuery): number | undefined {
  if (query.limit === undefined) return undefined;
  const value = (expr: Expr): number => {
    const negative = expr.kind === 'unary' && expr.op === '-';
    const inner = negative ? expr.operand : expr;
    const bound = inner.kind === 'literal' ? Number(bindLiteral(inner).value) : NaN;
    return negative ? -bound : bound;
  };
  const lo = value(query.limit.lo);
  const hi = query.limit.hi === undefined ? undefined : value(query.limit.hi);
  return Number.isFinite(lo) && (hi === undefined || Number.isFinite(hi)) ? limitKeepRows(lo, hi) : undefined;
}
