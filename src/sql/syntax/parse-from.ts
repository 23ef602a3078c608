// FROM sources and joins. A source is a table name (identifier, "quoted" or 'string'), a table function call
// `long_sequence(10)`, or `(subquery)`; each may have an alias (with or without AS) and TIMESTAMP(col).
// Joins chain left-deep: [INNER] JOIN, LEFT/RIGHT/FULL [OUTER] JOIN, CROSS, ASOF, LT, SPLICE, and `FROM a, b`
// (a cross join). `ON (a, b)` and `ON a` (bare column names) mean equality on same-named columns, like USING.
import type { Expr, FromSource, JoinSource, JoinType, LatestOnClause, Name } from './ast.js';
import { isReservedWord, isWord, wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { compact, parseName, parseParenthesizedNames, parseTableName } from './parse-cursor.js';
import { parseExpression } from './parse-expression.js';
import { parseCall } from './parse-call.js';
import { parseLatest } from './parse-clauses.js';
import { readDuration, readNumericConstant } from './lexer.js';

export interface FromClause {
  readonly source: FromSource;
  /** Legacy `LATEST BY k` written right after the first table. */
  readonly latestOn?: LatestOnClause;
}

/** Words that end a table source instead of aliasing it (QuestDB's tableAliasStop plus our join and clause words). */
const TABLE_ALIAS_STOP = new Set([
  'where', 'latest', 'join', 'inner', 'left', 'right', 'full', 'outer', 'asof', 'splice', 'lt', 'cross', 'sample',
  'order', 'on', 'timestamp', 'limit', 'union', 'group', 'except', 'intersect', 'from', 'having', 'using',
  'tolerance', 'window', 'horizon', 'set',
]);

const JOIN_STARTS = new Set(['join', 'inner', 'left', 'right', 'full', 'cross', 'asof', 'lt', 'splice']);

export function parseFromClause(c: ParseCursor): FromClause {
  let source = parseFromItem(c);
  const latestOn = c.isWord('latest') && c.isWord('by', 1) ? parseLatest(c) : undefined;
  for (;;) {
    if (c.isOperator(',')) {
      const comma = c.next();
      const right = parseFromItem(c);
      source = { kind: 'join', position: comma.start, joinType: 'cross', left: source, right };
    } else if (JOIN_STARTS.has(wordOf(c.peek()))) {
      source = parseJoin(c, source);
    } else {
      return compact({ source, latestOn });
    }
  }
}

/** One source without joins; UPDATE ... FROM uses it directly. */
export function parseFromItem(c: ParseCursor): FromSource {
  const token = c.peek();
  if (c.isOperator('(')) {
    const open = c.next();
    const query = c.hooks.parseQuery(c);
    c.expectOperator(')');
    return compact({ kind: 'subquerySource', position: open.start, query, ...parseAliasAndTimestamp(c) });
  }
  if (wordOf(token) === 'pg_catalog' && c.isOperator('.', 1) && c.peek(2).kind === 'identifier' && c.isOperator('(', 3)) {
    // `pg_catalog.generate_series(...)`: a schema-qualified table function is the function itself.
    c.next();
    c.next();
    const call = parseCall(c);
    return compact({ kind: 'functionSource', position: token.start, call, ...parseAliasAndTimestamp(c) });
  }
  if (token.kind === 'identifier' && c.isOperator('(', 1) && !isReservedWord(token)) {
    const call = parseCall(c);
    return compact({ kind: 'functionSource', position: token.start, call, ...parseAliasAndTimestamp(c) });
  }
  if (token.kind === 'eof') throw c.error('table name or sub-query expected');
  if (token.kind === 'operator' || token.kind === 'number') throw c.error('table name expected');
  const table = parseTableName(c);
  return compact({ kind: 'table', position: table.position, name: table.name, ...parseAliasAndTimestamp(c) });
}

function parseAliasAndTimestamp(c: ParseCursor): { alias?: Name; timestamp?: Name; columnAliases?: Name[] } {
  const alias = parseTableAlias(c);
  if (alias !== undefined && c.isOperator('(')) return { alias, columnAliases: parseParenthesizedNames(c, 'column alias') };
  if (!c.acceptWord('timestamp')) return { alias };
  c.expectOperator('(');
  const timestamp = parseName(c, 'literal');
  c.expectOperator(')');
  return { alias, timestamp };
}

function parseTableAlias(c: ParseCursor): Name | undefined {
  const token = c.peek();
  if (isWord(token, 'as')) {
    c.next();
    return parseName(c, 'alias');
  }
  if (token.kind === 'quotedIdentifier') {
    c.next();
    return { name: token.value, position: token.start };
  }
  if (token.kind === 'identifier' && !isReservedWord(token) && !TABLE_ALIAS_STOP.has(wordOf(token))) {
    c.next();
    return { name: token.value, position: token.start };
  }
  return undefined;
}

function parseJoinType(c: ParseCursor): JoinType {
  const first = c.next();
  const word = wordOf(first);
  if (word === 'join') return 'inner';
  if (word === 'left' || word === 'right' || word === 'full') c.acceptWord('outer');
  if (!c.acceptWord('join')) throw c.error("'join' expected", first);
  return word === 'inner' ? 'inner' : (word as JoinType);
}

function parseJoin(c: ParseCursor, left: FromSource): JoinSource {
  const position = c.peek().start;
  const joinType = parseJoinType(c);
  const right = parseFromItem(c);
  let condition: { on?: Expr; using?: readonly Name[] } = {};
  if (c.isWord('on') || c.isWord('using')) {
    if (joinType === 'cross') throw c.error('Cross joins cannot have join clauses');
    condition = c.next().text.toLowerCase() === 'on' ? parseJoinCondition(c) : { using: parseParenthesizedNames(c, 'column name') };
  } else if (joinType === 'inner' || joinType === 'left' || joinType === 'right' || joinType === 'full') {
    throw c.error("'on' expected");
  }
  const tolerance = (joinType === 'asof' || joinType === 'lt') && c.isWord('tolerance') ? parseTolerance(c) : undefined;
  return compact({ kind: 'join', position, joinType, left, right, ...condition, tolerance });
}

/** After ON: `(a, b)` is a column list; a bare column name `a` (or `(a)`) is a one-column list; else a condition. */
function parseJoinCondition(c: ParseCursor): { on?: Expr; using?: readonly Name[] } {
  const saved = c.index;
  if (c.isOperator('(')) {
    c.next();
    const items = [parseExpression(c)];
    while (c.acceptOperator(',')) items.push(parseExpression(c));
    if (items.length > 1) {
      c.expectOperator(')');
      return { using: items.map((item) => joinColumnName(c, item)) };
    }
    // A single parenthesised expression may continue (`ON (a.x = b.x) AND ...`): parse it again as a whole.
    c.index = saved;
  }
  const expr = parseExpression(c);
  if (expr.kind === 'column' && expr.qualifier === undefined) return { using: [{ name: expr.name, position: expr.position }] };
  return { on: expr };
}

function joinColumnName(c: ParseCursor, item: Expr): Name {
  if (item.kind !== 'column' || item.qualifier !== undefined) {
    throw c.errorAt('Column name expected', item.position);
  }
  return { name: item.name, position: item.position };
}

/** `TOLERANCE 1s` or `TOLERANCE 1 s` after ASOF / LT JOIN. */
function parseTolerance(c: ParseCursor): { value: number; unit: string; position: number } {
  c.next();
  const token = c.peek();
  if (token.kind !== 'number') throw c.error('tolerance interval expected');
  c.next();
  const duration = readDuration(token);
  if (duration !== undefined) return { value: duration.count, unit: duration.unit, position: token.start };
  const constant = readNumericConstant(token);
  const unit = c.peek();
  if (constant === undefined || (constant.literalType !== 'INT' && constant.literalType !== 'LONG') || unit.kind !== 'identifier') {
    throw c.error('tolerance interval expected', token);
  }
  c.next();
  return { value: Number(constant.value), unit: unit.text, position: token.start };
}
