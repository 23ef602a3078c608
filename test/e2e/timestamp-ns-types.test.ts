// TIMESTAMP_NS over the real interfaces: /exec JSON and /exp CSV with nine fraction digits, /exp Parquet as
// TIMESTAMP(NANOS) read back by DuckDB, Parquet partitions (CONVERT PARTITION round trip), /imp with a schema
// part, and ILP from QuestDB's official client into a TIMESTAMP_NS table (fields and the designated timestamp
// kept to the nanosecond), and PG wire text at µs precision. Values are a few ns apart at today's dates, where a double cannot tell them apart.
import test from 'ava';
import { Sender } from '@questdb/nodejs-client';
import pg from 'pg';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows, sqlUrl } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';
import { importCsv, type UploadPart } from '../helpers/upload.js';
import { postIlp } from '../helpers/ilp-http.js';

let server: TestServer;

const NS_VALUES = ['2024-01-01T23:59:59.999999997Z', '2024-01-01T23:59:59.999999998Z', '2024-01-01T23:59:59.999999999Z', '2024-01-02T00:00:00.000000001Z'];
const NS_EPOCHS = ['1704153599999999997', '1704153599999999998', '1704153599999999999', '1704153600000000001'];

test.before(async () => {
  server = await startServer({ workers: 1 });
  await execOk(server.baseUrl, 'create table tns (ts timestamp_ns, p timestamp_ns, v long) timestamp(ts) partition by day');
  await execOk(server.baseUrl, `insert into tns values ('${NS_VALUES[2]}', '${NS_VALUES[0]}', 1), ('${NS_VALUES[3]}', null, 2), ('${NS_VALUES[0]}', '${NS_VALUES[3]}', 3), ('${NS_VALUES[1]}', '${NS_VALUES[1]}', 4)`);
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

test('/exec reports TIMESTAMP_NS and prints nine fraction digits, in order, nulls as null', async (t) => {
  const raw = await (await fetch(sqlUrl(server.baseUrl, '/exec', 'select ts, p, v from tns'))).text();
  t.true(raw.includes('"columns":[{"name":"ts","type":"TIMESTAMP_NS"},{"name":"p","type":"TIMESTAMP_NS"},{"name":"v","type":"LONG"}],"timestamp":0'), raw);
  t.true(raw.includes(`"dataset":[["${NS_VALUES[0]}","${NS_VALUES[3]}",3],["${NS_VALUES[1]}","${NS_VALUES[1]}",4],["${NS_VALUES[2]}","${NS_VALUES[0]}",1],["${NS_VALUES[3]}",null,2]]`), raw);
});

test('/exp CSV quotes the ns text as QuestDB does for timestamps; null is empty', async (t) => {
  const text = await (await fetch(sqlUrl(server.baseUrl, '/exp', 'select ts, p from tns'))).text();
  t.is(text, `"ts","p"\r\n"${NS_VALUES[0]}","${NS_VALUES[3]}"\r\n"${NS_VALUES[1]}","${NS_VALUES[1]}"\r\n"${NS_VALUES[2]}","${NS_VALUES[0]}"\r\n"${NS_VALUES[3]}",\r\n`);
});

test('/exp Parquet writes TIMESTAMP(NANOS) that DuckDB reads back to the nanosecond', async (t) => {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'select ts, p from tns', { fmt: 'parquet' }));
  t.is(response.status, 200);
  const reader = await ParquetReader.open();
  try {
    const path = reader.save('tns.parquet', new Uint8Array(await response.arrayBuffer()));
    const schema = await reader.rows(`select name, logical_type from parquet_schema('${path}') where name in ('ts', 'p')`);
    t.true(schema.every((row) => String(row['logical_type']).includes('NANOS')), JSON.stringify(schema));
    const read = await reader.rows(`select epoch_ns(ts)::varchar ts, epoch_ns(p)::varchar p from read_parquet('${path}')`);
    t.deepEqual(read.map((row) => [row['ts'], row['p']]), [[NS_EPOCHS[0], NS_EPOCHS[3]], [NS_EPOCHS[1], NS_EPOCHS[1]], [NS_EPOCHS[2], NS_EPOCHS[0]], [NS_EPOCHS[3], null]]);
  } finally {
    reader.close();
  }
});

test('CONVERT PARTITION TO PARQUET and back keeps every ns value, and ns interval filters still find them', async (t) => {
  await execOk(server.baseUrl, 'create table tns_parts as (select * from tns) timestamp(ts) partition by day');
  const before = await rows(server.baseUrl, 'select * from tns_parts');
  await execOk(server.baseUrl, "alter table tns_parts convert partition to parquet list '2024-01-01'");
  t.deepEqual(await rows(server.baseUrl, 'select * from tns_parts'), before);
  t.deepEqual(await rows(server.baseUrl, `select v from tns_parts where ts > '${NS_VALUES[0]}' and ts < '${NS_VALUES[3]}'`), [[4], [1]]);
  await execOk(server.baseUrl, "alter table tns_parts convert partition to native list '2024-01-01'");
  t.deepEqual(await rows(server.baseUrl, 'select * from tns_parts'), before);
});

