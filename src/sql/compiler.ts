// The SQL facade: the only entry point used outside sql/. Parses a statement and, for queries, binds it
// against the catalog into a reusable QueryFactory. Write statements are parsed (so syntax errors come back
// with positions at once) and returned for the primary, which binds them with bindInsert / bindUpdate /
// bindCreateTableQuery / bindPartitionFilter against its own tables at execution time and runs the result.
import type { Statement } from './syntax/ast.js';
import { parseStatement } from './syntax/parser.js';
import type { QueryFactory } from './exec/operator.js';
import type { Catalog } from '../storage/catalog.js';
import type { ValuesPlan } from './plan/logical-plan.js';
import type { TableSnapshot } from '../storage/table-reader.js';
import type { SourceEnv } from './bind/bind-source.js';
import { bindQueryWith } from './bind/bind-query.js';
import { SortFactory } from './exec/sort.js';
import { finishPlan, finishPlanExplained } from './exec/plan-query.js';
import { explainLogical } from './plan/explain-logical.js';
import { physicalPlan } from './exec/physical-planner.js';
import { LimitFactory, limitRange } from './exec/limit.js';
import { showCreateTableRelation, showSettingRelation, showTablesRelation, tableColumnsRelation, tablePartitionsRelation } from './bind/meta-sources.js';
import { showAllSettingsRelation, showPgSettingRelation } from './bind/show-settings.js';
import { explainWriteLines } from './bind/bind-explain.js';
import { MaterializedFactory } from './exec/materialized.js';
import { sqlSemanticError } from '../core/errors.js';
import { checkWriteTargets } from './bind/write-targets.js';
import { PlanCache } from './plan-cache.js';

export type { ColumnBatch, Vector, VectorData } from './exec/batch.js';
export type { QueryFactory, Cursor, ExecContext, Cancellation } from './exec/operator.js';
export { createExecContext, drain } from './exec/operator.js';
export type { OutputColumn } from './bind/bound.js';
export type { Statement, QueryExpr, ServiceAccountStatement, ParameterValue, CopyStatement } from './syntax/ast.js';
export { fillParameters, parameterCountOf } from './bind/bind-parameters.js';
export { inferParameterTypes } from './bind/infer-parameter-types.js';
export type { ParameterType } from './bind/infer-parameter-types.js';
export { createRuntime } from './codegen/runtime.js';

export type CompiledStatement =
  /** `snapshots`: the tables the query's scans were built over, by stored name (parallel execution sizes from them). */
  | { readonly kind: 'query'; readonly factory: QueryFactory; readonly statement: Statement; readonly snapshots: ReadonlyMap<string, TableSnapshot> }
  | { readonly kind: 'write'; readonly statement: Statement; readonly queryType: string }
  | { readonly kind: 'explain'; readonly factory: QueryFactory; readonly statement: Statement };

/** Statement kinds as QuestDB's validate endpoint names them (`queryType`). */
export function queryTypeOf(statement: Statement): string {
  switch (statement.kind) {
    case 'createTable': return 'CREATE TABLE';
    case 'dropTable': return 'DROP';
    case 'truncateTable': return 'TRUNCATE';
    case 'renameTable': return 'RENAME TABLE';
    case 'alterTable': return 'ALTER TABLE';
    case 'insert': return 'INSERT';
    case 'update': return 'UPDATE';
    case 'copy': return 'COPY';
    case 'noop': return statement.keyword;
    case 'serviceAccount': return statement.action === 'create' ? 'CREATE SERVICE ACCOUNT' : statement.action === 'drop' ? 'DROP SERVICE ACCOUNT' : 'ALTER SERVICE ACCOUNT';
    default: return 'SELECT';
  }
}

export function createSourceEnv(catalog: Catalog, opened = new Map<string, TableSnapshot>()): SourceEnv {
  const env: SourceEnv = {
    catalog,
    bindQuery: (query) => bindQueryWith(query, env),
    compileQuery: (query) => finishPlan(bindQueryWith(query, env)),
    finishPlan,
    openTable(name, position) {
      const stored = catalog.resolveName(name);
      const snapshot = stored === undefined ? undefined : (opened.get(stored) ?? catalog.openSnapshot(stored));
      if (stored === undefined || snapshot === undefined) throw sqlSemanticError(`table does not exist [table=${name}]`, position);
      opened.set(stored, snapshot);
      return snapshot;
    },
  };
  return env;
}

export function compileStatement(statement: Statement, catalog: Catalog): CompiledStatement {
  const snapshots = new Map<string, TableSnapshot>();
  const env = createSourceEnv(catalog, snapshots);
  switch (statement.kind) {
    case 'query': return { kind: 'query', factory: env.compileQuery(statement.query), statement, snapshots };
    case 'show': return { kind: 'query', factory: bindShow(statement, catalog), statement, snapshots };
    case 'explain': {
      const writeLines = explainWriteLines(statement.statement, env);
      if (writeLines !== undefined) return { kind: 'explain', factory: explainLinesFactory(() => writeLines), statement };
      if (statement.verbose === true && statement.statement.kind === 'query') {
        const { factory, optimized } = finishPlanExplained(bindQueryWith(statement.statement.query, env));
        return { kind: 'explain', factory: explainLinesFactory(() => [...factory.explain(0), 'Logical plan (optimized):', ...explainLogical(optimized, 1)]), statement };
      }
      const inner = compileStatement(statement.statement, catalog);
      if (inner.kind === 'write') throw sqlSemanticError('EXPLAIN supports queries only', statement.position);
      return { kind: 'explain', factory: explainFactory(inner.factory), statement };
    }
    case 'copy':
      // The rows of COPY FROM STDIN arrive as protocol messages: only the PostgreSQL endpoint can run it.
      checkWriteTargets(statement, catalog);
      return { kind: 'write', statement, queryType: 'COPY' };
    case 'noop':
      // VACUUM TABLE / REINDEX TABLE do nothing here, but QuestDB still refuses them on a missing table.
      checkWriteTargets(statement, catalog);
      return { kind: 'write', statement, queryType: queryTypeOf(statement) };
    default: return { kind: 'write', statement, queryType: queryTypeOf(statement) };
  }
}

