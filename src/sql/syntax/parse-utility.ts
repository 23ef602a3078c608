// Utility statements: SHOW ..., and the statements answered OK without effect (SET, BEGIN, COMMIT, ROLLBACK,
// VACUUM TABLE, REINDEX TABLE, CHECKPOINT CREATE|RELEASE, SNAPSHOT PREPARE|COMPLETE, CANCEL QUERY n, RESET, DISCARD),
// which become NoOpStatement with their upper-cased leading keyword(s).
import type { Name, NoOpStatement, ShowStatement } from './ast.js';
import type { Token } from './token.js';
import { wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { parseTableName } from './parse-cursor.js';

const SHOW_EXPECTED = "expected 'TABLES', 'COLUMNS FROM <tab>', 'PARTITIONS FROM <tab>', "
  + "'TRANSACTION ISOLATION LEVEL', 'transaction_isolation', 'max_identifier_length', 'standard_conforming_strings', "
  + "'parameters', 'server_version', 'server_version_num', 'search_path', 'datestyle', or 'time zone'";

export function parseShow(c: ParseCursor, showToken: Token): ShowStatement {
  const position = showToken.start;
  const token = c.next();
  switch (wordOf(token)) {
    case 'tables': return { kind: 'show', position, what: 'tables' };
    case 'columns': return { kind: 'show', position, what: 'columns', table: parseShowFrom(c) };
    case 'partitions': return { kind: 'show', position, what: 'partitions', table: parseShowFrom(c) };
    case 'parameters': return { kind: 'show', position, what: 'parameters' };
    case 'server_version': return { kind: 'show', position, what: 'serverVersion' };
    case 'time':
      c.expectWord('zone');
      return { kind: 'show', position, what: 'timeZone' };
    case 'create':
      if (!c.acceptWord('table')) {
        throw c.error("expected 'TABLE' or 'VIEW' or 'MATERIALIZED VIEW' or 'LIVE VIEW' or 'DATABASE'");
      }
      if (c.atStatementEnd()) throw c.error('expected a table name');
      return { kind: 'show', position, what: 'createTable', table: parseTableName(c) };
    case 'all': return { kind: 'show', position, what: 'all' };
    case 'transaction':
      // SHOW TRANSACTION ISOLATION LEVEL is PostgreSQL's spelling of SHOW transaction_isolation.
      c.expectWord('isolation');
      c.expectWord('level');
      return { kind: 'show', position, what: 'setting', setting: { name: 'transaction_isolation', position: token.start } };
    default:
      // Any other name is a session parameter (SHOW DateStyle, SHOW search_path); the binder knows which exist.
      if (token.kind !== 'identifier' && token.kind !== 'quotedIdentifier') throw c.error(SHOW_EXPECTED, token);
      return { kind: 'show', position, what: 'setting', setting: { name: token.value, position: token.start } };
  }
}

function parseShowFrom(c: ParseCursor): ReturnType<typeof parseTableName> {
  c.expectWord('from');
  if (c.atStatementEnd()) throw c.error('expected a table name');
  return parseTableName(c);
}

/** Leading words of the statements that are accepted and do nothing. */
export const NO_OP_WORDS: ReadonlySet<string> = new Set([
  'set', 'begin', 'commit', 'rollback', 'vacuum', 'reindex', 'checkpoint', 'snapshot', 'cancel', 'reset', 'discard',
]);

export function parseNoOp(c: ParseCursor, first: Token): NoOpStatement {
  const word = wordOf(first);
  const position = first.start;
  let keyword = word.toUpperCase();
  let table: Name | undefined;
  switch (word) {
    case 'vacuum': case 'reindex':
      c.expectWord('table');
      if (c.atStatementEnd()) throw c.error('table name expected');
      table = parseTableName(c);
      keyword += ' TABLE';
      break;
    case 'checkpoint':
      keyword += ` ${expectOneOf(c, ['create', 'release'], "'create' or 'release' expected")}`;
      break;
    case 'snapshot':
      keyword += ` ${expectOneOf(c, ['prepare', 'complete'], "'prepare' or 'complete' expected")}`;
      break;
    case 'cancel':
      keyword += ` ${expectOneOf(c, ['query'], "'QUERY' expected'")}`;
      if (c.peek().kind !== 'number' || !/^\d+$/.test(c.peek().text)) {
        throw c.error('non-negative integer literal expected as query id');
      }
      c.next();
      break;
    default:
      break;
  }
  // SET's value, BEGIN TRANSACTION, REINDEX's COLUMN/PARTITION/LOCK EXCLUSIVE: the rest has no effect.
  c.skipToStatementEnd(c.peek());
  return table === undefined ? { kind: 'noop', position, keyword } : { kind: 'noop', position, keyword, table };
}

function expectOneOf(c: ParseCursor, words: readonly string[], message: string): string {
  const token = c.peek();
  const word = wordOf(token);
  if (!words.includes(word)) throw c.error(message);
  c.next();
  return word.toUpperCase();
}
