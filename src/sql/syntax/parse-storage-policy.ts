// Durations of table lifecycles: `TTL n unit` and the storage policy clause
// `STORAGE POLICY(TO PARQUET t, TO REMOTE t, DROP LOCAL t, DROP REMOTE t)` (any subset, each stage once,
// values positive), shared by CREATE TABLE and ALTER TABLE. Units: h, d, W, M, Y or their words.
import type { StoragePolicyClause, TtlClause } from './ast.js';
import type { ParseCursor } from './parse-cursor.js';
import { readDuration, readNumericConstant } from './lexer.js';

const TTL_UNITS: ReadonlyMap<string, TtlClause['unit']> = new Map([
  ['H', 'HOUR'], ['HOUR', 'HOUR'], ['HOURS', 'HOUR'], ['D', 'DAY'], ['DAY', 'DAY'], ['DAYS', 'DAY'],
  ['W', 'WEEK'], ['WEEK', 'WEEK'], ['WEEKS', 'WEEK'], ['M', 'MONTH'], ['MONTH', 'MONTH'], ['MONTHS', 'MONTH'],
  ['Y', 'YEAR'], ['YEAR', 'YEAR'], ['YEARS', 'YEAR'],
]);

/** `2 DAYS`, `2d`, `12 HOURS` (QuestDB's SqlParser.parseTtlHoursOrMonths texts), the keyword before it consumed. */
export function parseTtlValue(c: ParseCursor): TtlClause {
  const token = c.peek();
  if (c.atStatementEnd()) throw c.error('missing argument, should be <number> <unit> or <number_with_unit>');
  c.next();
  const duration = token.kind === 'number' ? readDuration(token) : undefined;
  let value: number;
  let unitText: string;
  if (duration !== undefined) {
    value = duration.count;
    unitText = duration.unit;
  } else {
    const constant = token.kind === 'number' ? readNumericConstant(token) : undefined;
    if (constant === undefined || constant.literalType !== 'INT') {
      throw c.error(`invalid syntax, should be <number> <unit> but was ${token.text}`, token);
    }
    value = Number(constant.value);
    if (c.atStatementEnd()) throw c.error("missing unit, 'HOUR(S)', 'DAY(S)', 'WEEK(S)', 'MONTH(S)' or 'YEAR(S)' expected");
    unitText = c.next().text;
  }
  const unit = TTL_UNITS.get(unitText.toUpperCase());
  if (unit === undefined) {
    throw c.error(`invalid unit, expected 'HOUR(S)', 'DAY(S)', 'WEEK(S)', 'MONTH(S)' or 'YEAR(S)', but was '${unitText}'`, token);
  }
  return { value, unit, position: token.start };
}

type Stage = 'toParquet' | 'toRemote' | 'dropLocal' | 'dropRemote';

const STAGE_WORDS: Readonly<Record<string, Readonly<Record<string, Stage>>>> = {
  TO: { PARQUET: 'toParquet', REMOTE: 'toRemote' },
  DROP: { LOCAL: 'dropLocal', REMOTE: 'dropRemote' },
};

/** `(stage ttl, ...)` after the words STORAGE POLICY. */
export function parseStoragePolicyStages(c: ParseCursor): StoragePolicyClause {
  const open = c.peek();
  c.expectOperator('(', "'(' expected");
  const stages: { -readonly [K in Stage]?: TtlClause } = {};
  if (c.isOperator(')')) throw c.error("'to parquet', 'to remote', 'drop local' or 'drop remote' expected");
  do {
    const first = c.peek();
    const second = c.peek(1);
    const stage = STAGE_WORDS[first.text.toUpperCase()]?.[second.text.toUpperCase()];
    if (stage === undefined) throw c.error("'to parquet', 'to remote', 'drop local' or 'drop remote' expected", first);
    if (stages[stage] !== undefined) throw c.error(`duplicate storage policy setting [${first.text} ${second.text}]`, first);
    c.next();
    c.next();
    const ttl = parseTtlValue(c);
    if (!(ttl.value > 0)) throw c.errorAt('storage policy durations must be positive', ttl.position);
    stages[stage] = ttl;
  } while (c.acceptOperator(','));
  c.expectOperator(')', "')' expected");
  return { position: open.start, ...stages };
}
