// INSERT ... VALUES texts of one shape are answered from a parsed template: every answer equals what the parser
// makes of the text itself (literals, their types and every position), errors included, and shapes a template
// could get wrong (a string as a table name, INSERT BATCH n, a literal of another type) take the full parse.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { insertTemplateStats, parseStatementReusing } from '../../../../src/sql/syntax/insert-templates.js';

/** Parses `first` (making the template), then `later`; says whether `later` came from the template. */
function reusedFor(first: string, later: string): { reused: boolean; statement: ReturnType<typeof parseStatement> } {
  parseStatementReusing(first);
  const before = insertTemplateStats().reused;
  const statement = parseStatementReusing(later);
  return { reused: insertTemplateStats().reused === before + 1, statement };
}

const SAME_SHAPE: readonly (readonly [string, string])[] = [
  ["insert into a1 values(now(), 'c1', 1)", "insert into a1 values(now(), 'client-12', 123456)"],
  ["insert into a2 values ('it''s', 'x')", "insert into a2 values ('a', 'don''t stop')"],
  ['insert into a3 values (1)', 'insert  into /* spaced */ a3 values(  22 )'],
  ["insert into a4 (ts, s, d) values ('2024-01-01', 'a', 1.5), ('2024-01-02', 'bb', -2.25)", "insert into a4 (ts, s, d) values ('2025-12-31T23:59:59.999999Z', '', 10.0), ('2024-01-02', 'b', -0.5)"],
  ["insert into a5 values (timestamp '2024-01-01', cast('1' as int), null, true, nan)", "insert into a5 values (timestamp '2024-01-01T10:11:12Z', cast('12345' as int), null, true, nan)"],
  ['insert into a6 values (9223372036854775807, #sp052, 1.5m, 0x01)', 'insert into a6 values (9223372036854775806, #u33d, 22.75m, 0x0123456789abcdef)'],
  ["insert into a7 values (1 + 2 * 3, concat('a', 'b'), E'x\\ny')", "insert into a7 values (10 + 20 * 30, concat('aa', 'bbb'), E'\\tz')"],
];

for (const [first, later] of SAME_SHAPE) {
  test(`same shape: ${later}`, (t) => {
    const { reused, statement } = reusedFor(first, later);
    t.true(reused);
    t.deepEqual(statement, parseStatement(later));
  });
}

test('the first text of a shape gets what the parser makes of it', (t) => {
  const text = "insert into b1 values (now(), 'x', 42)";
  t.deepEqual(parseStatementReusing(text), parseStatement(text));
});

test('a literal of another type than the template\'s takes the full parse', (t) => {
  const { reused, statement } = reusedFor('insert into b2 values (1)', 'insert into b2 values (1.5)');
  t.false(reused);
  t.deepEqual(statement, parseStatement('insert into b2 values (1.5)'));
  // An INT template does not serve a LONG either.
  const long = reusedFor('insert into b3 values (7)', 'insert into b3 values (12345678901)');
  t.false(long.reused);
  t.deepEqual(long.statement, parseStatement('insert into b3 values (12345678901)'));
});

test('shapes whose number or string tokens are not all VALUES literals are never templates', (t) => {
  const quotedName = reusedFor("insert into 'b4' values (1)", "insert into 'b5' values (2)");
  t.false(quotedName.reused);
  t.deepEqual(quotedName.statement, parseStatement("insert into 'b5' values (2)"));
  const batch = reusedFor('insert batch 100 into b6 values (1)', 'insert batch 5 into b6 values (2)');
  t.false(batch.reused);
  t.deepEqual(batch.statement, parseStatement('insert batch 5 into b6 values (2)'));
});

test('errors of a known shape are the parser\'s, at the same positions', (t) => {
  parseStatementReusing("insert into b7 values (#sp052, 'x')");
  const bad = "insert into b7 values (#sp05a, 'xyz')";
  const expected = t.throws(() => parseStatement(bad));
  const actual = t.throws(() => parseStatementReusing(bad));
  t.is(actual?.message, expected?.message);
  t.is(Reflect.get(actual ?? {}, 'position'), Reflect.get(expected ?? {}, 'position'));
  const unfinished = "insert into b7 values (#sp052, 'x'";
  t.is(t.throws(() => parseStatementReusing(unfinished))?.message, t.throws(() => parseStatement(unfinished))?.message);
});

test('statements other than INSERT are parsed as before', (t) => {
  for (const text of ['select 1', "  INSERT into b8 select * from t where s = 'a'", 'update t set a = 1']) t.deepEqual(parseStatementReusing(text), parseStatement(text));
});

test('a caller changing its tree does not change the next answer', (t) => {
  const first = parseStatementReusing('insert into b9 values (1)');
  Reflect.set(first, 'position', 99);
  t.deepEqual(parseStatementReusing('insert into b9 values (2)'), parseStatement('insert into b9 values (2)'));
});
