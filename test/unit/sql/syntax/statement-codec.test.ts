// Write statements cross from a worker to the primary as encoded trees inside JSON IPC messages: every
// statement decodes, after the channel's JSON, to the tree the parser made, including what plain JSON would
// change (LONG bigints, NaN, infinities, -0); a tree with none of those goes untagged, as it is.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { decodeStatement, encodeStatement, type EncodedStatement } from '../../../../src/sql/syntax/statement-codec.js';
import { fillParameters } from '../../../../src/sql/bind/bind-parameters.js';
import type { Statement } from '../../../../src/sql/syntax/ast.js';

/** What the primary receives: the encoded statement after the IPC channel's JSON serialization. */
function overChannel(encoded: EncodedStatement): EncodedStatement {
  const received: unknown = JSON.parse(JSON.stringify(encoded));
  if (typeof received !== 'object' || received === null) throw new Error('the channel carries an object');
  return { tree: Reflect.get(received, 'tree'), tagged: Reflect.get(received, 'tagged') === true };
}

const roundTrip = (statement: Statement): Statement => decodeStatement(overChannel(encodeStatement(statement)));

const STATEMENTS = [
  "insert into t values (9223372036854775807, -9007199254740993, NaN, 'x', '2024-01-01T00:00:00.000001Z')",
  'insert into t select x, -0.0, 1e308 * 10, 1.25m, -0.001m from long_sequence(3)',
  "create table t (a long, b double, s symbol capacity 256 index, ts timestamp) timestamp(ts) partition by day wal dedup upsert keys(ts, s)",
  "alter table t add column c varchar, d geohash(4c)",
  "update t set a = a + 1 where ts in '2024-01-01' and s = 'x'",
  "alter table t convert partition to remote where ts < '2024-01-02'",
  "alter service account a create token type rest with ttl '30d'",
  'snapshot prepare',
  'drop table if exists t, u',
];

for (const sql of STATEMENTS) {
  test(`round trip: ${sql.slice(0, 60)}`, (t) => {
    const parsed = parseStatement(sql);
    t.deepEqual(roundTrip(parsed), parsed);
  });
}

test('numbers JSON cannot carry keep their value', (t) => {
  const parsed = parseStatement('insert into t values (NaN, 9223372036854775807, -0.0)');
  const encoded = encodeStatement(parsed);
  t.true(encoded.tagged);
  const text = JSON.stringify(encoded);
  t.regex(text, /"\$number":"NaN"/);
  t.regex(text, /"\$bigint":"9223372036854775807"/);
  const decoded = decodeStatement(overChannel(encoded));
  t.deepEqual(decoded, parsed);
  t.false(text.includes('null,'), 'NaN did not become null');
  t.false(JSON.stringify(parsed, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)).includes('$'), 'tagging copied the tree: the parsed statement is unchanged');
});

test('a statement of plain JSON values goes as it is, untagged', (t) => {
  const parsed = parseStatement("insert into t values (now(), 'c1', 42, 1.5)");
  const encoded = encodeStatement(parsed);
  t.false(encoded.tagged);
  t.is(encoded.tree, parsed, 'no copy is made');
  t.deepEqual(roundTrip(parsed), parsed);
});

test('a text that looks like a tag stays a text', (t) => {
  const parsed = parseStatement(`insert into t values ('{"$bigint":"1"}', 9223372036854775807)`);
  t.deepEqual(roundTrip(parsed), parsed);
});

test('filled parameters travel as values', (t) => {
  const parsed = fillParameters(parseStatement('insert into t values ($1, $2)'), [{ type: 'LONG', text: '9007199254740993' }, { type: 'VARCHAR', text: null }]);
  t.deepEqual(roundTrip(parsed), parsed);
});
