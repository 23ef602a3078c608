// The types of a statement's parameters, for the PostgreSQL ParameterDescription and for decoding Bind values:
// the client's declared type when it sends one, otherwise inferred from the parameter's use (the other operand
// of a comparison, arithmetic, BETWEEN or IN; the target column of INSERT VALUES or UPDATE SET; a cast),
// otherwise VARCHAR, which the binder's implicit casts turn into what the context needs.
import { isDecimalType } from '../../types/decimal.js';
import type { DecimalType } from '../../types/decimal.js';
import type { Expr, ParameterValue, Statement } from '../syntax/ast.js';
import type { Catalog } from '../../storage/catalog.js';
import type { ColumnType } from '../../types/column-type.js';
import { parseColumnType, perGeohashType } from '../../types/column-type.js';
import { parameterCountOf, visitNodes } from './bind-parameters.js';

export type ParameterType = ParameterValue['type'];

const PARAMETER_TYPE_OF: Readonly<Record<Exclude<ColumnType, DecimalType>, ParameterType>> = {
  BOOLEAN: 'BOOLEAN', BYTE: 'SHORT', SHORT: 'SHORT', CHAR: 'CHAR', INT: 'INT', LONG: 'LONG', FLOAT: 'FLOAT', DOUBLE: 'DOUBLE',
  // DATE travels as PostgreSQL's timestamp (QuestDB's OID table), so its parameters are µs timestamps.
  DATE: 'TIMESTAMP', TIMESTAMP: 'TIMESTAMP', TIMESTAMP_NS: 'TIMESTAMP', SYMBOL: 'VARCHAR', STRING: 'VARCHAR', VARCHAR: 'VARCHAR', UUID: 'UUID',
  IPV4: 'VARCHAR', BINARY: 'BINARY', LONG256: 'VARCHAR',
  ...perGeohashType((): ParameterType => 'VARCHAR'),
};

const HINTING_OPERATORS = new Set(['=', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%']);

/** Columns of every table the statement names, by lower-cased column name (first table wins). */
function columnTypesOf(statement: Statement, catalog: Catalog): Map<string, ColumnType> {
  const types = new Map<string, ColumnType>();
  const addTable = (name: string): void => {
    const stored = catalog.resolveName(name);
    const snapshot = stored === undefined ? undefined : catalog.openSnapshot(stored);
    for (const column of snapshot?.meta.columns ?? []) {
      if (!types.has(column.name.toLowerCase())) types.set(column.name.toLowerCase(), column.type);
    }
  };
  if (statement.kind === 'insert' || statement.kind === 'update') addTable(statement.table.name);
  visitNodes(statement, (node) => {
    if ('kind' in node && node.kind === 'table' && 'name' in node && typeof node.name === 'string') addTable(node.name);
  });
  return types;
}

/** What a hinting expression's type is, when it can be told without binding. */
function typeOfOperand(expr: Expr, columns: Map<string, ColumnType>): ParameterType | undefined {
  switch (expr.kind) {
    case 'column': {
      const type = columns.get(expr.name.toLowerCase());
      return type === undefined ? undefined : parameterTypeOf(type);
    }
    case 'cast': {
      const type = parseColumnType(expr.typeName);
      return type === undefined ? undefined : parameterTypeOf(type);
    }
    case 'literal':
      switch (expr.literalType) {
        case 'INT': return 'INT';
        case 'LONG': return 'LONG';
        case 'DOUBLE': return 'DOUBLE';
        case 'FLOAT': return 'FLOAT';
        case 'BOOLEAN': return 'BOOLEAN';
        default: return undefined;
      }
    default: return undefined;
  }
}

/**
 * One type per parameter `$1..$n`; `declared[k]` is the client's type for `$k+1` (undefined: infer). The
 * first hint found in tree order wins.
 */
export function inferParameterTypes(statement: Statement, catalog: Catalog, declared: readonly (ParameterType | undefined)[]): ParameterType[] {
  const count = Math.max(parameterCountOf(statement), declared.length);
  const inferred: (ParameterType | undefined)[] = declared.slice();
  if (inferred.slice(0, count).some((type) => type === undefined) || inferred.length < count) {
    const columns = columnTypesOf(statement, catalog);
    const hint = (expr: Expr, type: ParameterType | undefined): void => {
      if (expr.kind === 'parameter' && type !== undefined && inferred[expr.index - 1] === undefined) inferred[expr.index - 1] = type;
    };
    const hintPair = (a: Expr, b: Expr): void => {
      hint(a, typeOfOperand(b, columns));
      hint(b, typeOfOperand(a, columns));
    };
    if (statement.kind === 'insert') hintInsertTargets(statement, columns, catalog, hint);
    if (statement.kind === 'update') {
      for (const assignment of statement.assignments) hint(assignment.value, typeOfColumnName(assignment.column.name, columns));
    }
    visitNodes(statement, (node) => {
      if (!('kind' in node)) return;
      const expr = node as Expr;
      if (expr.kind === 'binary' && HINTING_OPERATORS.has(expr.op)) hintPair(expr.left, expr.right);
      else if (expr.kind === 'between') for (const bound of [expr.low, expr.high]) hintPair(expr.operand, bound);
      else if (expr.kind === 'in') for (const item of expr.list ?? []) hintPair(expr.operand, item);
      else if (expr.kind === 'cast') {
        const type = parseColumnType(expr.typeName);
        hint(expr.operand, type === undefined ? undefined : parameterTypeOf(type));
      }
    });
  }
  const result: ParameterType[] = [];
  for (let k = 0; k < count; k++) result.push(inferred[k] ?? 'VARCHAR');
  return result;
}

/** DECIMAL parameters travel as text, as DECIMAL values do. */
function parameterTypeOf(type: ColumnType): ParameterType {
  return isDecimalType(type) ? 'VARCHAR' : PARAMETER_TYPE_OF[type];
}

function typeOfColumnName(name: string, columns: Map<string, ColumnType>): ParameterType | undefined {
  const type = columns.get(name.toLowerCase());
  return type === undefined ? undefined : parameterTypeOf(type);
}

function hintInsertTargets(
  statement: Extract<Statement, { kind: 'insert' }>, columns: Map<string, ColumnType>, catalog: Catalog,
  hint: (expr: Expr, type: ParameterType | undefined) => void,
): void {
  const stored = catalog.resolveName(statement.table.name);
  const tableColumns = stored === undefined ? [] : (catalog.openSnapshot(stored)?.meta.columns ?? []);
  const targets = statement.columns?.map((name) => name.name) ?? tableColumns.map((column) => column.name);
  for (const row of statement.rows ?? []) {
    row.forEach((expr, k) => {
      const target = targets[k];
      if (target !== undefined) hint(expr, typeOfColumnName(target, columns));
    });
  }
}
