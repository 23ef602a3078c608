// DDL: CREATE TABLE (columns, CREATE AS, LIKE, options), DROP, TRUNCATE, RENAME and ALTER TABLE actions.
import test from 'ava';
import type { ColumnDef, Statement } from '../../../../src/sql/syntax/ast.js';
import { parse, renderExpr } from './render.js';

function create(sql: string): Extract<Statement, { kind: 'createTable' }> {
  const statement = parse(sql);
  if (statement.kind !== 'createTable') throw new Error(`not CREATE TABLE: ${sql}`);
  return statement;
}

function renderColumn(def: ColumnDef): string {
  const options = [
    def.symbolCapacity === undefined ? '' : ` capacity ${def.symbolCapacity}`,
    def.cached === undefined ? '' : def.cached ? ' cache' : ' nocache',
    def.indexed === true ? ' index' : '',
    def.indexCapacity === undefined ? '' : ` ${def.indexCapacity}`,
  ];
  return `${def.name.name} ${def.typeName}${options.join('')}`;
}

const COLUMN_CASES: [string, string][] = [
  ['create table t (a INT, b string)', 'a INT, b STRING'],
  ['create table t (timestamp TIMESTAMP, symbol SYMBOL)', 'timestamp TIMESTAMP, symbol SYMBOL'],
  ['create table t (s SYMBOL CAPACITY 256 NOCACHE INDEX CAPACITY 1024, p DOUBLE)', 's SYMBOL capacity 256 nocache index 1024, p DOUBLE'],
  ['create table t (s symbol cache index)', 's SYMBOL cache index'],
  ['create table t (d double precision, g geohash(8c), n decimal(10, 2), v varchar(20), arr double[])',
    'd DOUBLE, g GEOHASH(8C), n DECIMAL(10,2), v VARCHAR, arr DOUBLE[]'],
  ['create table t (a int not null, b long null)', 'a INT, b LONG'],
  ['create table t ("select" int, "My Col" ipv4)', 'select INT, My Col IPV4'],
  ['create table t (ts timestamp_ns, s symbol), index(s capacity 512)', 'ts TIMESTAMP_NS, s SYMBOL index 512'],
];

for (const [sql, expected] of COLUMN_CASES) {
  test(`create columns: ${sql}`, (t) => t.is(create(sql).columns.map(renderColumn).join(', '), expected));
}

test('create table with every trailing clause', (t) => {
  const s = create('CREATE TABLE IF NOT EXISTS trades (ts TIMESTAMP, sym SYMBOL, price DOUBLE) TIMESTAMP(ts) '
    + 'PARTITION BY day WAL DEDUP UPSERT KEYS(ts, sym) WITH maxUncommittedRows=10000, o3MaxLag=1s TTL 2 DAYS');
  t.like(s, {
    ifNotExists: true, table: { name: 'trades', position: 27 }, timestamp: { name: 'ts' },
    partitionBy: { unit: 'DAY' }, wal: true, ttl: { value: 2, unit: 'DAY' },
  });
  t.deepEqual(s.dedupKeys?.map((k) => k.name), ['ts', 'sym']);
  t.deepEqual(s.settings.map((kv) => `${kv.key.name}=${renderExpr(kv.value)}`), ['maxUncommittedRows=10000', 'o3MaxLag=1s']);
});

const TAIL_CASES: [string, Record<string, unknown>][] = [
  ['create table t (ts timestamp) timestamp(ts) partition by hour bypass wal', { partitionBy: { unit: 'HOUR', position: 57 }, wal: false }],
  ['create table t (ts timestamp) timestamp(ts) partition by NONE', { partitionBy: { unit: 'NONE' } }],
  ['create table t (ts timestamp) timestamp(ts) partition by week ttl 12h', { partitionBy: { unit: 'WEEK' }, ttl: { value: 12, unit: 'HOUR' } }],
  ['create table t (ts timestamp) timestamp(ts) partition by month ttl 1 year wal', { ttl: { value: 1, unit: 'YEAR' }, wal: true }],
  ["create table t (ts timestamp) timestamp(ts) partition by day in volume 'v1' owned by admin", { partitionBy: { unit: 'DAY' } }],
  ["create table 'quoted' (a int)", { table: { name: 'quoted' } }],
];

for (const [sql, expected] of TAIL_CASES) {
  test(`create options: ${sql}`, (t) => t.like(create(sql), expected));
}

