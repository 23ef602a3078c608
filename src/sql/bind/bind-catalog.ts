// Virtual catalog relations in FROM (pg_catalog.*, information_schema.*), and the one rule that lets tools'
// catalog queries over relations svc keeps empty run although they use PostgreSQL forms svc does not bind
// (correlated subqueries, arrays, regnamespace...): a query whose rows must come through an always-empty
// relation (inner or cross joined, or the left side of a left join) has no rows, whatever its other clauses say.
// It is applied only when ordinary binding fails, so every query svc can bind keeps its exact semantics.
import type { FromSource, QueryExpr, SelectQuery, TableSource } from '../syntax/ast.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { valuesPlan } from '../plan/plan-builders.js';
import type { Catalog } from '../../storage/catalog.js';
import type { JoinInput } from './bind-join.js';
import type { CatalogRelation } from './information-schema.js';
import { catalogRelationFor } from './information-schema.js';
import { Scope } from './scope.js';
import { OutputNames, defaultColumnName } from './output-names.js';
import { containsAggregate } from './select-items.js';
import { SqlError } from '../../core/errors.js';

/** The catalog relation a FROM table name stands for, if any. */
export function catalogRelationOf(source: TableSource, catalog: Catalog): CatalogRelation | undefined {
  return catalogRelationFor(source.name, (name) => catalog.resolveName(name) !== undefined);
}

export function bindCatalogSource(relation: CatalogRelation, source: TableSource, catalog: Catalog): JoinInput {
  const bare = source.name.includes('.') ? source.name.slice(source.name.indexOf('.') + 1) : source.name;
  const qualifiers = source.alias === undefined ? [bare, source.name] : [source.alias.name];
  const scope = new Scope(relation.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false);
  const label = `catalog relation ${source.name}`;
  return { scope, timestampIndex: -1, build: () => valuesPlan(relation.columns, () => relation.rows(catalog), label) };
}

/** Whether every row of `source` must come from an always-empty catalog relation. */
function sourceIsEmpty(source: FromSource, catalog: Catalog): boolean {
  switch (source.kind) {
    case 'table': return catalogRelationOf(source, catalog)?.hasRows === false;
    case 'join':
      if (sourceIsEmpty(source.left, catalog)) return true;
      return source.joinType !== 'left' && sourceIsEmpty(source.right, catalog);
    default: return false;
  }
}

/** A query that returns no rows because its rows come from always-empty catalogs (an aggregate without GROUP BY would return one). */
export function queryIsProvablyEmpty(query: QueryExpr, catalog: Catalog): boolean {
  if (query.kind === 'setOperation') {
    const left = queryIsProvablyEmpty(query.left, catalog);
    const right = queryIsProvablyEmpty(query.right, catalog);
    return query.op === 'union' ? left && right : query.op === 'except' ? left : left || right;
  }
  if (query.from === undefined || !sourceIsEmpty(query.from, catalog)) return false;
  return query.groupBy.length > 0 || !query.columns.some((item) => containsAggregate(item.expr));
}

/** The empty result of a provably empty query: its output names, every column VARCHAR (there is no value to type). */
function emptyResult(query: QueryExpr): LogicalPlan {
  const first: SelectQuery = leftmostSelect(query);
  const names = new OutputNames();
  const columns = first.columns.map((item) => ({
    name: names.claim(item.alias?.name ?? defaultColumnName(item.expr)), type: 'VARCHAR' as const,
  }));
  return valuesPlan(columns, () => [], 'empty catalog query');
}

function leftmostSelect(query: QueryExpr): SelectQuery {
  return query.kind === 'select' ? query : leftmostSelect(query.left);
}

/** Binds with `bind`; a query that fails to bind but provably returns no rows gets an empty result instead. */
export function bindOrEmpty(query: QueryExpr, catalog: Catalog, bind: () => LogicalPlan): LogicalPlan {
  try {
    return bind();
  } catch (error) {
    if (error instanceof SqlError && queryIsProvablyEmpty(query, catalog)) return emptyResult(query);
    throw error;
  }
}