test('/imp with a schema part stores TIMESTAMP_NS text exactly and partitions on it; a bad value is an error', async (t) => {
  const parts: UploadPart[] = [
    { name: 'schema', content: JSON.stringify([{ name: 'ts', type: 'TIMESTAMP_NS' }]) },
    { name: 'data', filename: 'ns.csv', content: `ts,n\n${NS_VALUES[2]},1\n${NS_VALUES[3]},2\nyesterday,3\n${NS_VALUES[1]},4\n` },
  ];
  const response = await importCsv(server.baseUrl, { name: 'ns_imp', fmt: 'json', timestamp: 'ts', partitionBy: 'DAY' }, parts);
  t.is(response.status, 200, response.text);
  const report = response.json as { rowsImported: number; columns: { name: string; type: string; errors: number }[] };
  t.deepEqual(report.columns.map((column) => [column.name, column.type, column.errors]), [['ts', 'TIMESTAMP_NS', 1], ['n', 'INT', 0]]);
  t.deepEqual(await rows(server.baseUrl, 'select ts, n from ns_imp'), [[NS_VALUES[1], 4], [NS_VALUES[2], 1], [NS_VALUES[3], 2]]);
  t.deepEqual(await rows(server.baseUrl, "select name, numRows from table_partitions('ns_imp')"), [['2024-01-01', 2], ['2024-01-02', 1]]);
});

test('ILP from the official client into a TIMESTAMP_NS table keeps ns fields and ns designated timestamps', async (t) => {
  await execOk(server.baseUrl, 'create table ns_ilp (sym symbol, seen timestamp_ns, timestamp timestamp_ns) timestamp(timestamp) partition by day wal');
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off;retry_timeout=1000`);
  try {
    await sender.table('ns_ilp').symbol('sym', 'a').timestampColumn('seen', 1704153599999999999n, 'ns').at(1704153599999999998n, 'ns');
    await sender.table('ns_ilp').symbol('sym', 'b').timestampColumn('seen', 1704153599999999n, 'us').at(1704153599999999997n, 'ns');
    await sender.table('ns_ilp').symbol('sym', 'c').at(1704153600000001n, 'us');
    await sender.flush();
  } finally {
    await sender.close();
  }
  t.deepEqual(await rows(server.baseUrl, 'select sym, seen, timestamp from ns_ilp'), [
    ['b', '2024-01-01T23:59:59.999999000Z', NS_VALUES[0]],
    ['a', NS_VALUES[2], NS_VALUES[1]],
    ['c', null, '2024-01-02T00:00:00.000001000Z'],
  ]);
  t.deepEqual(await rows(server.baseUrl, "select name, numRows from table_partitions('ns_ilp')"), [['2024-01-01', 2], ['2024-01-02', 1]]);
});

test('ILP lines without a unit suffix take the request precision, and an n field fills an existing TIMESTAMP_NS column', async (t) => {
  await execOk(server.baseUrl, 'create table ns_raw (x long, seen timestamp_ns, timestamp timestamp_ns) timestamp(timestamp) partition by day wal');
  const body = Buffer.from('ns_raw x=1i,seen=1704153600000000001n 1704153599999999999\nns_raw x=2i,seen=5t 1704153600000000002\n');
  const response = await postIlp(server.httpPort, body);
  t.is(response.status, 204, response.text);
  t.deepEqual(await rows(server.baseUrl, 'select x, seen, timestamp from ns_raw'), [
    [1, NS_VALUES[3], NS_VALUES[2]],
    [2, '1970-01-01T00:00:00.000005000Z', '2024-01-02T00:00:00.000000002Z'],
  ]);
});

test('PG wire sends TIMESTAMP_NS as timestamp (1114) text, floored to the µs', async (t) => {
  const text = (value: string): string => value;
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb', types: { getTypeParser: () => text } });
  await client.connect();
  try {
    const result = await client.query('select ts, p from tns limit 2');
    t.deepEqual(result.fields.map((field) => field.dataTypeID), [1114, 1114]);
    t.deepEqual(result.rows.map((row: Record<string, unknown>) => [row['ts'], row['p']]), [
      ['2024-01-01 23:59:59.999999', '2024-01-02 00:00:00.000000'],
      ['2024-01-01 23:59:59.999999', '2024-01-01 23:59:59.999999'],
    ]);
  } finally {
    await client.end();
  }
});

test('line.timestamp.default.column.type=TIMESTAMP_NS: tables and t/n columns the line protocol creates hold ns', async (t) => {
  const nanosServer = await startServer({ workers: 1, env: { SVC_LINE_TIMESTAMP_DEFAULT_COLUMN_TYPE: 'TIMESTAMP_NS' } });
  try {
    const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${nanosServer.httpPort};auto_flush=off;retry_timeout=1000`);
    try {
      await sender.table('ns_auto').symbol('sym', 'a').timestampColumn('seen', 1704153599999999999n, 'ns').at(1704153599999999998n, 'ns');
      await sender.table('ns_auto').symbol('sym', 'b').timestampColumn('seen', 1704153599999999n, 'us').at(1704153599999999997n, 'ns');
      await sender.flush();
    } finally {
      await sender.close();
    }
    t.deepEqual(await rows(nanosServer.baseUrl, "select \"column\", type, designated from table_columns('ns_auto')"), [
      ['sym', 'SYMBOL', false], ['seen', 'TIMESTAMP_NS', false], ['timestamp', 'TIMESTAMP_NS', true],
    ]);
    t.deepEqual(await rows(nanosServer.baseUrl, 'select sym, seen, timestamp from ns_auto'), [
      ['b', '2024-01-01T23:59:59.999999000Z', NS_VALUES[0]],
      ['a', NS_VALUES[2], NS_VALUES[1]],
    ]);
  } finally {
    await nanosServer.stop();
    nanosServer.cleanup();
  }
});