test('create table as select, with and without parentheses', (t) => {
  const withParens = create('create table t2 as (select * from t), cast(a as long), index(s capacity 128) timestamp(ts) partition by day');
  t.is(withParens.columns.length, 0);
  t.like(withParens, { asSelect: { kind: 'select' }, timestamp: { name: 'ts' }, partitionBy: { unit: 'DAY' } });
  t.deepEqual(withParens.casts, [{ column: { name: 'a', position: 43 }, typeName: 'LONG', typePosition: 48 }]);
  t.deepEqual(withParens.indexes, [{ column: { name: 's', position: 61 }, capacity: 128 }]);
  t.like(create('create table t2 as select a from t union select b from u'), { asSelect: { kind: 'setOperation' } });
});

test('create table like', (t) => {
  t.like(create('create table t2 (like t1)'), { like: { name: 't1', position: 22 }, columns: [] });
});

const OTHER_DDL: [string, Record<string, unknown>][] = [
  ['drop table t', { kind: 'dropTable', tables: [{ name: 't', position: 11 }], ifExists: false, all: false }],
  ['DROP TABLE IF EXISTS a, "b"', { kind: 'dropTable', tables: [{ name: 'a' }, { name: 'b' }], ifExists: true }],
  ['drop all tables', { kind: 'dropTable', tables: [], all: true }],
  ['drop all', { kind: 'dropTable', all: true }],
  ['truncate table t', { kind: 'truncateTable', tables: [{ name: 't' }], ifExists: false }],
  ['truncate table if exists t, u keep symbol maps', { kind: 'truncateTable', tables: [{ name: 't' }, { name: 'u' }], ifExists: true }],
  ["rename table a to 'b'", { kind: 'renameTable', from: { name: 'a', position: 13 }, to: { name: 'b', position: 18 } }],
];

for (const [sql, expected] of OTHER_DDL) {
  test(`ddl: ${sql}`, (t) => t.like(parse(sql), expected));
}

const ALTER_CASES: [string, Record<string, unknown>][] = [
  ['alter table t add column c int', { table: { name: 't' }, action: { kind: 'addColumn', ifNotExists: false, columns: [{ name: { name: 'c' }, typeName: 'INT' }] } }],
  ['alter table t add column if not exists c int, d symbol capacity 64', { action: { kind: 'addColumn', ifNotExists: true, columns: [{ typeName: 'INT' }, { typeName: 'SYMBOL', symbolCapacity: 64 }] } }],
  ['alter table t add c double', { action: { kind: 'addColumn', columns: [{ name: { name: 'c', position: 18 } }] } }],
  ['alter table t drop column a, b', { action: { kind: 'dropColumn', position: 14, columns: [{ name: 'a' }, { name: 'b' }] } }],
  ["alter table t drop partition list '2024-01-01', '2024-01-02'", { action: { kind: 'dropPartition', list: [{ value: '2024-01-01' }, { value: '2024-01-02' }] } }],
  ["alter table t drop partition where ts < '2024'", { action: { kind: 'dropPartition', where: { kind: 'binary', op: '<' } } }],
  ['alter table t rename column a to b', { action: { kind: 'renameColumn', from: { name: 'a' }, to: { name: 'b' } } }],
  ['alter table t alter column a type varchar', { action: { kind: 'alterColumnType', column: { name: 'a' }, typeName: 'VARCHAR', typePosition: 34 } }],
  ['alter table t set param maxUncommittedRows = 100, o3MaxLag = 10s', { action: { kind: 'setParam', settings: [{ key: { name: 'maxUncommittedRows' } }, { value: { value: '10s' } }] } }],
  ['alter table t dedup enable upsert keys(ts, s)', { action: { kind: 'dedup', enable: true, keys: [{ name: 'ts' }, { name: 's' }] } }],
  ['alter table t dedup disable', { action: { kind: 'dedup', enable: false, keys: [] } }],
  ['alter table t alter column s add index capacity 256', { action: { kind: 'other', position: 14, text: 'alter column s add index capacity 256' } }],
  ['alter table t alter column s symbol capacity 1024;', { action: { kind: 'other', text: 'alter column s symbol capacity 1024' } }],
  ['alter table t set ttl 2 weeks', { action: { kind: 'other', text: 'set ttl 2 weeks' } }],
  ['alter table t set type bypass wal', { action: { kind: 'other', text: 'set type bypass wal' } }],
  ["alter table t detach partition list '2024-01'", { action: { kind: 'other', text: "detach partition list '2024-01'" } }],
  ['alter table t squash partitions', { action: { kind: 'other', text: 'squash partitions' } }],
  ['alter table t resume wal from txn 10', { action: { kind: 'other', text: 'resume wal from txn 10' } }],
];

for (const [sql, expected] of ALTER_CASES) {
  test(`alter: ${sql}`, (t) => t.like(parse(sql), { kind: 'alterTable', ...expected }));
}
