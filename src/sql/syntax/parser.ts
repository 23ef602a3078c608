// Entry point of the SQL front end: parseStatement(text) turns one statement into its AST, dispatching on the
// leading keyword; a trailing `;` is allowed and anything after it is an error. A leading name that is not a
// keyword is a bare table query (`trades WHERE x > 1`), as in QuestDB. Errors are SqlError at a token's start,
// or at the text length when the statement ends too early.
import { SqlError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';
import type { ExplainStatement, InsertStatement, Statement } from './ast.js';
import type { Token } from './token.js';
import { isReservedWord, wordOf } from './token.js';
import { skipTrivia, tokenize } from './lexer.js';
import { ParseCursor } from './parse-cursor.js';
import { parseExpression } from './parse-expression.js';
import { parseQuery, parseWithClause } from './parse-select.js';
import { parseCreateTable } from './parse-create-table.js';
import { parseAlterTable } from './parse-alter-table.js';
import { parseDropTable, parseRenameTable, parseTruncateTable } from './parse-ddl.js';
import { parseInsert, parseUpdate } from './parse-dml.js';
import { NO_OP_WORDS, parseNoOp, parseShow } from './parse-utility.js';
import { parseCopy } from './parse-copy.js';
import { isServiceAccountStatement, parseServiceAccount } from './parse-service-account.js';

/** True when the text holds nothing but whitespace and comments. */
export function isEmptyStatement(text: string): boolean {
  return skipTrivia(text, 0) === text.length;
}

export function parseStatement(text: string): Statement {
  const tokens = tokenize(text);
  if (tokens.length === 1) throw new SqlError('empty query', 0, 'SVC_EMPTY_QUERY');
  const c = new ParseCursor(text, tokens, { parseQuery, parseExpression });
  const statement = parseStatementBody(c, true);
  c.acceptOperator(';');
  if (!c.atEnd()) throw c.unexpected();
  return statement;
}

/** SQL statements QuestDB does not have; rejected at their first word rather than read as a table name. */
const UNSUPPORTED_WORDS = new Set(['delete', 'merge', 'grant', 'revoke', 'call', 'declare', 'prepare', 'execute', 'deallocate', 'refresh', 'compile']);

function parseStatementBody(c: ParseCursor, allowExplain: boolean): Statement {
  const first = c.peek();
  const word = wordOf(first);
  switch (word) {
    case 'select':
      return queryStatement(c, first);
    case 'with':
      return parseWithStatement(c, first);
    case 'create':
      c.next();
      return isServiceAccountStatement(c) ? parseServiceAccount(c, first, 'create') : parseCreateTable(c, first);
    case 'alter':
      c.next();
      return isServiceAccountStatement(c) ? parseServiceAccount(c, first, 'alter') : parseAlterTable(c, first);
    case 'drop':
      c.next();
      return isServiceAccountStatement(c) ? parseServiceAccount(c, first, 'drop') : parseDropTable(c, first);
    case 'truncate':
      c.next();
      return parseTruncateTable(c, first);
    case 'rename':
      c.next();
      return parseRenameTable(c, first);
    case 'insert':
      c.next();
      return parseInsert(c, first);
    case 'update':
      c.next();
      return parseUpdate(c, first);
    case 'show':
      c.next();
      return parseShow(c, first);
    case 'copy':
      c.next();
      return parseCopy(c, first);
    case 'explain':
      if (!allowExplain) throw c.error("'create', 'format', 'insert', 'update', 'select' or 'with' expected");
      return parseExplain(c, first);
    default:
      return parseOtherStatement(c, first, word);
  }
}

function parseOtherStatement(c: ParseCursor, first: Token, word: string): Statement {
  if (NO_OP_WORDS.has(word)) {
    c.next();
    return parseNoOp(c, first);
  }
  const isName = first.kind === 'quotedIdentifier' || first.kind === 'string'
    || (first.kind === 'identifier' && !isReservedWord(first) && !UNSUPPORTED_WORDS.has(word));
  if (isName || c.isOperator('(')) return queryStatement(c, first);
  throw c.unexpected(first);
}

function queryStatement(c: ParseCursor, first: Token): Statement {
  const query = parseQuery(c);
  assert(c.index > 0, 'a query consumes at least one token');
  return { kind: 'query', position: first.start, query };
}

/**
 * `WITH ... SELECT` is a query. `WITH ... INSERT INTO t SELECT ...` (QuestDB accepts it) is the INSERT with the
 * CTEs moved onto its query, where they are in scope all the same; VALUES rows cannot refer to them.
 */
function parseWithStatement(c: ParseCursor, first: Token): Statement {
  const start = c.index;
  const ctes = parseWithClause(c);
  if (!c.isWord('insert')) {
    c.index = start;
    return queryStatement(c, first);
  }
  const insert: InsertStatement = parseInsert(c, c.next());
  if (insert.query === undefined) return { ...insert, position: first.start };
  return { ...insert, position: first.start, query: { ...insert.query, with: [...ctes, ...insert.query.with] } };
}

/** `EXPLAIN [(FORMAT TEXT | JSON) | (VERBOSE)] statement`; the explained statement cannot be another EXPLAIN. */
function parseExplain(c: ParseCursor, explainToken: Token): ExplainStatement {
  c.next();
  let format: 'text' | 'json' | undefined;
  let verbose = false;
  if (c.isOperator('(') && c.isWord('verbose', 1)) {
    c.next();
    c.next();
    verbose = true;
    c.expectOperator(')', 'unexpected explain option found');
  } else if (c.isOperator('(') && c.isWord('format', 1)) {
    c.next();
    c.next();
    if (c.acceptWord('json')) format = 'json';
    else if (c.acceptWord('text')) format = 'text';
    else throw c.error('unexpected explain format found');
    c.expectOperator(')', 'unexpected explain option found');
  }
  if (c.atStatementEnd()) throw c.error("'create', 'format', 'insert', 'update', 'select' or 'with' expected");
  const statement = parseStatementBody(c, false);
  const explain: ExplainStatement = { kind: 'explain', position: explainToken.start, statement, ...(verbose ? { verbose } : {}) };
  return format === undefined ? explain : { ...explain, format };
}
