// A statement prepared once (Parse, or one statement of a simple Query) and bound many times: the parse result,
// the types of its parameters (declared by the client or inferred from use) and, for queries, the result
// columns, found by binding with placeholder values. Bind only fills values into a copy of the parse result.
import type { Catalog, OutputColumn, ParameterType, ParameterValue, Statement } from '../sql/compiler.js';
import { compileStatement, fillParameters, inferParameterTypes, parseStatement } from '../sql/compiler.js';
import { isEmptyStatement } from '../sql/compiler.js';
import { SqlError } from '../core/errors.js';
import { parameterTypeOfOid } from './pg-types.js';

export interface PreparedStatement {
  readonly text: string;
  /** Offset of `text` in the query text the client sent (simple Query), for error positions. */
  readonly offset: number;
  /** Undefined for empty text (EmptyQueryResponse). */
  readonly statement: Statement | undefined;
  readonly parameterTypes: readonly ParameterType[];
  /** The client's OID per parameter (0 where it let the server choose). */
  readonly declaredOids: readonly number[];
}

/** Parses `text` and settles its parameter types. Throws SqlError (with the statement's position). */
export function prepareStatement(text: string, declaredOids: readonly number[], catalog: Catalog, offset = 0): PreparedStatement {
  if (isEmptyStatement(text)) return { text, offset, statement: undefined, parameterTypes: [], declaredOids };
  const statement = parseStatement(text);
  const declared = declaredOids.map((oid, index) => {
    const type = parameterTypeOfOid(oid);
    if (type === null) throw new SqlError(`unsupported parameter type [parameter=$${index + 1}, oid=${oid}]`, 0, 'SVC_SQL_SEMANTIC');
    return type;
  });
  return { text, offset, statement, parameterTypes: inferParameterTypes(statement, catalog, declared), declaredOids };
}

/** The statement with `values` filled in (a copy; the prepared parse result is shared). */
export function bindStatement(prepared: PreparedStatement, values: readonly ParameterValue[]): Statement | undefined {
  return prepared.statement === undefined ? undefined : fillParameters(prepared.statement, values);
}

/** A value of each parameter type to bind with for Describe: typed, so result column types come out as at Execute. */
const PLACEHOLDER_TEXT: Readonly<Record<ParameterType, string>> = {
  BOOLEAN: 'false', SHORT: '0', INT: '0', LONG: '0', FLOAT: '0', DOUBLE: '0', TIMESTAMP: '0', DATE: '0', VARCHAR: '',
  UUID: '00000000-0000-0000-0000-000000000000', CHAR: ' ', BINARY: '',
};

/**
 * Result columns for Describe of a statement, by binding it with placeholder values; null when it returns no rows.
 * Not cached: a table's columns may change between Describe calls, and binding is cheap next to running.
 */
export function describeColumns(prepared: PreparedStatement, catalog: Catalog): readonly OutputColumn[] | null {
  const statement = bindStatement(prepared, prepared.parameterTypes.map((type) => ({ type, text: PLACEHOLDER_TEXT[type] })));
  const compiled = statement === undefined ? undefined : compileStatement(statement, catalog);
  return compiled === undefined || compiled.kind === 'write' ? null : compiled.factory.columns;
}
