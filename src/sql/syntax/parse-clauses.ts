// The clauses after FROM, in QuestDB's order: WHERE, LATEST ON (or legacy LATEST BY), SAMPLE BY with
// FROM/TO, FILL and ALIGN (FILL before or after ALIGN), GROUP BY, HAVING; and the query-level ORDER BY and LIMIT.
import type {
  ColumnRefExpr, Expr, FillItem, LatestOnClause, LimitClause, OrderItem, SampleByClause,
} from './ast.js';
import { isReservedWord, reservedNameMessage, wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { compact, parseCommaList, parseName } from './parse-cursor.js';
import { parseExpression } from './parse-expression.js';
import { canStartOperand } from './parse-primary.js';
import { parseOrderItems } from './parse-call.js';
import { readDuration, readNumericConstant } from './lexer.js';

export interface SelectClauses {
  readonly where?: Expr;
  readonly latestOn?: LatestOnClause;
  readonly sampleBy?: SampleByClause;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
}

/** Clauses of one SELECT core after its FROM clause; `latestOn` is a legacy LATEST BY already read after the table. */
export function parseSelectClauses(c: ParseCursor, latestOn: LatestOnClause | undefined): SelectClauses {
  const where = c.acceptWord('where') ? parseCondition(c, 'empty where clause') : undefined;
  let latest = latestOn;
  if (c.isWord('latest')) {
    if (latest !== undefined) throw c.error("mix of new and deprecated 'latest by' syntax");
    latest = parseLatest(c);
  }
  const sampleBy = c.isWord('sample') ? parseSampleBy(c) : undefined;
  let groupBy: Expr[] = [];
  if (c.acceptWord('group')) {
    c.expectWord('by');
    if (c.atStatementEnd()) throw c.error('literal expected');
    groupBy = parseCommaList(c, parseExpression);
  }
  const having = c.acceptWord('having') ? parseCondition(c, 'empty having clause') : undefined;
  return compact({ where, latestOn: latest, sampleBy, groupBy, having });
}

/** A boolean condition; `emptyMessage` when nothing that could start one follows (QuestDB: "empty where clause"). */
export function parseCondition(c: ParseCursor, emptyMessage: string): Expr {
  const next = c.peek();
  if (!canStartOperand(next) && next.kind !== 'identifier') throw c.error(emptyMessage);
  return parseExpression(c);
}

/** `LATEST ON ts PARTITION BY k, ...` or the legacy `LATEST BY k, ...` (designated timestamp implied). */
export function parseLatest(c: ParseCursor): LatestOnClause {
  const latestToken = c.next();
  if (c.acceptWord('on')) {
    const timestamp = parseName(c, 'literal');
    c.expectWord('partition');
    c.expectWord('by');
    return { position: latestToken.start, timestamp, partitionBy: parseCommaList(c, parseColumnRef) };
  }
  if (c.acceptWord('by')) return { position: latestToken.start, partitionBy: parseCommaList(c, parseColumnRef) };
  throw c.error("'on' or 'by' expected");
}

/** A plain (optionally qualified) column name where QuestDB accepts only literals. */
function parseColumnRef(c: ParseCursor): ColumnRefExpr {
  const first = c.peek();
  if (first.kind === 'identifier' && isReservedWord(first)) throw c.error(reservedNameMessage(first), first);
  if (first.kind !== 'identifier' && first.kind !== 'quotedIdentifier') throw c.error('literal expected', first);
  c.next();
  if (!c.isOperator('.')) return { kind: 'column', position: first.start, name: first.value };
  c.next();
  const name = parseName(c, 'column name');
  return { kind: 'column', position: first.start, qualifier: first.value, name: name.name };
}

const SAMPLE_UNITS = new Set(['U', 'T', 's', 'm', 'h', 'd', 'w', 'M', 'y', 'n']);
const UNIT_EXPECTED = 'one letter sample by period unit expected';

function parseSampleBy(c: ParseCursor): SampleByClause {
  const sampleToken = c.next();
  c.expectWord('by');
  const period = parseSamplePeriod(c);
  const from = c.acceptWord('from') ? parseSampleBound(c) : undefined;
  const to = c.acceptWord('to') ? parseSampleBound(c) : undefined;
  let fill: FillItem[] | undefined;
  let alignment: Pick<SampleByClause, 'align' | 'timeZone' | 'offset'> | undefined;
  for (;;) {
    if (fill === undefined && c.isWord('fill')) fill = parseFill(c);
    else if (alignment === undefined && c.isWord('align')) alignment = parseAlign(c);
    else break;
  }
  return compact({
    position: sampleToken.start, ...period, from, to, fill: fill ?? [], align: 'calendar' as const, ...alignment,
  });
}

/** `15m`, `15 m` or a bare unit letter `h` (count 1). Units are case-sensitive: m minute, M month. */
function parseSamplePeriod(c: ParseCursor): { count: number; unit: string; unitPosition: number } {
  const token = c.peek();
  if (token.kind === 'eof') throw c.error('time interval unit expected');
  if (token.kind === 'identifier' && SAMPLE_UNITS.has(token.text)) {
    c.next();
    return { count: 1, unit: token.text, unitPosition: token.start };
  }
  if (token.kind !== 'number') throw c.error(UNIT_EXPECTED);
  c.next();
  const duration = readDuration(token);
  if (duration !== undefined) {
    if (!SAMPLE_UNITS.has(duration.unit)) throw c.errorAt(UNIT_EXPECTED, duration.unitPosition);
    return duration;
  }
  const constant = readNumericConstant(token);
  if (constant === undefined || (constant.literalType !== 'INT' && constant.literalType !== 'LONG')) {
    throw c.error(UNIT_EXPECTED, token);
  }
  const unit = c.peek();
  if (unit.kind === 'eof') throw c.error('time interval unit expected');
  if (unit.kind !== 'identifier' || !SAMPLE_UNITS.has(unit.text)) throw c.error(UNIT_EXPECTED, unit);
  c.next();
  return { count: Number(constant.value), unit: unit.text, unitPosition: unit.start };
}

function parseSampleBound(c: ParseCursor): Expr {
  return parseCondition(c, "'timestamp' expression expected");
}

const FILL_WORDS = new Set(['none', 'null', 'prev', 'linear']);

/** `FILL(NONE | NULL | PREV | LINEAR | constant, ...)`: one strategy per aggregate, or one for all. */
function parseFill(c: ParseCursor): FillItem[] {
  c.next();
  c.expectOperator('(');
  const items: FillItem[] = [];
  do {
    const token = c.peek();
    const word = wordOf(token);
    if (FILL_WORDS.has(word) && (c.isOperator(',', 1) || c.isOperator(')', 1))) {
      c.next();
      items.push({ kind: word as 'none' | 'null' | 'prev' | 'linear', position: token.start });
    } else if (c.isOperator(',') || c.isOperator(')') || c.atEnd()) {
      throw c.error("'none', 'prev', 'mid', 'null' or number expected");
    } else {
      items.push({ kind: 'value', position: token.start, value: parseExpression(c) });
    }
  } while (c.acceptOperator(','));
  c.expectOperator(')', "',' or ')' expected");
  return items;
}

/** `ALIGN TO CALENDAR [TIME ZONE tz] [WITH OFFSET 'hh:mm']` or `ALIGN TO FIRST OBSERVATION`. */
function parseAlign(c: ParseCursor): Pick<SampleByClause, 'align' | 'timeZone' | 'offset'> {
  c.next();
  c.expectWord('to');
  if (c.acceptWord('first')) {
    c.expectWord('observation');
    return { align: 'firstObservation' };
  }
  if (!c.acceptWord('calendar')) throw c.error("'calendar' or 'first observation' expected");
  let timeZone: Expr | undefined;
  let offset: Expr | undefined;
  if (c.acceptWord('time')) {
    c.expectWord('zone');
    timeZone = parseCondition(c, 'Expression expected');
  }
  if (c.acceptWord('with')) {
    c.expectWord('offset');
    offset = parseCondition(c, 'Expression expected');
  }
  return compact({ align: 'calendar' as const, timeZone, offset });
}

/** Query-level `ORDER BY item, ...`; empty when absent. */
export function parseOrderBy(c: ParseCursor): OrderItem[] {
  if (!c.acceptWord('order')) return [];
  c.expectWord('by');
  if (c.atStatementEnd()) throw c.error('literal expected');
  return parseOrderItems(c);
}

/** `LIMIT n`, `LIMIT lo, hi`, `LIMIT -n` (the sign is an ordinary unary minus). */
export function parseLimit(c: ParseCursor): LimitClause | undefined {
  const limitToken = c.acceptWord('limit');
  if (limitToken === undefined) return undefined;
  const lo = parseCondition(c, 'Expression expected');
  const hi = c.acceptOperator(',') ? parseCondition(c, 'Expression expected') : undefined;
  return compact({ position: limitToken.start, lo, hi });
}
