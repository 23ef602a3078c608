// Generates SQL fuzz cases: random sequences drawn from the SQL vocabulary (keywords, names, literals at their
// limits, operators, function calls) and mutations of valid statements (token deletes, duplicates, swaps,
// replacements, truncation, extreme constants, deep nesting). Deterministic for a given seed.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseSlt, type SltRecord } from '../sql/slt-format.js';

const KEYWORDS = ('select from where group by order asc desc limit sample fill latest on partition join asof lt splice cross inner left ' +
  'outer union except intersect all distinct case when then else end cast as and or not in between is null like ilike insert into ' +
  'values create table timestamp update set drop alter add column with over rows range preceding following unbounded current row ' +
  'explain show tables columns true false nan if exists truncate rename to dedup upsert keys wal bypass align calendar ' +
  'first last prev linear none day hour month year week symbol int long double float string varchar boolean date short byte char ' +
  'uuid ipv4 binary').split(' ');

const NAMES = ['t', 'n', 'x', 'a', 'b', 'ts', 'i', 'd', 's', 'sym', 'price', 'id', 'value', '"quoted name"', '"', 'long_sequence', 'tables', '_', 'é', 'x1'];

const LITERALS = ['0', '1', '-1', '2147483647', '2147483648', '-2147483648', '9223372036854775807', '9223372036854775808', '-9223372036854775808',
  '99999999999999999999999', '1.5', '1e308', '1e400', '-0.0', '.5', '5.', '1e', '0x1F', '0xFFFFFFFFFFFFFFFFFF', "'a'", "''", "'it''s'", "'unterminated",
  "'2024-01-01'", "'2024-01-01T00:00:00.000000Z'", "'2024-13-45'", "'2024;1d'", "'2024-01-01;1h;1d;3'", "'1.2.3.4'", "'1.2.3.4/33'",
  "'00000000-0000-0000-0000-000000000000'", 'null', 'NaN', 'true', '10L', '1.5f', "'\u0000'", "'\uFFFF'", "'🙂'", '$1', ':name', '1m', '1h', '-1d'];

const OPERATORS = ['+', '-', '*', '/', '%', '=', '!=', '<>', '<', '<=', '>', '>=', '||', '~', '!~', '::', '(', ')', ',', '.', ';', '[', ']',
  '@', '#', '&', '|', '^', '!', '?', '{', '}', '\\', '`', '"'];

const FUNCTIONS = ['count(', 'sum(', 'avg(', 'min(', 'max(', 'first(', 'last(', 'rnd_int(', 'rnd_str(', 'now(', 'systimestamp(', 'to_timestamp(',
  'dateadd(', 'datediff(', 'long_sequence(', 'abs(', 'round(', 'concat(', 'substring(', 'length(', 'cast(', 'coalesce(', 'nullif(',
  'row_number() over (', 'rank() over (', 'lag(', 'lead(', 'timestamp_floor(', 'to_str(', 'regexp_replace(', 'left(', 'right(', 'upper(',
  'lower(', 'replace(', 'split_part(', 'ksum(', 'nsum(', 'stddev(', 'variance(', 'count_distinct(', 'string_agg(', 'haversine_dist_deg('];

const EXTREMES = ['0', '-1', '2147483648', '9223372036854775807', '-9223372036854775808', '1e308', '1e-320', 'NaN', 'null', "''", '100000000000'];

const pools = [KEYWORDS, NAMES, LITERALS, OPERATORS, FUNCTIONS];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function vocabularyToken(random: () => number): string {
  return pick(random, pick(random, pools));
}

/** Splits SQL into tokens good enough for mutation: quoted strings and names stay whole. */
export function roughTokens(sql: string): string[] {
  return sql.match(/'(?:[^']|'')*'|"[^"]*"|[A-Za-z_][A-Za-z0-9_$]*|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[LlFf]?|::|<=|>=|<>|!=|\|\||!~|\S/g) ?? [];
}

export function randomTokenSequence(random: () => number): string {
  const length = 1 + Math.floor(random() * 24);
  const tokens: string[] = [];
  // Half of the sequences start like a statement so they reach past the first keyword of the parser.
  if (random() < 0.5) tokens.push(pick(random, ['select', 'insert into', 'create table', 'update', 'alter table', 'drop table', 'explain select', 'with', 'show']));
  for (let k = 0; k < length; k++) tokens.push(vocabularyToken(random));
  return tokens.join(random() < 0.9 ? ' ' : '');
}

