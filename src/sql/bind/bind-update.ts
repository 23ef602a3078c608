// UPDATE t SET c = expr[, ...] [FROM source] [WHERE ...] bound against its target table: SET targets checked
// as QuestDB checks them (in its order), the FROM source run and indexed once, WHERE compiled into a filter and
// the SET values into one projection. The engine runs these over each partition and rewrites the columns.
import type { QueryExpr, UpdateStatement } from '../syntax/ast.js';
import type { QueryFactory } from '../exec/operator.js';
import type { CompiledFilter, CompiledProjection } from '../codegen/compile.js';
import { compileFilter, compileProjection } from '../codegen/compile.js';
import { createRuntime } from '../codegen/runtime.js';
import type { TableMeta } from '../../storage/table-meta.js';
import { findColumnIndex } from '../../storage/table-meta.js';
import type { ColumnType, ValueType } from '../../types/column-type.js';
import { typeDisplayName } from '../../types/column-type.js';
import { bindExpression } from './bind-expression.js';
import { Scope } from './scope.js';
import type { SourceEnv } from './bind-source.js';
import type { UpdateSource } from './bind-update-source.js';
import { loadUpdateSource, prepareUpdateSource } from './bind-update-source.js';
import { sqlSemanticError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';

export interface BoundUpdate {
  readonly kind: 'update';
  /** Table column each SET value goes into, with the value's position for conversion errors; in SET order. */
  readonly assignments: readonly { readonly column: number; readonly position: number }[];
  /** WHERE over the target's columns (then the source's, with FROM); undefined without WHERE. */
  readonly filter: CompiledFilter | undefined;
  /** The SET values, output k for assignments[k]. */
  readonly values: CompiledProjection;
  /** The materialised FROM source; undefined without FROM. */
  readonly source: UpdateSource | undefined;
}

/**
 * The engine's insert conversion rule, asked for each SET value at bind time (sql/ cannot import the engine):
 * throws when a `from` value cannot be stored in a `to` column.
 */
export type CheckAssignable = (from: ValueType, to: ColumnType, position: number) => void;

export interface UpdateBindOptions {
  readonly nowMicros: number;
  readonly timeoutMs: number;
  readonly checkAssignable: CheckAssignable;
}

const NUMERIC_RANK: Partial<Record<ValueType, number>> = { BYTE: 0, SHORT: 1, INT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5 };

/** QuestDB's UPDATE refuses to narrow a computed value (DOUBLE into INT, LONG into SHORT or CHAR); literals convert. */
function narrows(from: ValueType, to: ValueType): boolean {
  const fromRank = NUMERIC_RANK[from];
  if (fromRank === undefined) return false;
  if (to === 'CHAR') return fromRank > 1;
  const toRank = NUMERIC_RANK[to];
  return toRank !== undefined && fromRank > toRank;
}

/** SET targets: existing, distinct columns other than the designated timestamp (QuestDB's checks, in its order). */
function bindUpdateTargets(statement: UpdateStatement, meta: TableMeta): number[] {
  const seen = new Set<number>();
  return statement.assignments.map(({ column }) => {
    const index = findColumnIndex(meta, column.name);
    if (index < 0) throw sqlSemanticError(`Invalid column: ${column.name}`, column.position);
    if (index === meta.timestampIndex) throw sqlSemanticError('Designated timestamp column cannot be updated', column.position);
    if (seen.has(index)) throw sqlSemanticError(`Duplicate column ${column.name} in SET clause`, column.position);
    seen.add(index);
    return index;
  });
}

/** Binds an UPDATE of the table `meta` describes; the FROM source (if any) runs now, at `nowMicros`. */
export function bindUpdate(statement: UpdateStatement, meta: TableMeta, env: SourceEnv, options: UpdateBindOptions): BoundUpdate {
  const targets = bindUpdateTargets(statement, meta);
  const tableQualifiers = [meta.name, ...(statement.alias === undefined ? [] : [statement.alias.name])];
  const loaded = statement.from === undefined ? undefined : loadUpdateSource(statement.from, env, options.nowMicros, options.timeoutMs);
  const scope = new Scope([
    ...meta.columns.map((column) => ({ name: column.name, type: column.type, qualifiers: tableQualifiers })),
    ...(loaded?.names ?? []).map((column) => ({ name: column.name, type: column.type, qualifiers: loaded?.qualifiers ?? [] })),
  ], false);
  const where = statement.where;
  const bindQuery = (query: QueryExpr): QueryFactory => env.compileQuery(query);
  const predicate = where === undefined ? undefined : bindExpression(where, { scope, clause: 'WHERE', bindQuery });
  if (predicate !== undefined && predicate.type !== 'BOOLEAN') throw sqlSemanticError('boolean expression expected', where?.position ?? 0);
  const values = statement.assignments.map((assignment, k) => {
    const value = bindExpression(assignment.value, { scope, clause: 'SET', bindQuery });
    const target = meta.columns[targets[k]];
    if (value.kind !== 'constant' && target !== undefined && narrows(value.type, target.type)) {
      throw sqlSemanticError(`inconvertible types: ${typeDisplayName(value.type)} -> ${typeDisplayName(target.type)} [from=, to=${target.name}]`, assignment.value.position);
    }
    options.checkAssignable(value.type, target?.type ?? 'STRING', assignment.value.position);
    return value;
  });
  const source = loaded === undefined ? undefined : prepareUpdateSource(loaded.batch, where, scope, meta.columns.length, createRuntime(options.nowMicros));
  const assignments = statement.assignments.map((assignment, k) => ({ column: targets[k], position: assignment.value.position }));
  assert(assignments.length === values.length, 'one bound value per SET assignment');
  return { kind: 'update', assignments, filter: predicate === undefined ? undefined : compileFilter(predicate), values: compileProjection(values), source };
}
