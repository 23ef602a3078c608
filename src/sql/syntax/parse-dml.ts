// DML: INSERT [ATOMIC | BATCH n [o3MaxLag x]] INTO t [(cols)] VALUES (...), (...) | SELECT ... | (SELECT ...),
// and UPDATE t [[AS] alias] SET c = e, ... [FROM source] [WHERE ...]. VALUES rows are bounded by
// insertValuesRowsMax so one statement cannot make the parser hold an unbounded tree.
import { SqlError } from '../../core/errors.js';
import { insertValuesRowsMax } from '../../core/limits.js';
import type { Expr, InsertStatement, Name, QueryExpr, UpdateStatement } from './ast.js';
import type { Token } from './token.js';
import { isReservedWord, isWord } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { compact, expectClose, parseArguments, parseName, parseTableName } from './parse-cursor.js';
import { parseExpression } from './parse-expression.js';
import { parseCondition } from './parse-clauses.js';
import { parseFromItem } from './parse-from.js';
import { parseInteger } from './parse-ddl.js';

export function parseInsert(c: ParseCursor, insertToken: Token): InsertStatement {
  const batchSize = parseInsertOptions(c);
  if (c.atStatementEnd()) throw c.error('into or batch expected');
  c.expectWord('into');
  if (c.atStatementEnd()) throw c.error('table name expected');
  const table = parseTableName(c);
  const columns = c.isOperator('(') && !startsQuery(c, 1) ? parseInsertColumns(c) : undefined;
  const base = compact({ kind: 'insert' as const, position: insertToken.start, table, columns, batchSize });
  if (c.isWord('values')) return { ...base, rows: parseValuesRows(c) };
  if (startsQuery(c, 0)) return { ...base, query: c.hooks.parseQuery(c) };
  if (c.isOperator('(') && startsQuery(c, 1)) {
    c.next();
    const query: QueryExpr = c.hooks.parseQuery(c);
    c.expectOperator(')');
    return { ...base, query };
  }
  if (c.atStatementEnd()) throw c.error("'select' or 'values' expected");
  throw c.found("'select' or 'values' expected");
}

function startsQuery(c: ParseCursor, ahead: number): boolean {
  return c.isWord('select', ahead) || c.isWord('with', ahead);
}

/** `ATOMIC` (the default) or `BATCH n [o3MaxLag x]`; returns the batch size when given. */
function parseInsertOptions(c: ParseCursor): number | undefined {
  if (c.acceptWord('atomic')) return undefined;
  if (!c.acceptWord('batch')) return undefined;
  const sizeToken = c.peek();
  const size = parseInteger(c);
  if (size <= 0) throw c.error('batch size must be positive integer', sizeToken);
  if (c.acceptWord('o3maxlag')) c.next();
  return size;
}

function parseInsertColumns(c: ParseCursor): Name[] {
  c.next();
  const columns: Name[] = [];
  do {
    if (c.isOperator(')')) throw c.found('missing column name');
    columns.push(parseName(c, 'column'));
  } while (c.acceptOperator(','));
  c.expectOperator(')');
  return columns;
}

function parseValuesRows(c: ParseCursor): Expr[][] {
  c.next();
  const rows: Expr[][] = [];
  do {
    const open = c.expectOperator('(');
    if (rows.length === insertValuesRowsMax) {
      throw new SqlError(`too many rows in INSERT VALUES [max=${insertValuesRowsMax}]`, open.start, 'SVC_SQL_LIMIT');
    }
    rows.push(parseArguments(c));
    expectClose(c, open);
  } while (c.acceptOperator(','));
  return rows;
}

export function parseUpdate(c: ParseCursor, updateToken: Token): UpdateStatement {
  if (c.atStatementEnd()) throw c.error('table name or alias expected');
  const table = parseTableName(c);
  const alias = parseUpdateAlias(c);
  c.expectWord('set', 'SET expected');
  const assignments: { column: Name; value: Expr }[] = [];
  do {
    const column = parseName(c, 'column name');
    c.expectOperator('=');
    assignments.push({ column, value: parseExpression(c) });
  } while (c.acceptOperator(','));
  if (!c.atStatementEnd() && !c.isWord('from') && !c.isWord('where')) throw c.error('FROM, WHERE or EOF expected');
  const from = c.acceptWord('from') ? parseFromItem(c) : undefined;
  if (from !== undefined && (c.isOperator(',') || c.isWord('join') || c.isWord('inner') || c.isWord('left'))) {
    throw c.error('JOIN is not supported on UPDATE statement');
  }
  const where = c.acceptWord('where') ? parseCondition(c, 'empty where clause') : undefined;
  return compact({ kind: 'update', position: updateToken.start, table, alias, assignments, from, where });
}

/** `UPDATE t AS x SET`, `UPDATE t x SET`; SET itself ends the table part. */
function parseUpdateAlias(c: ParseCursor): Name | undefined {
  const token = c.peek();
  if (isWord(token, 'as')) {
    c.next();
    if (c.isWord('set') || c.atStatementEnd()) throw c.error('table alias expected');
    return parseName(c, 'table alias');
  }
  if (token.kind === 'quotedIdentifier' || (token.kind === 'identifier' && !isReservedWord(token))) {
    c.next();
    return { name: token.value, position: token.start };
  }
  return undefined;
}
