// Write statements cross from a worker to the primary as encoded trees: every statement decodes to the tree
// the parser made, including what plain JSON would change (LONG bigints, NaN, infinities, -0).
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { decodeStatement, encodeStatement } from '../../../../src/sql/syntax/statement-codec.js';
import { fillParameters } from '../../../../src/sql/bind/bind-parameters.js';

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
    t.deepEqual(decodeStatement(encodeStatement(parsed)), parsed);
  });
}

test('numbers JSON cannot carry keep their value', (t) => {
  const parsed = parseStatement('insert into t values (NaN, 9223372036854775807)');
  const text = encodeStatement(parsed);
  t.regex(text, /"\$number":"NaN"/);
  t.regex(text, /"\$bigint":"9223372036854775807"/);
  const decoded = decodeStatement(text);
  t.deepEqual(decoded, parsed);
  t.false(text.includes('null,'), 'NaN did not become null');
});

test('filled parameters travel as values', (t) => {
  const parsed = fillParameters(parseStatement('insert into t values ($1, $2)'), [{ type: 'LONG', text: '9007199254740993' }, { type: 'VARCHAR', text: null }]);
  t.deepEqual(decodeStatement(encodeStatement(parsed)), parsed);
});
