// FROM sources → a scope of columns and a way to build the source factory once the scope knows which
// columns the query uses (table scans read only referenced columns).
import type { FromSource, QueryExpr } from '../syntax/ast.js';
import type { QueryFactory } from '../exec/operator.js';
import type { Catalog } from '../../storage/catalog.js';
import type { TableSnapshot } from '../../storage/table-reader.js';
import { Scope } from './scope.js';
import { TableScanFactory } from '../exec/scan.js';
import { LongSequenceFactory, SingleRowFactory } from '../exec/basic-operators.js';
import { tableColumnsFactory, tablePartitionsFactory, tablesFactory } from './meta-sources.js';
import { sqlSemanticError } from '../../core/errors.js';
import { bindLiteral } from './bind-expression.js';
import { bindJoin } from './bind-join.js';
import { bindCatalogSource, catalogRelationOf } from './bind-catalog.js';
import { bindReadParquet } from './read-parquet-source.js';
import { storagePoliciesFactory, tableColdPartitionsFactory } from './cold-meta-sources.js';

export interface BoundSource {
  readonly scope: Scope;
  /** Scope index of the designated timestamp, or -1. */
  readonly timestampIndex: number;
  build(): QueryFactory;
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
  bindQuery(query: QueryExpr): QueryFactory;
  openTable(name: string, position: number): TableSnapshot;
}

export function bindSource(source: FromSource | undefined, env: SourceEnv): BoundSource {
  if (source === undefined) {
    return { scope: new Scope([], false), timestampIndex: -1, build: () => new SingleRowFactory() };
  }
  if (source.kind !== 'join' && source.columnAliases !== undefined) {
    throw sqlSemanticError('column alias lists are not supported', source.columnAliases[0]?.position ?? source.position);
  }
  switch (source.kind) {
    case 'table': {
      const cte = env.ctes?.get(source.name.toLowerCase());
      if (cte !== undefined) {
        const factory = cte.env.bindQuery(cte.query);
        const qualifiers = source.alias === undefined ? [source.name] : [source.alias.name];
        const scope = new Scope(factory.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false);
        return { scope, timestampIndex: factory.timestampIndex, build: () => factory };
      }
      if (source.name.toLowerCase() === 'storage_policies' && env.catalog.resolveName(source.name) === undefined) {
        const qualifiers = source.alias === undefined ? [] : [source.alias.name];
        const factory = storagePoliciesFactory(env.catalog);
        return { scope: new Scope(factory.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false), timestampIndex: -1, build: () => factory };
      }
      const relation = catalogRelationOf(source, env.catalog);
      if (relation !== undefined) return bindCatalogSource(relation, source, env.catalog);
      const snapshot = env.openTable(source.name, source.position);
      // An alias replaces the table name as qualifier (a self-join names each side by its alias).
      const qualifiers = source.alias === undefined ? [snapshot.meta.name] : [source.alias.name];
      const scope = new Scope(snapshot.meta.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), true);
      return { scope, timestampIndex: snapshot.meta.timestampIndex, build: () => new TableScanFactory(snapshot, scope.usedColumns()) };
    }
    case 'functionSource': return bindFunctionSource(source.call.name, source, env);
    case 'subquerySource': {
      const factory = env.bindQuery(source.query);
      const qualifiers = source.alias === undefined ? [] : [source.alias.name];
      const scope = new Scope(factory.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false);
      let timestampIndex = factory.timestampIndex;
      if (source.timestamp !== undefined) timestampIndex = scope.find(source.timestamp.name, undefined, source.timestamp.position);
      return { scope, timestampIndex, build: () => factory };
    }
    case 'join': return bindJoin(source, bindSource(source.left, env), bindSource(source.right, env));
  }
}

function bindFunctionSource(name: string, source: Extract<FromSource, { kind: 'functionSource' }>, env: SourceEnv): BoundSource {
  const qualifiers = source.alias === undefined ? [] : [source.alias.name];
  const fixed = (factory: QueryFactory): BoundSource => ({
    scope: new Scope(factory.columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), false),
    timestampIndex: factory.timestampIndex,
    build: () => factory,
  });
  const args = source.call.args;
  switch (name.toLowerCase()) {
    case 'long_sequence': {
      const count = args[0]?.kind === 'literal' ? Number(bindLiteral(args[0]).value) : NaN;
      if (args.length !== 1 || !Number.isFinite(count)) throw sqlSemanticError('long_sequence expects a row count constant', source.call.position);
      return fixed(new LongSequenceFactory(Math.max(0, Math.trunc(count))));
    }
    case 'tables': return fixed(tablesFactory(env.catalog));
    case 'table_columns': return fixed(tableColumnsFactory(env.catalog, textArgument(source), source.call.position));
    case 'table_partitions': return fixed(tablePartitionsFactory(env.catalog, textArgument(source), source.call.position));
    case 'table_cold_partitions': return fixed(tableColdPartitionsFactory(env.catalog, textArgument(source), source.call.position));
    case 'storage_policies': return fixed(storagePoliciesFactory(env.catalog));
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
