// INSERT bound against its target table: the target column indexes, and either the VALUES rows evaluated into
// one vector per target column or the SELECT's query factory. The engine lays these out as column files and
// commits them; it never sees an expression.
import type { InsertStatement } from '../syntax/ast.js';
import type { Vector } from '../exec/batch.js';
import type { QueryFactory } from '../exec/operator.js';
import type { TableMeta } from '../../storage/table-meta.js';
import { findColumnIndex } from '../../storage/table-meta.js';
import type { SourceEnv } from './bind-source.js';
import { bindInsertValues } from './bind-insert-values.js';
import { sqlSemanticError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';

export type BoundInsert =
  /** `vectors[k]` holds the rows' values for table column `targets[k]`. */
  | { readonly kind: 'insertValues'; readonly targets: readonly number[]; readonly vectors: readonly Vector[]; readonly rowCount: number; readonly position: number }
  /** The query's column k goes into table column `targets[k]`; `position` is the query's, for conversion errors. */
  | { readonly kind: 'insertSelect'; readonly targets: readonly number[]; readonly query: QueryFactory; readonly position: number };

/** Maps the statement's column list (or all columns) to table column indexes. */
function bindInsertTargets(statement: InsertStatement, meta: TableMeta): number[] {
  if (statement.columns === undefined) return meta.columns.map((_, k) => k);
  return statement.columns.map((name) => {
    const index = findColumnIndex(meta, name.name);
    if (index < 0) throw sqlSemanticError(`Invalid column: ${name.name}`, name.position);
    return index;
  });
}

/** Binds an INSERT into the table `meta` describes; VALUES expressions are evaluated at `nowMicros`. */
export function bindInsert(statement: InsertStatement, meta: TableMeta, env: SourceEnv, nowMicros: number): BoundInsert {
  const targets = bindInsertTargets(statement, meta);
  if (statement.rows !== undefined) {
    const targetTypes = targets.map((index) => meta.columns[index]?.type ?? 'STRING');
    const targetNames = targets.map((index) => meta.columns[index]?.name ?? '');
    const vectors = bindInsertValues(statement, targetTypes, nowMicros, targetNames);
    assert(vectors.length === targets.length, 'VALUES yields one vector per target column');
    return { kind: 'insertValues', targets, vectors, rowCount: statement.rows.length, position: statement.position };
  }
  if (statement.query === undefined) throw sqlSemanticError('VALUES or SELECT expected', statement.position);
  const query = env.compileQuery(statement.query);
  if (query.columns.length !== targets.length) {
    throw sqlSemanticError(`select clause must provide ${targets.length} columns [found=${query.columns.length}]`, statement.query.position);
  }
  return { kind: 'insertSelect', targets, query, position: statement.query.position };
}
