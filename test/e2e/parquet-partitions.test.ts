// Parquet partitions end to end over HTTP: a table spanning many days is converted partition by partition to
// Parquet and back, and a fixed query set (counts, sums, GROUP BY, SAMPLE BY, LATEST ON, filters, intervals,
// ASOF JOIN, ORDER BY LIMIT) answers the same rows at every step. DuckDB reads the partition files as an
// independent reader; out-of-order rows and UPDATE into a Parquet partition rewrite it; error texts follow QuestDB.
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';

const DAYS = 8;
const ROWS_PER_DAY = 12_000;

/** Every query of this set must answer identically whatever format each partition is in. */
const QUERIES = [
  'select count() from t',
  'select sum(qty), sum(price), min(price), max(price), avg(i) from t',
  'select sym, count(), sum(qty), round(avg(price), 9) from t order by sym',
  'select ts, count(), sum(qty), first(price), last(price) from t sample by 6h',
  'select sym, price, qty, note, flag, ts from t latest on ts partition by sym order by sym',
  "select count(), sum(qty) from t where sym = 'b' and price > 50",
  "select count(), sum(price) from t where ts in '2024-01-03'",
  "select * from t where ts between '2024-01-02T23:59:00' and '2024-01-03T00:01:00'",
  "select count(), max(ts) from t where ts > '2024-01-04T12:00:00' and ts < '2024-01-06T06:00:00' and qty % 7 = 0",
  "select count() from t where note is null",
  'select count(nl), sum(nl), count(nd), round(sum(nd), 6) from t',
  "select nl, nd, i from t where ts in '2024-01-03T07' and (nl is null or nd is null)",
  "select note, count() from t where note like 'n1%' order by note limit 5",
  'select ts, sym, price from t order by price desc, ts limit 7',
  // i grows with the rows, so its row-group statistics skip most row groups of Parquet partitions.
  'select count(), sum(qty), min(ts), max(ts) from t where i >= 30000 and i <= 30100',
  'select sym, price, ts from t where i = 54321',
  'select count() from t where 70000 < i and qty > 990',
  'select count() from t where i < 0',
  'select * from t limit -3',
  'select t.ts, t.sym, t.price, q.bid from t asof join q on (sym) where t.qty = 17 order by t.ts limit 20',
  'select count(), sum(q.bid) from t asof join q on (sym)',
];

async function answers(server: TestServer): Promise<unknown[][][]> {
  const all: unknown[][][] = [];
  for (const query of QUERIES) all.push(await rows(server.baseUrl, query));
  return all;
}

function assertSameAnswers(t: import('ava').ExecutionContext, actual: unknown[][][], expected: unknown[][][], label: string): void {
  QUERIES.forEach((query, k) => t.deepEqual(actual[k], expected[k], `${label}: ${query}`));
}

async function partitionFormats(server: TestServer, table = 't'): Promise<[string, boolean, number][]> {
  return (await rows(server.baseUrl, `select name, isParquet, parquetFileSize from table_partitions('${table}')`)) as [string, boolean, number][];
}

async function createTables(server: TestServer): Promise<void> {
  const total = DAYS * ROWS_PER_DAY;
  const stepMicros = Math.floor((86_400_000_000 * DAYS) / total);
  await execOk(server.baseUrl, `create table t as (select rnd_symbol('a','b','c','d') sym, rnd_double() * 100 price, x % 1000 qty, `
    + `cast(x as int) i, rnd_str('n1','n2','n10',null) note, rnd_boolean() flag, case when x % 11 = 0 then null else x end nl, `
    + `case when x % 13 = 0 then null else rnd_double() end nd, timestamp_sequence('2024-01-01', ${stepMicros}L) ts `
    + `from long_sequence(${total})) timestamp(ts) partition by day`);
  await execOk(server.baseUrl, `create table q as (select rnd_symbol('a','b','c','d') sym, rnd_double() bid, timestamp_sequence('2024-01-01', 3600000000L) ts `
    + `from long_sequence(${24 * DAYS})) timestamp(ts) partition by day`);
}

