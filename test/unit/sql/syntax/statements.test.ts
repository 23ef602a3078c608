// INSERT, UPDATE, SHOW, EXPLAIN and the no-op statements (SET, BEGIN, CHECKPOINT ...).
import test from 'ava';
import { parse, renderExpr, renderSource } from './render.js';

const INSERTS: [string, Record<string, unknown>][] = [
  ["insert into t values (1, 'a')", { kind: 'insert', table: { name: 't', position: 12 }, rows: [[{ value: 1 }, { value: 'a' }]] }],
  ['insert into t (a, "B") values (1, 2), (3, 4)', { columns: [{ name: 'a', position: 15 }, { name: 'B' }], rows: [[{ value: 1 }, { value: 2 }], [{ value: 3 }, { value: 4 }]] }],
  ['insert into t select * from u', { query: { kind: 'select', from: { name: 'u' } } }],
  ['insert into t (select * from u)', { query: { kind: 'select' } }],
  ['insert into t (a, b) select x, y from u', { columns: [{ name: 'a' }, { name: 'b' }], query: { kind: 'select' } }],
  ['insert into t with w as (select 1 a) select * from w', { query: { with: [{ name: { name: 'w' } }] } }],
  ['insert atomic into t values (1)', { rows: [[{ value: 1 }]] }],
  ['insert batch 100 into t select * from u', { batchSize: 100 }],
  ["insert batch 10 o3MaxLag 1s into t select * from u", { batchSize: 10 }],
  ["INSERT INTO 'quoted' VALUES (now(), -1.5, null)", { table: { name: 'quoted' }, rows: [[{ kind: 'call' }, { kind: 'unary' }, { literalType: 'NULL' }]] }],
];

for (const [sql, expected] of INSERTS) {
  test(`insert: ${sql}`, (t) => t.like(parse(sql), expected));
}

test('insert without a column list has no columns field', (t) => {
  const s = parse('insert into t values (1)');
  t.true(s.kind === 'insert' && s.columns === undefined && s.query === undefined);
});

const UPDATES: [string, string][] = [
  ['update t set a = 1', 't | a=1 | - | -'],
  ['update t set a = a + 1, b = \'x\' where c > 0', "t | a=(+ a 1),b='x' | - | (> c 0)"],
  ['update t as x set a = 1', 't x | a=1 | - | -'],
  ['update t x set a = y.b from y where x.id = y.id', 't x | a=y.b | y | (= x.id y.id)'],
  ['update t set a = u.b from (select * from v) u', 't | a=u.b | (query) u | -'],
];

for (const [sql, expected] of UPDATES) {
  test(`update: ${sql}`, (t) => {
    const s = parse(sql);
    if (s.kind !== 'update') return t.fail();
    const table = `${s.table.name}${s.alias === undefined ? '' : ` ${s.alias.name}`}`;
    const sets = s.assignments.map((a) => `${a.column.name}=${renderExpr(a.value)}`).join(',');
    const from = s.from === undefined ? '-' : renderSource(s.from);
    const where = s.where === undefined ? '-' : renderExpr(s.where);
    t.is(`${table} | ${sets} | ${from} | ${where}`, expected);
  });
}

test('update positions: column tokens after SET', (t) => {
  t.like(parse('UPDATE up SET ts = 1'), { position: 0, table: { position: 7 }, assignments: [{ column: { name: 'ts', position: 14 } }] });
});

const SHOWS: [string, Record<string, unknown>][] = [
  ['show tables', { what: 'tables' }],
  ['SHOW COLUMNS FROM trades', { what: 'columns', table: { name: 'trades', position: 18 } }],
  ['show partitions from "t"', { what: 'partitions', table: { name: 't' } }],
  ['show create table t', { what: 'createTable', table: { name: 't' } }],
  ['show parameters', { what: 'parameters' }],
  ['show server_version', { what: 'serverVersion' }],
  ['show time zone', { what: 'timeZone' }],
];

for (const [sql, expected] of SHOWS) {
  test(`show: ${sql}`, (t) => t.like(parse(sql), { kind: 'show', position: 0, ...expected }));
}

const EXPLAINS: [string, Record<string, unknown>][] = [
  ['explain select * from t', { statement: { kind: 'query', position: 8 } }],
  ['explain (format json) select 1', { format: 'json', statement: { kind: 'query' } }],
  ['explain (verbose) select 1', { verbose: true, statement: { kind: 'query' } }],
  ['EXPLAIN insert into t values (1)', { statement: { kind: 'insert' } }],
  ['explain trades where x > 1', { statement: { kind: 'query' } }],
  ['explain create table t (a int)', { statement: { kind: 'createTable' } }],
];

for (const [sql, expected] of EXPLAINS) {
  test(`explain: ${sql}`, (t) => t.like(parse(sql), { kind: 'explain', position: 0, ...expected }));
}

const NO_OPS: [string, string][] = [
  ["set time zone 'UTC'", 'SET'],
  ['SET x = 1', 'SET'],
  ['begin', 'BEGIN'],
  ['begin transaction', 'BEGIN'],
  ['commit;', 'COMMIT'],
  ['rollback', 'ROLLBACK'],
  ['vacuum table t', 'VACUUM TABLE'],
  ['reindex table t column s lock exclusive', 'REINDEX TABLE'],
  ['checkpoint create', 'CHECKPOINT CREATE'],
  ['CHECKPOINT RELEASE', 'CHECKPOINT RELEASE'],
  ['snapshot prepare', 'SNAPSHOT PREPARE'],
  ['snapshot complete', 'SNAPSHOT COMPLETE'],
  ['cancel query 42', 'CANCEL QUERY'],
];

for (const [sql, keyword] of NO_OPS) {
  test(`no-op: ${sql}`, (t) => t.like(parse(sql), { kind: 'noop', position: 0, keyword }));
}

test('statement positions are the first token, after leading comments', (t) => {
  t.like(parse('  -- note\n  select 1'), { kind: 'query', position: 12, query: { position: 12 } });
});

test('WITH ... INSERT moves the CTEs onto the inserted query', (t) => {
  t.like(parse('with w as (select 1 a) insert into t select * from w'), {
    kind: 'insert', position: 0, table: { name: 't' }, query: { kind: 'select', with: [{ name: { name: 'w' } }] },
  });
});

test('WITH ... SELECT stays a query', (t) => {
  t.like(parse('with w as (select 1 a) select * from w'), { kind: 'query', query: { with: [{ name: { name: 'w' } }] } });
});
