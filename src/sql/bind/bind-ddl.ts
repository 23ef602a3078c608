// The expressions DDL statements carry, bound for the engine: CREATE TABLE ... AS SELECT's query (its columns
// give the new table's) and the WHERE of ALTER TABLE ... DROP | CONVERT PARTITION, which is evaluated once per
// partition with the designated timestamp bound to the partition's start (QuestDB's partition timestamp).
import type { CreateTableStatement, Expr } from '../syntax/ast.js';
import type { QueryFactory } from '../exec/operator.js';
import type { CompiledFilter } from '../codegen/compile.js';
import { compileFilter } from '../codegen/compile.js';
import type { TableMeta } from '../../storage/table-meta.js';
import { bindExpression } from './bind-expression.js';
import { Scope } from './scope.js';
import type { SourceEnv } from './bind-source.js';
import { sqlSemanticError } from '../../core/errors.js';

/** A partition predicate: run over one TIMESTAMP vector holding each partition's start, it selects partitions. */
export interface BoundPartitionFilter {
  readonly kind: 'partitionFilter';
  readonly filter: CompiledFilter;
}

/** The query of CREATE TABLE ... AS SELECT, bound against the catalog; undefined for other CREATE forms. */
export function bindCreateTableQuery(statement: CreateTableStatement, env: SourceEnv): QueryFactory | undefined {
  return statement.asSelect === undefined ? undefined : env.compileQuery(statement.asSelect);
}

/** Binds a DROP/CONVERT PARTITION WHERE of the table `meta` describes: only its designated timestamp is in scope. */
export function bindPartitionFilter(where: Expr, meta: TableMeta): BoundPartitionFilter {
  const timestamp = meta.columns[meta.timestampIndex];
  if (timestamp === undefined) throw sqlSemanticError('table has no designated timestamp', where.position);
  // Any other column is an `Invalid column` at its position.
  const scope = new Scope([{ name: timestamp.name, type: 'TIMESTAMP', qualifiers: [meta.name] }], false);
  const predicate = bindExpression(where, { scope, clause: 'WHERE' });
  if (predicate.type !== 'BOOLEAN') throw sqlSemanticError('boolean expression expected', where.position);
  return { kind: 'partitionFilter', filter: compileFilter(predicate) };
}
