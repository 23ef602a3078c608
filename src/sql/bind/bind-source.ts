// FROM sources → a scope of columns and a way to build the source's logical plan once the scope knows which
// columns the query uses (table scans read only referenced columns).
import type { FromSource, QueryExpr } from '../syntax/ast.js';
import type { QueryFactory } from '../exec/operator.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { longSequencePlan, scanPlan, singleRowPlan } from '../plan/plan-builders.js';
import type { Catalog } from '../../storage/catalog.js';
import type { TableSnapshot } from '../../storage/table-reader.js';
import { Scope } from './scope.js';
import { tableColumnsRelation, tablePartitionsRelation, tablesRelation } from './meta-sources.js';
import { sqlSemanticError } from '../../core/errors.js';
import { bindLiteral } from './bind-expression.js';
import { bindJoin } from './bind-join.js';
import { bindCatalogSource, catalogRelationOf } from './bind-catalog.js';
import { bindReadParquet } from './read-parquet-source.js';
import { storagePoliciesRelation, tableColdPartitionsRelation } from './cold-meta-sources.js';

export interface BoundSource {
  readonly scope: Scope;
  /** Scope index of the designated timestamp, or -1. */
  readonly timestampIndex: number;
  build(): LogicalPlan;
}

/** A common table expression and the environment it binds in (earlier CTEs only). */
export interface CteBinding {
  readonly query: QueryExpr;
  readonly env: SourceEnv;
}

export interface SourceEnv {
  readonly catalog: Catalog;
  /** CTEs in scope by lower-case name; they shadow tables. */
  readonly ctes?: ReadonlyMap<string, CteBinding>;
  /** Binds a query used as a relation (FROM subquery, CTE, set operand) into its logical plan. */
  bindQuery(query: QueryExpr): LogicalPlan;
  /** Binds, optimizes and plans a query used inside an expression (IN, scalar, EXISTS) into its factory. */
  compileQuery(query: QueryExpr): QueryFactory;
  /** Optimizes a bound plan and turns it into its factory (injected: the binder does not import later stages). */
  finishPlan(plan: LogicalPlan): QueryFactory;
  openTable(name: string, position: number): TableSnapshot;
}

export function bindSource(source: FromSource | undefined, env: SourceEnv): BoundSource {
  if (source === undefined) {
    return { scope: new Scope([], false), timestampIndex: -1, build: () => singleRowPlan() };
  }
  if (source.kind !== 'join' && source.columnAliases !== undefined) {
    throw sqlSemanticError('column alias lists are not supported', source.columnAliases[0]?.position ?? source.position);
  }
  switch (source.kind) {
    case 'table': {
      const cte = env.ctes?.get(source.name.toLowerCase());
      if (cte !== undefined) {
        const plan = cte.env.bindQuery(cte.query);
        const qualifiers = source.alias === undefined ? [source.name] : [source.alias.name];
        const scope = new Scope(plan.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false);
        return { scope, timestampIndex: plan.timestampIndex, build: () => plan };
      }
      if (source.name.toLowerCase() === 'storage_policies' && env.catalog.resolveName(source.name) === undefined) {
        const qualifiers = source.alias === undefined ? [] : [source.alias.name];
        const plan = storagePoliciesRelation(env.catalog);
        return { scope: new Scope(plan.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false), timestampIndex: -1, build: () => plan };
      }
      const relation = catalogRelationOf(source, env.catalog);
      if (relation !== undefined) return bindCatalogSource(relation, source, env.catalog);
      const snapshot = env.openTable(source.name, source.position);
      // An alias replaces the table name as qualifier (a self-join names each side by its alias).
      const qualifiers = source.alias === undefined ? [snapshot.meta.name] : [source.alias.name];
      const scope = new Scope(snapshot.meta.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), true);
      return { scope, timestampIndex: snapshot.meta.timestampIndex, build: () => scanPlan(snapshot, scope.usedColumns()) };
    }
    case 'functionSource': return bindFunctionSource(source.call.name, source, env);
    case 'subquerySource': {
      const plan = env.bindQuery(source.query);
      const qualifiers = source.alias === undefined ? [] : [source.alias.name];
      const scope = new Scope(plan.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false);
      let timestampIndex = plan.timestampIndex;
      if (source.timestamp !== undefined) {
        timestampIndex = scope.find(source.timestamp.name, undefined, source.timestamp.position);
        // SAMPLE BY, LATEST ON and the time-series joins read the designated column as timestamps.
        const type = scope.columns[timestampIndex]?.type;
        if (type !== 'TIMESTAMP' && type !== 'TIMESTAMP_NS') throw sqlSemanticError(`TIMESTAMP column expected [actual=${type ?? 'none'}]`, source.timestamp.position);
      }
      return { scope, timestampIndex, build: () => plan };
    }
    case 'join': return bindJoin(source, bindSource(source.left, env), bindSource(source.right, env));
  }
}

function bindFunctionSource(name: string, source: Extract<FromSource, { kind: 'functionSource' }>, env: SourceEnv): BoundSource {
  const qualifiers = source.alias === undefined ? [] : [source.alias.name];
  const fixed = (plan: LogicalPlan): BoundSource => ({
    scope: new Scope(plan.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false),
    timestampIndex: plan.timestampIndex,
    build: () => plan,
  });
  const args = source.call.args;
  switch (name.toLowerCase()) {
    case 'long_sequence': {
      const count = args[0]?.kind === 'literal' ? Number(bindLiteral(args[0]).value) : NaN;
      if (args.length !== 1 || !Number.isFinite(count)) throw sqlSemanticError('long_sequence expects a row count constant', source.call.position);
      return fixed(longSequencePlan(Math.max(0, Math.trunc(count))));
    }
    case 'tables': return fixed(tablesRelation(env.catalog));
    case 'table_columns': return fixed(tableColumnsRelation(env.catalog, textArgument(source), source.call.position));
    case 'table_partitions': return fixed(tablePartitionsRelation(env.catalog, textArgument(source), source.call.position));
    case 'table_cold_partitions': return fixed(tableColdPartitionsRelation(env.catalog, textArgument(source), source.call.position));
    case 'storage_policies': return fixed(storagePoliciesRelation(env.catalog));
    case 'read_parquet': {
      const arg = args[0];
      const path = args.length === 1 && arg?.kind === 'literal' ? arg.value : undefined;
      return bindReadParquet(env.catalog.copyRoot, path, arg?.position ?? source.call.position, qualifiers, source.timestamp);
    }
    default: throw sqlSemanticError(`unknown function name: ${name}`, source.call.position);
  }
}

function textArgument(source: Extract<FromSource, { kind: 'functionSource' }>): string {
  const arg = source.call.args[0];
  if (arg?.kind !== 'literal' || typeof arg.value !== 'string') throw sqlSemanticError('table name expected', arg?.position ?? source.call.position);
  return arg.value;
}
