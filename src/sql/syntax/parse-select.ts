// Queries: WITH, set operations (UNION / EXCEPT / INTERSECT [ALL], left-associative, INTERSECT binding tighter),
// SELECT cores, and the bare form `trades [WHERE ...]` ≡ SELECT * FROM trades. ORDER BY and LIMIT written after
// the last core belong to the whole query (the set operation when there is one). A leading `(` is a subquery
// source, as in QuestDB: `(SELECT ...) WHERE x` ≡ SELECT * FROM (SELECT ...) WHERE x.
import type {
  CommonTableExpr, Expr, LimitClause, Name, OrderItem, QueryExpr, SelectItem, SelectQuery, SetOperationQuery,
} from './ast.js';
import type { Token } from './token.js';
import { isReservedWord, isWord, reservedNameMessage, wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { compact, parseName } from './parse-cursor.js';
import { parseExpression } from './parse-expression.js';
import { parseFromClause } from './parse-from.js';
import { parseLimit, parseOrderBy, parseSelectClauses } from './parse-clauses.js';

export function parseQuery(c: ParseCursor): QueryExpr {
  const first = c.peek();
  c.enter(first);
  const ctes = c.isWord('with') ? parseWithClause(c) : [];
  let query = parseIntersection(c);
  for (;;) {
    const word = wordOf(c.peek());
    if (word !== 'union' && word !== 'except') break;
    const opToken = c.next();
    const all = c.acceptWord('all') !== undefined;
    query = setOperation(word, opToken, all, query, parseIntersection(c));
  }
  const orderBy = parseOrderBy(c);
  const limit = parseLimit(c);
  c.leave();
  return finishQuery(query, ctes.length > 0 ? first.start : undefined, ctes, orderBy, limit);
}

function parseIntersection(c: ParseCursor): QueryExpr {
  let query: QueryExpr = parseSelectCore(c);
  while (c.isWord('intersect')) {
    const opToken = c.next();
    const all = c.acceptWord('all') !== undefined;
    query = setOperation('intersect', opToken, all, query, parseSelectCore(c));
  }
  return query;
}

function setOperation(
  op: SetOperationQuery['op'], opToken: Token, all: boolean, left: QueryExpr, right: QueryExpr,
): SetOperationQuery {
  return { kind: 'setOperation', position: opToken.start, op, all, left, right, with: [], orderBy: [] };
}

function finishQuery(
  query: QueryExpr, withPosition: number | undefined, ctes: CommonTableExpr[], orderBy: OrderItem[],
  limit: LimitClause | undefined,
): QueryExpr {
  const position = withPosition ?? query.position;
  return compact({ ...query, position, with: ctes, orderBy, limit });
}

/** `WITH name AS (query), name AS (query) ...`; names must be unique (QuestDB: "duplicate name"). */
export function parseWithClause(c: ParseCursor): CommonTableExpr[] {
  c.next();
  const ctes: CommonTableExpr[] = [];
  do {
    const name = parseName(c, 'literal');
    if (ctes.some((cte) => cte.name.name.toLowerCase() === name.name.toLowerCase())) {
      throw c.errorAt('duplicate name', name.position);
    }
    c.expectWord('as');
    c.expectOperator('(');
    const query = parseQuery(c);
    c.expectOperator(')');
    ctes.push({ name, query });
  } while (c.acceptOperator(','));
  return ctes;
}

/** One SELECT (or bare-source query) without ORDER BY / LIMIT, which parseQuery reads for the whole query. */
function parseSelectCore(c: ParseCursor): SelectQuery {
  const token = c.peek();
  if (isWord(token, 'select')) return parseSelect(c);
  const bareSource = token.kind === 'quotedIdentifier' || token.kind === 'string' || c.isOperator('(')
    || (token.kind === 'identifier' && !isReservedWord(token));
  if (bareSource) return parseBareQuery(c);
  if (token.kind === 'identifier') throw c.error(reservedNameMessage(token), token);
  throw c.error("'select', 'with' or table name expected");
}

function parseBareQuery(c: ParseCursor): SelectQuery {
  const position = c.peek().start;
  const from = parseFromClause(c);
  const clauses = parseSelectClauses(c, from.latestOn);
  return {
    kind: 'select', position, with: [], distinct: false, columns: [{ expr: { kind: 'star', position } }],
    from: from.source, ...clauses, orderBy: [],
  };
}

function parseSelect(c: ParseCursor): SelectQuery {
  const selectToken = c.next();
  const distinct = c.acceptWord('distinct') !== undefined;
  if (!distinct && c.atStatementEnd()) throw c.error('[distinct] column expected');
  const columns = parseSelectList(c);
  const base = { kind: 'select' as const, position: selectToken.start, with: [], distinct, columns, orderBy: [] };
  if (!c.acceptWord('from')) {
    if (columns.some((item) => item.expr.kind === 'star' && item.expr.qualifier === undefined)) {
      throw c.error("'from' expected");
    }
    return { ...base, groupBy: [] };
  }
  const from = parseFromClause(c);
  const clauses = parseSelectClauses(c, from.latestOn);
  return { ...base, from: from.source, ...clauses };
}

/** Tokens after which the select list is over. */
function endsSelectList(token: Token): boolean {
  if (token.kind === 'eof') return true;
  if (token.kind === 'operator') return token.text === ';' || token.text === ')';
  const word = wordOf(token);
  return word === 'from' || word === 'union' || word === 'except' || word === 'intersect';
}

/** Items up to FROM; a dangling comma before FROM is accepted, as QuestDB does (`select a, from t`). */
function parseSelectList(c: ParseCursor): SelectItem[] {
  const items: SelectItem[] = [];
  for (;;) {
    if (c.isWord('from')) {
      if (items.length === 0) throw c.error('column expression expected');
      return items;
    }
    if (c.atEnd()) throw c.error('column expected');
    items.push(parseSelectItem(c));
    if (c.acceptOperator(',')) continue;
    if (endsSelectList(c.peek())) return items;
    throw c.found("',', 'from' or 'over' expected");
  }
}

function parseSelectItem(c: ParseCursor): SelectItem {
  const token = c.peek();
  let expr: Expr;
  if (c.isOperator('*')) {
    c.next();
    expr = { kind: 'star', position: token.start };
  } else {
    expr = parseExpression(c);
  }
  const alias = parseColumnAlias(c);
  if (alias === undefined) return { expr };
  if (expr.kind === 'star') throw c.errorAt('wildcard cannot have alias', alias.position);
  return { expr, alias };
}

/** Words that end a select item rather than alias it (QuestDB's columnAliasStop). */
const COLUMN_ALIAS_STOP = new Set(['from', 'over', 'union', 'except', 'intersect']);

/** `expr AS alias`, `expr alias`, `expr "alias"`, `expr 'alias'`; an unquoted reserved word is an error. */
function parseColumnAlias(c: ParseCursor): Name | undefined {
  const token = c.peek();
  if (isWord(token, 'as')) {
    c.next();
    return parseName(c, 'alias', true);
  }
  if (token.kind === 'quotedIdentifier' || token.kind === 'string') {
    c.next();
    return { name: token.value, position: token.start };
  }
  if (token.kind !== 'identifier' || COLUMN_ALIAS_STOP.has(wordOf(token))) return undefined;
  if (isReservedWord(token)) throw c.error(reservedNameMessage(token), token);
  c.next();
  return { name: token.value, position: token.start };
}