export function compile(text: string, catalog: Catalog): CompiledStatement {
  return compileStatement(parseStatement(text), catalog);
}

/** One plan cache per catalog of this process (each server process and thread has its own catalog). */
const planCaches = new WeakMap<Catalog, PlanCache>();

/** compile(), reusing a plan compiled before for the same text while its tables are unchanged (plan-cache.ts). */
export function compileCached(text: string, catalog: Catalog): CompiledStatement {
  let cache = planCaches.get(catalog);
  if (cache === undefined) {
    cache = new PlanCache(catalog, compile);
    planCaches.set(catalog, cache);
  }
  return cache.compile(text);
}

function bindShow(statement: Extract<Statement, { kind: 'show' }>, catalog: Catalog): QueryFactory {
  return statement.what === 'tables' ? new SortFactory(physicalPlan(showTablesRelation(catalog)), [{ index: 0, descending: false }]) : physicalPlan(showRelation(statement, catalog));
}

function showRelation(statement: Extract<Statement, { kind: 'show' }>, catalog: Catalog): ValuesPlan {
  const table = statement.table;
  switch (statement.what) {
    case 'tables': return showTablesRelation(catalog);
    case 'columns': return tableColumnsRelation(catalog, table?.name ?? '', table?.position ?? statement.position);
    case 'partitions': return tablePartitionsRelation(catalog, table?.name ?? '', table?.position ?? statement.position);
    case 'createTable': return showCreateTableRelation(catalog, table?.name ?? '', table?.position ?? statement.position);
    case 'setting': return showPgSettingRelation(statement.setting?.name ?? '', statement.setting?.position ?? statement.position);
    case 'all': return showAllSettingsRelation();
    default: return showSettingRelation(statement.what);
  }
}

function explainFactory(factory: QueryFactory): QueryFactory {
  return explainLinesFactory(() => factory.explain(0));
}

/** EXPLAIN's result: one STRING column `QUERY PLAN`, one row per plan line. */
function explainLinesFactory(lines: () => readonly string[]): QueryFactory {
  return new MaterializedFactory([{ name: 'QUERY PLAN', type: 'STRING' }], () => lines().map((line) => [line]), 'explain');
}

export { checkWriteTargets };

/** Wraps a factory in QuestDB LIMIT semantics (`n`, `-n`, `lo,hi`), as /exp's `limit` parameter needs. */
export function limitFactory(factory: QueryFactory, lo: number, hi: number | undefined): QueryFactory {
  return new LimitFactory(factory, limitRange(lo, hi), hi === undefined ? `${lo}` : `${lo},${hi}`);
}
export type { Catalog } from '../storage/catalog.js';
// The cold read path's statement scope: routes run a statement inside a session and its synchronous steps
// (compile, open + first batch) through withColdFaults, so cold chunks are fetched before scans read them.
export { createColdReadSession, configureColdReads, warmColdStore } from '../storage/cold/cold-reads.js';
export { runWithColdReadSession, withColdFaults } from '../storage/cold/cold-read-session.js';
// Pieces the HTTP routes use directly.
export { parseStatement, isEmptyStatement } from './syntax/parser.js';
export { encodeStatement, decodeStatement, type EncodedStatement } from './syntax/statement-codec.js';
export { splitStatements } from './syntax/split-statements.js';
export type { StatementPiece } from './syntax/split-statements.js';
export { configureCompileCache } from './codegen/compile.js';
export { configureParallel, parallelThreadsStarted, runInParallel, recordParallelRun } from './parallel/parallel-query.js';
// Write statements as the primary receives them (parsed trees) and as it executes them (bound in sql/bind/):
// the engine runs compiled filters and projections and query factories; it binds nothing itself.
export type { InsertStatement, UpdateStatement, AlterTableStatement, CreateTableStatement, ColumnDef, Name, Expr, StoragePolicyClause } from './syntax/ast.js';
export { bindInsert } from './bind/bind-insert.js';
export type { BoundInsert } from './bind/bind-insert.js';
export { bindUpdate } from './bind/bind-update.js';
export type { BoundUpdate, CheckAssignable } from './bind/bind-update.js';
export { updateKeyText } from './bind/bind-update-source.js';
export type { UpdateSource } from './bind/bind-update-source.js';
export { bindCreateTableQuery, bindPartitionFilter } from './bind/bind-ddl.js';
export type { BoundPartitionFilter } from './bind/bind-ddl.js';
export type { CompiledFilter, CompiledProjection } from './codegen/compile.js';
export type { RuntimeHelpers } from './codegen/runtime.js';
export { gatherBatch } from './exec/vector-ops.js';
export { vectorValue } from './exec/vector-value.js';