function mutateOnce(random: () => number, tokens: string[]): void {
  const at = Math.floor(random() * Math.max(1, tokens.length));
  switch (Math.floor(random() * 10)) {
    case 0: tokens.splice(at, 1); break;
    case 1: tokens.splice(at, 0, tokens[at] ?? vocabularyToken(random)); break;
    case 2: if (at + 1 < tokens.length) [tokens[at], tokens[at + 1]] = [tokens[at + 1] as string, tokens[at] as string]; break;
    case 3: tokens[at] = vocabularyToken(random); break;
    case 4: tokens.splice(at, 0, vocabularyToken(random)); break;
    case 5: tokens.length = at; break;
    case 6: {
      const numeric = tokens.findIndex((token, k) => k >= at && /^\d/.test(token));
      if (numeric >= 0) tokens[numeric] = pick(random, EXTREMES);
      else tokens[at] = pick(random, EXTREMES);
      break;
    }
    case 7: {
      const depth = 1 + Math.floor(random() * 300);
      tokens.splice(at, 0, '('.repeat(depth) + (tokens[at] ?? '1') + ')'.repeat(random() < 0.8 ? depth : Math.floor(depth / 2)));
      break;
    }
    case 8: {
      const token = tokens[at] ?? '';
      const position = Math.floor(random() * (token.length + 1));
      const inserted = String.fromCharCode(Math.floor(random() * 128));
      tokens[at] = token.slice(0, position) + inserted + token.slice(position + 1);
      break;
    }
    default: {
      // A name or literal from the same statement in another place: type mismatches rather than syntax errors.
      const other = tokens[Math.floor(random() * tokens.length)];
      if (other !== undefined) tokens[at] = other;
    }
  }
}

export function mutateStatement(random: () => number, sql: string): string {
  const tokens = roughTokens(sql);
  // Mostly one mutation, so that many cases stay close enough to valid to reach binding and execution.
  const roll = random();
  const count = roll < 0.65 ? 1 : roll < 0.9 ? 2 : 3;
  for (let k = 0; k < count; k++) mutateOnce(random, tokens);
  return tokens.join(' ');
}

/** Every record of the .slt files, in file order. */
export function sltRecords(sqlDir: string): SltRecord[] {
  return readdirSync(sqlDir).filter((name) => name.endsWith('.slt')).sort()
    .flatMap((name) => parseSlt(readFileSync(join(sqlDir, name), 'utf8'), name));
}

/** Turns a mutated case into a read when it would rewrite or drop the fixture tables the other cases use. */
export function keepFixtures(sql: string): string {
  return /\b(drop|truncate|rename|alter)\b/i.test(sql) ? `explain ${sql}` : sql;
}

export interface FuzzTable {
  readonly name: string;
  readonly columns: readonly string[];
}

const BINARY_OPERATORS = ['+', '-', '*', '/', '%', '=', '!=', '<', '<=', '>', '>=', '||', 'and', 'or', '&', '|', '^', '~', 'like', 'in'];
const UNARY_FUNCTIONS = ['abs', 'round', 'length', 'upper', 'lower', 'to_str', 'sqrt', 'ceil', 'floor', 'not', '-', 'coalesce', 'cast'];
const CAST_TYPES = ['int', 'long', 'double', 'float', 'string', 'varchar', 'symbol', 'timestamp', 'date', 'boolean', 'short', 'byte', 'char', 'uuid', 'ipv4'];
const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'first', 'last', 'count_distinct', 'stddev', 'var_samp', 'ksum', 'string_agg'];

function generateExpression(random: () => number, columns: readonly string[], depth: number): string {
  const roll = random();
  if (depth <= 0 || roll < 0.35) return random() < 0.6 && columns.length > 0 ? pick(random, columns) : pick(random, LITERALS);
  if (roll < 0.65) return `(${generateExpression(random, columns, depth - 1)} ${pick(random, BINARY_OPERATORS)} ${generateExpression(random, columns, depth - 1)})`;
  if (roll < 0.8) {
    const name = pick(random, UNARY_FUNCTIONS);
    const argument = generateExpression(random, columns, depth - 1);
    if (name === 'cast') return `cast(${argument} as ${pick(random, CAST_TYPES)})`;
    if (name === 'not' || name === '-') return `${name} ${argument}`;
    return `${name}(${argument})`;
  }
  if (roll < 0.9) return `case when ${generateExpression(random, columns, depth - 1)} then ${generateExpression(random, columns, depth - 1)} else ${generateExpression(random, columns, depth - 1)} end`;
  return `${generateExpression(random, columns, depth - 1)}::${pick(random, CAST_TYPES)}`;
}

/** A SELECT over a fixture table built from the grammar: projections, filter, grouping, ordering, limit. */
export function generateSelect(random: () => number, tables: readonly FuzzTable[]): string {
  const table = pick(random, tables);
  const columns = table.columns;
  const projections: string[] = [];
  const count = 1 + Math.floor(random() * 4);
  const aggregate = random() < 0.35;
  for (let k = 0; k < count; k++) {
    const expression = generateExpression(random, columns, 3);
    projections.push(aggregate && random() < 0.6 ? `${pick(random, AGGREGATES)}(${expression})` : expression);
  }
  let sql = `select ${random() < 0.1 ? 'distinct ' : ''}${projections.join(', ')} from ${table.name}`;
  if (random() < 0.5) sql += ` where ${generateExpression(random, columns, 3)}`;
  if (random() < 0.3) sql += ` order by ${Math.min(count, 1 + Math.floor(random() * count))}${random() < 0.5 ? ' desc' : ''}`;
  if (random() < 0.4) sql += ` limit ${pick(random, ['0', '1', '5', '-1', '-3', '2,4', '-5,-1', '100000000000', '3,1'])}`;
  return sql;
}
