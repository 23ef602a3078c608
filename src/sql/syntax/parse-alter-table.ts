// ALTER TABLE t <action>. Parsed actions: ADD [COLUMN] [IF NOT EXISTS] defs, DROP COLUMN names,
// DROP PARTITION LIST ... | WHERE ..., RENAME COLUMN a TO b, ALTER COLUMN c TYPE T, SET PARAM k = v,
// DEDUP ENABLE UPSERT KEYS(...) / DEDUP DISABLE, SET STORAGE POLICY(...), ENABLE | DISABLE | DROP STORAGE POLICY,
// CONVERT PARTITION TO REMOTE and DROP LOCAL PARTITION (LIST | WHERE). The rest of QuestDB's forms (indexes, symbol capacity, cache,
// TTL, SET TYPE, attach/detach/convert/squash partitions, resume/suspend WAL) are kept as 'other' with their text.
import type { AlterAction, AlterTableStatement, ColumnDef } from './ast.js';
import type { Token } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { parseArguments, parseCommaList, parseName, parseParenthesizedNames, parseTableName } from './parse-cursor.js';
import { parseColumnDef, parseSettings, upperWord } from './parse-ddl.js';
import { parseCondition } from './parse-clauses.js';
import { parseTypeName } from './parse-type-name.js';
import { parseStoragePolicyStages } from './parse-storage-policy.js';

// QuestDB's texts (svc's own forms, ENABLE/DISABLE STORAGE POLICY, DROP LOCAL PARTITION, are accepted without being listed).
const ACTION_EXPECTED = "'add', 'alter', 'attach', 'detach', 'drop', 'convert', 'resume', 'rename', 'set' or 'squash' expected";

/** Actions QuestDB has that we accept without modelling them. */
const OTHER_ACTIONS = new Set(['ATTACH', 'DETACH', 'SQUASH', 'RESUME', 'SUSPEND', 'FORCE']);

export function parseAlterTable(c: ParseCursor, alterToken: Token): AlterTableStatement {
  c.expectWord('table', "'table' expected");
  if (c.atStatementEnd()) throw c.error('table name expected');
  const table = parseTableName(c);
  const actionToken = c.peek();
  const action = parseAction(c, actionToken);
  return { kind: 'alterTable', position: alterToken.start, table, action };
}

function parseAction(c: ParseCursor, actionToken: Token): AlterAction {
  const word = upperWord(actionToken);
  const position = actionToken.start;
  switch (word) {
    case 'ADD': return parseAddColumns(c);
    case 'DROP': return parseDrop(c);
    case 'RENAME': {
      c.next();
      c.expectWord('column');
      const from = parseName(c, 'column name');
      c.expectWord('to');
      return { kind: 'renameColumn', position, from, to: parseName(c, 'column name') };
    }
    case 'ALTER': return parseAlterColumn(c, actionToken);
    case 'SET': return parseSet(c, actionToken);
    case 'DEDUP': case 'DEDUPLICATE': return parseDedup(c);
    case 'CONVERT': return parseConvertPartition(c);
    case 'ENABLE': case 'DISABLE': {
      c.next();
      c.expectWord('storage', "'storage policy' expected");
      c.expectWord('policy', "'storage policy' expected");
      return { kind: 'storagePolicy', position, change: word === 'ENABLE' ? 'enable' : 'disable' };
    }
    default:
      if (OTHER_ACTIONS.has(word)) return { kind: 'other', position, text: c.skipToStatementEnd(actionToken) };
      throw c.error(ACTION_EXPECTED, actionToken);
  }
}

/** `ADD [COLUMN] [IF NOT EXISTS] c TYPE [, d TYPE ...]`; names must differ (QuestDB "Duplicate column"). */
function parseAddColumns(c: ParseCursor): AlterAction {
  const position = c.next().start;
  c.acceptWord('column');
  let ifNotExists = false;
  if (c.isWord('if')) {
    c.next();
    c.expectWord('not');
    c.expectWord('exists');
    ifNotExists = true;
  }
  if (c.atStatementEnd()) throw c.error('column name expected');
  const columns: ColumnDef[] = [];
  for (;;) {
    const column = parseColumnDef(c);
    if (columns.some((other) => other.name.name.toLowerCase() === column.name.name.toLowerCase())) {
      throw c.errorAt(`Duplicate column [name=${column.name.name}]`, column.name.position);
    }
    columns.push(column);
    if (!c.acceptOperator(',')) return { kind: 'addColumn', position, columns, ifNotExists };
    // `ADD COLUMN a INT, COLUMN b INT` is accepted too.
    c.acceptWord('column');
  }
}

