// PostgreSQL tools' catalog queries, verbatim, over /exec against a real server with two tables: psql 15's \dt, \d,
// \d <table> and \l (in the forms psql sends to a version 12 and a version 15 server), porsager `postgres`'s
// array-type query at connect, and the Grafana QuestDB data source's schema queries. The PG wire server runs
// the same statements through the same engine, so what these return is what those tools read.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { PSQL_LIST_ROLES, PSQL_LIST_TABLES_VERBOSE, PSQL_QUERIES } from '../helpers/psql-queries.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
  await execOk(server.baseUrl, `create table trades (
    ts timestamp, sym symbol, price double, qty int, id long, ok boolean, u uuid, f float, s short, v varchar, c char
  ) timestamp(ts) partition by day wal`);
  await execOk(server.baseUrl, 'create table weather (ts timestamp, temp double)');
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

/** What psql prints as `\d trades`: name, format_type, NOT NULL (the designated timestamp only). */
const TRADES_COLUMNS = [
  ['ts', 'timestamp without time zone', true], ['sym', 'character varying', false], ['price', 'double precision', false],
  ['qty', 'integer', false], ['id', 'bigint', false], ['ok', 'boolean', false], ['u', 'uuid', false], ['f', 'real', false],
  ['s', 'smallint', false], ['v', 'character varying', false], ['c', 'character(1)', false],
];

for (const major of [12, 15] as const) {
  const psql = PSQL_QUERIES[major];

  test(`psql \\dt and \\d list the tables (server version ${major})`, async (t) => {
    const expected = [['public', 'trades', 'table', 'admin'], ['public', 'weather', 'table', 'admin']];
    const listed = await execOk(server.baseUrl, psql.listTables);
    t.deepEqual((listed['columns'] as { name: string }[]).map((column) => column.name), ['Schema', 'Name', 'Type', 'Owner']);
    t.deepEqual(listed['dataset'], expected);
    t.deepEqual(await rows(server.baseUrl, psql.listRelations), expected);
  });

  test(`psql \\d trades: every query psql sends succeeds and describes the columns (server version ${major})`, async (t) => {
    const found = await rows(server.baseUrl, psql.findTable('trades'));
    t.is(found.length, 1);
    const [oid, schema, name] = found[0] as [number, string, string];
    t.deepEqual([schema, name], ['public', 'trades']);
    const [tableInfo, attributes, ...footers] = psql.describeTable(oid);
    const info = await rows(server.baseUrl, tableInfo as string);
    t.is(info.length, 1);
    t.deepEqual((info[0] as unknown[]).slice(0, 2), [0, 'r'], 'relchecks 0, relkind r (an ordinary table)');
    const columns = await rows(server.baseUrl, attributes as string);
    t.deepEqual(columns.map(([column, type, defaultValue, notNull]) => [column, type, notNull, defaultValue]),
      TRADES_COLUMNS.map(([column, type, notNull]) => [column, type, notNull, null]));
    // Policies, statistics, publications, parents and partitions: svc has none, and psql needs each query to succeed.
    for (const footer of footers) {
      const response = await exec(server.baseUrl, footer);
      t.is(response.status, 200, `${footer}\n→ ${response.text}`);
      t.deepEqual((response.json as { dataset: unknown[] }).dataset, []);
    }
  });

  test(`psql \\d with a name no table has finds nothing (server version ${major})`, async (t) => {
    t.deepEqual(await rows(server.baseUrl, psql.findTable('nosuch')), []);
    t.deepEqual(await rows(server.baseUrl, psql.findTable('weather')).then((found) => found.map((row) => row[2])), ['weather']);
  });

  test(`psql \\l lists the one database (server version ${major})`, async (t) => {
    t.deepEqual(await rows(server.baseUrl, psql.listDatabases), [['qdb', 'admin', 'UTF8', 'C', 'C', null, 'libc', null]]);
  });
}

test('psql \\dt+ and \\du', async (t) => {
  // Sizes are not tracked per relation: psql prints an empty Size.
  t.deepEqual(await rows(server.baseUrl, PSQL_LIST_TABLES_VERBOSE), [
    ['public', 'trades', 'table', 'admin', 'permanent', 'heap', null, null],
    ['public', 'weather', 'table', 'admin', 'permanent', 'heap', null, null],
  ]);
  const roles = await rows(server.baseUrl, PSQL_LIST_ROLES);
  t.is(roles.length, 1);
  t.is((roles[0] as unknown[])[0], 'admin');
  t.is((roles[0] as unknown[])[8], '{}', 'member of no role');
});

test('porsager postgres reads every array type and its element at connect', async (t) => {
  const pairs = await rows(server.baseUrl, 'select b.oid, b.typarray from pg_catalog.pg_type a left join pg_catalog.pg_type b on b.oid = a.typelem where a.typcategory = \'A\' group by b.oid, b.typarray order by b.oid');
  const byOid = new Map(pairs.map(([oid, array]) => [oid, array]));
  for (const [oid, array] of [[16, 1000], [20, 1016], [21, 1005], [23, 1007], [25, 1009], [700, 1021], [701, 1022], [1043, 1015], [1114, 1115], [2950, 2951]]) {
    t.is(byOid.get(oid), array, `element type ${oid}`);
  }
  t.true(pairs.every(([oid]) => typeof oid === 'number'), 'every array type has its element type listed');
});

test('Grafana QuestDB data source schema queries', async (t) => {
  t.deepEqual(await rows(server.baseUrl, 'select table_name, partitionBy, designatedTimestamp, walEnabled, dedup from tables() order by table_name'), [
    ['trades', 'DAY', 'ts', true, false], ['weather', 'NONE', null, false, false],
  ]);
  t.deepEqual(await rows(server.baseUrl, 'select "column", type, designated from table_columns(\'weather\')'), [
    ['ts', 'TIMESTAMP', false], ['temp', 'DOUBLE', false],
  ]);
  const all = await rows(server.baseUrl, 'select table_name, ordinal_position, column_name, data_type from information_schema.columns');
  t.is(all.length, TRADES_COLUMNS.length + 2);
  t.deepEqual(all.slice(0, 3), [
    ['trades', 1, 'ts', 'timestamp without time zone'], ['trades', 2, 'sym', 'character varying'], ['trades', 3, 'price', 'double precision'],
  ]);
  t.deepEqual(await rows(server.baseUrl, 'select table_name, ordinal_position, column_name, data_type from information_schema.columns WHERE table_name IN (\'weather\')'), [
    ['weather', 1, 'ts', 'timestamp without time zone'], ['weather', 2, 'temp', 'double precision'],
  ]);
});

// Serial: ava runs serial tests before the concurrent ones, so the scratch table is gone before they list tables.
test.serial('the catalog follows DDL: a new column and a dropped table show at the next query', async (t) => {
  await execOk(server.baseUrl, 'create table scratch (a int)');
  await execOk(server.baseUrl, 'alter table scratch add column b varchar');
  t.deepEqual(await rows(server.baseUrl, 'select column_name, data_type, is_nullable from information_schema.columns where table_name = \'scratch\''), [
    ['a', 'integer', 'YES'], ['b', 'character varying', 'YES'],
  ]);
  await execOk(server.baseUrl, 'drop table scratch');
  t.deepEqual(await rows(server.baseUrl, 'select relname from pg_class where relname = \'scratch\''), []);
});