test('queries answer the same before, during and after converting partitions to Parquet and back', async (t) => {
  const server = await startServer({ workers: 2, env: { SVC_CAIRO_PARTITION_ENCODER_PARQUET_ROW_GROUP_SIZE: '5000' } });
  const duck = await ParquetReader.open();
  try {
    await createTables(server);
    const native = await answers(server);
    const names = (await partitionFormats(server)).map(([name]) => name);
    t.is(names.length, DAYS);
    // Partition by partition, with the query set after each step.
    for (const name of names.slice(0, -1)) {
      await execOk(server.baseUrl, `alter table t convert partition to parquet list '${name}'`);
      assertSameAnswers(t, await answers(server), native, `after converting ${name}`);
    }
    const formats = await partitionFormats(server);
    t.deepEqual(formats.map(([, parquet]) => parquet), [...new Array<boolean>(DAYS - 1).fill(true), false], 'every partition but the active one is Parquet');
    t.true(formats.slice(0, -1).every(([, , size]) => size > 0), 'Parquet partitions report their file size');
    t.is(formats[DAYS - 1]?.[2], -1, 'a native partition reports -1 as its Parquet size');

    // DuckDB reads a partition file and finds the same rows.
    const dir = join(server.rootDir, 'db', readdirSync(join(server.rootDir, 'db')).find((entry) => entry.startsWith('t~')) ?? 't');
    const day = names[2] as string;
    const file = join(dir, readdirSync(dir).find((entry) => entry.startsWith(`${day}.`)) ?? day, 'data.parquet');
    t.true(existsSync(file), `the partition file exists: ${file}`);
    const [svcDay] = await rows(server.baseUrl, `select count(), sum(qty), round(sum(price), 6), min(ts), max(ts) from t where ts in '${day}'`);
    const [duckDay] = await duck.rows(`select count(*) c, sum(qty) q, round(sum(price), 6) p, strftime(min(ts), '%Y-%m-%dT%H:%M:%S.%fZ') lo, strftime(max(ts), '%Y-%m-%dT%H:%M:%S.%fZ') hi from read_parquet('${file}')`);
    t.deepEqual([Number(duckDay?.['c']), Number(duckDay?.['q']), Number(duckDay?.['p']), duckDay?.['lo'], duckDay?.['hi']], svcDay, 'DuckDB reads the partition file');
    const groups = await duck.rows(`select count(distinct row_group_id) g from parquet_metadata('${file}')`);
    t.is(Number(groups[0]?.['g']), Math.ceil(ROWS_PER_DAY / 5000), 'row groups follow cairo.partition.encoder.parquet.row.group.size');
    const unstated = await duck.rows(`select distinct path_in_schema p from parquet_metadata('${file}') where stats_min_value is null or stats_max_value is null order by p`);
    t.deepEqual(unstated.map((row) => row['p']), [], 'every column chunk has min/max statistics');

    // Back to native with WHERE: the active partition is skipped, never an error.
    await execOk(server.baseUrl, "alter table t convert partition to native where ts >= '2024-01-01'");
    t.true((await partitionFormats(server)).every(([, parquet]) => !parquet), 'every partition is native again');
    assertSameAnswers(t, await answers(server), native, 'after converting back to native');
    // And all at once to Parquet again.
    await execOk(server.baseUrl, "alter table t convert partitions to parquet where ts < '2030-01-01'");
    assertSameAnswers(t, await answers(server), native, 'after converting everything with WHERE');
  } finally {
    duck.close();
    await server.stop();
    server.cleanup();
  }
});

test('out-of-order rows and UPDATE rewrite a Parquet partition as native; errors follow QuestDB', async (t) => {
  const server = await startServer({ workers: 1 });
  try {
    await createTables(server);
    await execOk(server.baseUrl, "alter table t convert partition to parquet where ts < '2024-01-05'");
    const before = await rows(server.baseUrl, "select count(), sum(qty) from t where ts in '2024-01-02'");
    await execOk(server.baseUrl, "insert into t (sym, price, qty, i, note, flag, ts) values ('z', 1.5, 100000, 7, 'o3', true, '2024-01-02T06:00:00.000001Z')");
    t.deepEqual(await rows(server.baseUrl, "select count(), sum(qty) from t where ts in '2024-01-02'"), [[(before[0]?.[0] as number) + 1, (before[0]?.[1] as number) + 100000]]);
    t.deepEqual(await rows(server.baseUrl, "select sym, note, ts from t where sym = 'z'"), [['z', 'o3', '2024-01-02T06:00:00.000001Z']]);
    const updated = await execOk(server.baseUrl, "update t set qty = -1 where ts in '2024-01-03T05'");
    t.true((updated['updated'] as number) > 0);
    t.deepEqual(await rows(server.baseUrl, "select count() from t where ts in '2024-01-03T05' and qty <> -1"), [[0]]);
    const formats = new Map((await partitionFormats(server)).map(([name, parquet]) => [name, parquet]));
    t.is(formats.get('2024-01-02'), false, 'the O3 write left the partition native');
    t.is(formats.get('2024-01-03'), false, 'the UPDATE left the partition native');
    t.is(formats.get('2024-01-01'), true, 'untouched partitions stay Parquet');
    const shown = await exec(server.baseUrl, 'show partitions from t');
    const shownColumns = (shown.json as { columns: { name: string }[] }).columns.map((column) => column.name);
    t.deepEqual(shownColumns.slice(-3), ['isParquet', 'parquetFileSize', 'isRemotelyServed'], 'SHOW PARTITIONS ends with QuestDB\'s Parquet columns and the cold-storage flag');
    t.deepEqual((await rows(server.baseUrl, 'show partitions from t'))[0]?.slice(-3)[0], true);

    const missing = await exec(server.baseUrl, "alter table t convert partition to parquet list '2025-06-01'");
    t.is(missing.status, 400);
    t.is((missing.json as { error: string }).error, 'cannot convert partition to parquet, partition does not exist');
    const syntax = await exec(server.baseUrl, 'alter table t convert partition to csv list 1');
    t.is((syntax.json as { error: string }).error, "'parquet' or 'native' expected");
    const active = await exec(server.baseUrl, `alter table t convert partition to parquet list '2024-01-0${DAYS}'`);
    t.is(active.status, 200, 'naming the active partition is not an error (QuestDB skips it)');
    t.false((await partitionFormats(server)).at(-1)?.[1], 'the active partition stays native');
    const typeChange = await exec(server.baseUrl, 'alter table t alter column qty type double');
    t.regex((typeChange.json as { error: string }).error, /convert them to native first/);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