function parseDrop(c: ParseCursor): AlterAction {
  const position = c.next().start;
  if (c.acceptWord('column')) {
    if (c.atStatementEnd()) throw c.error('column name expected');
    return { kind: 'dropColumn', position, columns: parseCommaList(c, (cc) => parseName(cc, 'column name')) };
  }
  if (c.isWord('storage') && c.isWord('policy', 1)) {
    c.next();
    c.next();
    return { kind: 'storagePolicy', position, change: 'drop' };
  }
  if (c.acceptWord('local')) {
    if (!c.acceptWord('partition') && !c.acceptWord('partitions')) throw c.error("'partition' expected");
    return { kind: 'coldPartition', position, move: 'dropLocal', ...parsePartitionSelection(c) };
  }
  if (!c.acceptWord('partition')) throw c.error("'column' or 'partition' expected");
  if (c.acceptWord('list')) {
    if (c.atStatementEnd()) throw c.error('partition name expected');
    return { kind: 'dropPartition', position, list: parseArguments(c) };
  }
  if (c.acceptWord('where')) return { kind: 'dropPartition', position, where: parseCondition(c, 'empty where clause') };
  throw c.error("'list' or 'where' expected");
}

/**
 * `CONVERT PARTITION[S] TO PARQUET | NATIVE LIST ... | WHERE ... [WITH (...)]`; the WITH options (bloom filters)
 * are accepted and not applied. `CONVERT TO WAL`-style forms stay 'other'.
 */
function parseConvertPartition(c: ParseCursor): AlterAction {
  const convertToken = c.next();
  const position = convertToken.start;
  if (!c.acceptWord('partition') && !c.acceptWord('partitions')) return { kind: 'other', position, text: c.skipToStatementEnd(convertToken) };
  c.expectWord('to');
  let toParquet: boolean;
  if (c.acceptWord('remote')) return { kind: 'coldPartition', position, move: 'toRemote', ...parsePartitionSelection(c) };
  if (c.acceptWord('parquet')) toParquet = true;
  else if (c.acceptWord('native')) toParquet = false;
  else throw c.error("'parquet' or 'native' expected"); // QuestDB's text; REMOTE is svc's own
  let action: AlterAction;
  if (c.acceptWord('list')) {
    if (c.atStatementEnd()) throw c.error('partition name expected');
    action = { kind: 'convertPartition', position, toParquet, list: parseArguments(c) };
  } else if (c.acceptWord('where')) {
    action = { kind: 'convertPartition', position, toParquet, where: parseCondition(c, 'empty where clause') };
  } else {
    throw c.error("'list' or 'where' expected");
  }
  const withToken = c.acceptWord('with');
  if (withToken !== undefined) c.skipToStatementEnd(withToken);
  return action;
}

/** `LIST 'p1', 'p2'` or `WHERE <condition on the designated timestamp>`. */
function parsePartitionSelection(c: ParseCursor): { list: ReturnType<typeof parseArguments> } | { where: ReturnType<typeof parseCondition> } {
  if (c.acceptWord('list')) {
    if (c.atStatementEnd()) throw c.error('partition name expected');
    return { list: parseArguments(c) };
  }
  if (c.acceptWord('where')) return { where: parseCondition(c, 'empty where clause') };
  throw c.error("'list' or 'where' expected");
}

/** `ALTER COLUMN c TYPE T [symbol options]` is modelled; ADD/DROP INDEX, CACHE, NOCACHE, SYMBOL CAPACITY are 'other'. */
function parseAlterColumn(c: ParseCursor, actionToken: Token): AlterAction {
  c.next();
  c.expectWord('column');
  const column = parseName(c, 'column name');
  const next = upperWord(c.peek());
  if (next === 'TYPE') {
    c.next();
    const type = parseTypeName(c);
    c.skipToStatementEnd(c.peek());
    return { kind: 'alterColumnType', position: actionToken.start, column, typeName: type.name, typePosition: type.position };
  }
  if (next === 'ADD' || next === 'DROP' || next === 'CACHE' || next === 'NOCACHE' || next === 'SYMBOL') {
    return { kind: 'other', position: actionToken.start, text: c.skipToStatementEnd(actionToken) };
  }
  throw c.error("'add index' or 'drop index' or 'type' or 'cache' or 'nocache' or 'symbol' expected");
}

/** `SET PARAM k = v, ...` is modelled; `SET TTL ...` and `SET TYPE [BYPASS] WAL` are 'other'. */
function parseSet(c: ParseCursor, actionToken: Token): AlterAction {
  c.next();
  if (c.acceptWord('param')) return { kind: 'setParam', position: actionToken.start, settings: parseSettings(c) };
  if (c.isWord('storage') && c.isWord('policy', 1)) {
    c.next();
    c.next();
    return { kind: 'storagePolicy', position: actionToken.start, change: 'set', stages: parseStoragePolicyStages(c) };
  }
  if (c.isWord('ttl') || c.isWord('type')) return { kind: 'other', position: actionToken.start, text: c.skipToStatementEnd(actionToken) };
  throw c.error("'param', 'ttl' or 'type' expected");
}

/** `DEDUP DISABLE` / `DEDUP [ENABLE] UPSERT KEYS(ts, k...)`. */
function parseDedup(c: ParseCursor): AlterAction {
  const position = c.next().start;
  if (c.acceptWord('disable')) return { kind: 'dedup', position, enable: false, keys: [] };
  c.acceptWord('enable');
  c.expectWord('upsert');
  c.expectWord('keys');
  return { kind: 'dedup', position, enable: true, keys: parseParenthesizedNames(c, 'column name') };
}
