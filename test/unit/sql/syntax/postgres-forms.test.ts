// The PostgreSQL spellings tools send that the parser accepts: schema-qualified functions, types and table
// functions, OPERATOR(schema.op), ~* and !~*, COLLATE, E'' escape strings, niladic current_user, FROM column
// alias lists and SHOW <parameter>.
import test from 'ava';
import { expr } from './render.js';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { tokenize } from '../../../../src/sql/syntax/lexer.js';

const FORMS: [string, string][] = [
  ['pg_catalog.pg_table_is_visible(c.oid)', 'pg_table_is_visible(c.oid)'],
  ['x::pg_catalog.regclass::pg_catalog.text', '(:: (:: x REGCLASS) TEXT)'],
  ['cast(x as pg_catalog.int4)', '(cast x INT4)'],
  ["c.relname OPERATOR(pg_catalog.~) '^(t)$'", "(~ c.relname '^(t)$')"],
  ["a OPERATOR(=) b and c", '(and (= a b) c)'],
  ["s ~* 'a' or s !~* 'b'", "(or (~* s 'a') (!~* s 'b'))"],
  ["c.relname ~ 'x' COLLATE pg_catalog.default", "(~ c.relname 'x')"],
  ['a COLLATE "C" = b', '(= a b)'],
  ['current_user', 'current_user()'],
  ['session_user || current_catalog', '(|| session_user() current_catalog())'],
  ['current_schema()', 'current_schema()'],
];

for (const [text, expected] of FORMS) {
  test(`PostgreSQL form: ${text}`, (t) => t.is(expr(text), expected));
}

test("E'' strings take backslash escapes and doubled quotes; other strings keep backslashes", (t) => {
  const values = tokenize("E'a\\nb\\tc' e'it''s \\' ok' 'a\\nb'").filter((token) => token.kind === 'string').map((token) => token.value);
  t.deepEqual(values, ['a\nb\tc', "it's ' ok", 'a\\nb']);
  t.throws(() => tokenize("E'open"), { message: 'unclosed quoted string?' });
});

test('!~* and ~* are single operator tokens', (t) => {
  t.deepEqual(tokenize('a!~*b~*c').map((token) => token.text), ['a', '!~*', 'b', '~*', 'c', '']);
});

test('a schema-qualified table function and a column alias list parse', (t) => {
  const statement = parseStatement('select * from pg_catalog.unnest(k) s(n), pg_catalog.generate_series(1, 2) g');
  t.is(statement.kind, 'query');
  const from = statement.kind === 'query' && statement.query.kind === 'select' ? statement.query.from : undefined;
  t.is(from?.kind, 'join');
  if (from?.kind !== 'join') return;
  t.like(from.left, { kind: 'functionSource', call: { name: 'unnest' }, alias: { name: 's' }, columnAliases: [{ name: 'n' }] });
  t.like(from.right, { kind: 'functionSource', call: { name: 'generate_series' }, alias: { name: 'g' } });
});

test('SHOW <name> is a session parameter; SHOW TRANSACTION ISOLATION LEVEL is transaction_isolation', (t) => {
  t.like(parseStatement('show DateStyle'), { kind: 'show', what: 'setting', setting: { name: 'DateStyle', position: 5 } });
  t.like(parseStatement('SHOW transaction isolation level'), { kind: 'show', what: 'setting', setting: { name: 'transaction_isolation' } });
  t.like(parseStatement('show all'), { kind: 'show', what: 'all' });
  t.like(parseStatement('reset all'), { kind: 'noop', keyword: 'RESET' });
});
