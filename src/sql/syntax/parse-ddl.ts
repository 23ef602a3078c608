// DDL shared pieces and the short statements: column definitions (CREATE TABLE and ALTER TABLE ADD COLUMN),
// `key = value` settings (CREATE ... WITH, ALTER ... SET PARAM), DROP TABLE / DROP ALL TABLES,
// TRUNCATE TABLE and RENAME TABLE. CREATE TABLE and ALTER TABLE have their own files.
import type {
  ColumnDef, DropTableStatement, Expr, Name, RenameTableStatement, TruncateTableStatement,
} from './ast.js';
import type { Token } from './token.js';
import { wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { compact, parseCommaList, parseName, parseTableName } from './parse-cursor.js';
import { parseExpression } from './parse-expression.js';
import { parseTypeName } from './parse-type-name.js';
import { readDuration } from './lexer.js';

/** `name TYPE [CAPACITY n] [CACHE | NOCACHE] [INDEX [CAPACITY n]] [[NOT] NULL]`; symbol options only for SYMBOL. */
export function parseColumnDef(c: ParseCursor): ColumnDef {
  const nameToken = c.peek();
  if (c.isOperator(')') || c.isOperator(',')) throw c.found('missing column definition');
  if (nameToken.kind === 'eof') throw c.error("')' or ',' expected");
  const name = parseName(c, 'column name');
  if (c.isOperator(')') || c.isOperator(',')) throw c.found('missing column definition');
  if (c.atEnd()) throw c.error("')' or ',' expected");
  const type = parseTypeName(c);
  let symbolCapacity: number | undefined;
  let cached: boolean | undefined;
  if (type.name === 'SYMBOL') {
    if (c.acceptWord('capacity')) symbolCapacity = parseInteger(c);
    if (c.acceptWord('cache')) cached = true;
    else if (c.acceptWord('nocache')) cached = false;
  }
  let indexed: boolean | undefined;
  let indexCapacity: number | undefined;
  if (c.acceptWord('index')) {
    indexed = true;
    if (c.acceptWord('capacity')) indexCapacity = parseInteger(c);
  }
  // PostgreSQL's NULL / NOT NULL constraints are accepted and ignored, as QuestDB does.
  if (c.isWord('not') && c.isWord('null', 1)) c.next();
  c.acceptWord('null');
  return compact({
    name, typeName: type.name, typePosition: type.position, symbolCapacity, cached, indexed, indexCapacity,
  });
}

/** An optionally negative integer constant (capacities, batch sizes); QuestDB's "bad integer" otherwise. */
export function parseInteger(c: ParseCursor): number {
  const minus = c.acceptOperator('-');
  const token = c.peek();
  if (token.kind === 'eof') throw c.error('integer expected');
  if (token.kind !== 'number' || !/^\d[\d_]*$/.test(token.text)) throw c.found('bad integer');
  c.next();
  const value = Number(token.text.replaceAll('_', ''));
  return minus === undefined ? value : -value;
}

/** `key = value, ...`; values are kept raw: `1s` / `10m` durations become string constants as written. */
export function parseSettings(c: ParseCursor): { key: Name; value: Expr }[] {
  return parseCommaList(c, (cc) => {
    const key = parseName(cc, 'parameter name');
    cc.expectOperator('=');
    return { key, value: parseSettingValue(cc) };
  });
}

function parseSettingValue(c: ParseCursor): Expr {
  const token = c.peek();
  if (token.kind === 'number' && readDuration(token) !== undefined) {
    c.next();
    return { kind: 'literal', position: token.start, literalType: 'STRING', value: token.text, text: token.text };
  }
  return parseExpression(c);
}

/** `DROP TABLE [IF EXISTS] a[, b]`, `DROP ALL TABLES` (also plain `DROP ALL`). */
export function parseDropTable(c: ParseCursor, dropToken: Token): DropTableStatement {
  if (c.acceptWord('all')) {
    c.acceptWord('tables');
    if (!c.atStatementEnd()) throw c.error("';' or 'tables' expected");
    return { kind: 'dropTable', position: dropToken.start, tables: [], ifExists: false, all: true };
  }
  c.expectWord('table', "'table' or 'all tables' expected");
  const ifExists = parseIfExists(c);
  if (c.atStatementEnd()) throw c.error('expected IF EXISTS table-name');
  const tables = parseCommaList(c, parseTableName);
  return { kind: 'dropTable', position: dropToken.start, tables, ifExists, all: false };
}

/** `TRUNCATE TABLE [IF EXISTS] t[, u] [KEEP SYMBOL MAPS]`. */
export function parseTruncateTable(c: ParseCursor, truncateToken: Token): TruncateTableStatement {
  c.expectWord('table');
  const ifExists = parseIfExists(c);
  if (c.atStatementEnd()) throw c.error('table name expected');
  const tables = parseCommaList(c, parseTableName);
  if (c.acceptWord('keep')) {
    c.expectWord('symbol');
    c.expectWord('maps');
  }
  return { kind: 'truncateTable', position: truncateToken.start, tables, ifExists };
}

function parseIfExists(c: ParseCursor): boolean {
  if (!c.isWord('if')) return false;
  c.next();
  c.expectWord('exists', 'expected EXISTS table-name');
  return true;
}

/** `RENAME TABLE a TO b`. */
export function parseRenameTable(c: ParseCursor, renameToken: Token): RenameTableStatement {
  c.expectWord('table');
  if (c.atStatementEnd()) throw c.error('from table name expected');
  const from = parseTableName(c);
  if (c.isOperator('(')) throw c.error('function call is not allowed here');
  c.expectWord('to');
  if (c.atStatementEnd()) throw c.error('to table name expected');
  const to = parseTableName(c);
  return { kind: 'renameTable', position: renameToken.start, from, to };
}

/** Upper-case word of the token; used by the CREATE / ALTER option loops. */
export function upperWord(token: Token): string {
  return wordOf(token).toUpperCase();
}
