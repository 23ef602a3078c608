// GEOHASH, LONG256 and INTERVAL over the real interfaces: /exec JSON bodies, /exp CSV, /exp Parquet read back by
// DuckDB, Parquet partitions (CONVERT PARTITION round trip), /imp with a schema part, PG wire through
// node-postgres (text and binary results), and ILP LONG256 fields over HTTP and TCP.
import test from 'ava';
import pg from 'pg';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows, sqlUrl } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';
import { importCsv, type UploadPart } from '../helpers/upload.js';
import { postIlp } from '../helpers/ilp-http.js';
import { openRawIlpSocket, waitUntil, waitUntilListening } from '../helpers/ilp-tcp.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
  await execOk(server.baseUrl, `create table geo (
    g1 geohash(1c), g7 geohash(7b), g6 geohash(6c), g60 geohash(60b), l long256, ts timestamp
  ) timestamp(ts) partition by day`);
  await execOk(server.baseUrl, `insert into geo values
    (#u, ##1010101, #u33dbc, #sp052w92p1p8, 0x0123456789abcdef0123456789abcdef0123456789abcdef, '2024-01-01'),
    (null, null, null, null, null, '2024-01-02')`);
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const GEO_ROWS = [
  ['u', '1010101', 'u33dbc', 'sp052w92p1p8', '0x0123456789abcdef0123456789abcdef0123456789abcdef'],
  [null, null, null, null, ''],
];

test('/exec prints GEOHASH type names and values as QuestDB does, and a null LONG256 as ""', async (t) => {
  const raw = await (await fetch(sqlUrl(server.baseUrl, '/exec', 'select g1, g7, g6, g60, l from geo'))).text();
  t.true(raw.includes('"columns":[{"name":"g1","type":"GEOHASH(1c)"},{"name":"g7","type":"GEOHASH(7b)"},{"name":"g6","type":"GEOHASH(6c)"},{"name":"g60","type":"GEOHASH(12c)"},{"name":"l","type":"LONG256"}]'), raw);
  t.true(raw.includes('"dataset":[["u","1010101","u33dbc","sp052w92p1p8","0x0123456789abcdef0123456789abcdef0123456789abcdef"],[null,null,null,null,""]]'), raw);
  const interval = await (await fetch(sqlUrl(server.baseUrl, '/exec', "select interval('1970-01-01T00:00:00.010Z', '1970-01-01T00:00:00.020Z')"))).text();
  t.true(interval.includes('"type":"INTERVAL"') && interval.includes('"dataset":[["(\'1970-01-01T00:00:00.010Z\', \'1970-01-01T00:00:00.020Z\')"]]'), interval);
});

test('/exp CSV: GEOHASH and LONG256 bare, INTERVAL quoted, nulls empty', async (t) => {
  const query = "select g6, g7, l, interval(ts, ts) i from geo";
  const text = await (await fetch(sqlUrl(server.baseUrl, '/exp', query))).text();
  t.is(text, '"g6","g7","l","i"\r\n'
    + 'u33dbc,1010101,0x0123456789abcdef0123456789abcdef0123456789abcdef,"(\'2024-01-01T00:00:00.000Z\', \'2024-01-01T00:00:00.000Z\')"\r\n'
    + ',,,"(\'2024-01-02T00:00:00.000Z\', \'2024-01-02T00:00:00.000Z\')"\r\n');
});

test('/exp Parquet: DuckDB reads the values QuestDB prints, nulls as nulls', async (t) => {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'select g1, g7, g6, g60, l from geo', { fmt: 'parquet' }));
  t.is(response.status, 200);
  const reader = await ParquetReader.open();
  try {
    const path = reader.save('geo.parquet', new Uint8Array(await response.arrayBuffer()));
    const read = await reader.rows(`select * from read_parquet('${path}')`);
    t.deepEqual(read.map((row) => [row['g1'], row['g7'], row['g6'], row['g60'], row['l']]), [GEO_ROWS[0], [null, null, null, null, null]]);
  } finally {
    reader.close();
  }
});

test('CONVERT PARTITION TO PARQUET and back keeps every value and null', async (t) => {
  await execOk(server.baseUrl, 'create table geo_parts as (select * from geo) timestamp(ts) partition by day');
  // Nulls in the partition that converts (the newest partition stays native).
  await execOk(server.baseUrl, "insert into geo_parts (ts) values ('2024-01-01T01:00:00')");
  const before = await rows(server.baseUrl, 'select * from geo_parts');
  await execOk(server.baseUrl, "alter table geo_parts convert partition to parquet list '2024-01-01'");
  t.deepEqual(await rows(server.baseUrl, "select name, isParquet from table_partitions('geo_parts')"), [['2024-01-01', true], ['2024-01-02', false]]);
  t.deepEqual(await rows(server.baseUrl, 'select * from geo_parts'), before);
  t.deepEqual(await rows(server.baseUrl, 'select count() from geo_parts where g6 within (#u33)'), [[1]]);
  await execOk(server.baseUrl, "alter table geo_parts convert partition to native list '2024-01-01'");
  t.deepEqual(await rows(server.baseUrl, 'select * from geo_parts'), before);
});

test('/imp with a schema part stores GEOHASH and LONG256 values; bad values are errors', async (t) => {
  const parts: UploadPart[] = [
    { name: 'schema', content: JSON.stringify([{ name: 'g', type: 'GEOHASH(4c)' }, { name: 'l', type: 'LONG256' }]) },
    { name: 'data', filename: 'geo.csv', content: 'g,l,n\nu33dbc,0xFF,1\nzz,0x1,2\n,,3\nu33d,12,4\n' },
  ];
  const response = await importCsv(server.baseUrl, { name: 'geo_imp', fmt: 'json' }, parts);
  t.is(response.status, 200, response.text);
  const report = response.json as { rowsImported: number; columns: { name: string; type: string; errors: number }[] };
  t.is(report.rowsImported, 4);
  t.deepEqual(report.columns.map((column) => [column.name, column.type, column.errors]), [['g', 'GEOHASH(4c)', 1], ['l', 'LONG256', 1], ['n', 'INT', 0]]);
  t.deepEqual(await rows(server.baseUrl, 'select g, l, n from geo_imp'), [['u33d', '0xff', 1], [null, '0x01', 2], [null, '', 3], ['u33d', '', 4]]);
});

test('/imp detects a column of 0x values as LONG256, as QuestDB\'s default probes do', async (t) => {
  const parts: UploadPart[] = [{ name: 'data', filename: 'l.csv', content: 'l,n\n0x01,1\n0XABCDEF,2\n,3\n' }];
  const response = await importCsv(server.baseUrl, { name: 'geo_detect', fmt: 'json' }, parts);
  t.is(response.status, 200, response.text);
  const report = response.json as { header: boolean; columns: { name: string; type: string }[] };
  t.true(report.header);
  t.deepEqual(report.columns.map((column) => [column.name, column.type]), [['l', 'LONG256'], ['n', 'INT']]);
  t.deepEqual(await rows(server.baseUrl, 'select l, n from geo_detect'), [['0x01', 1], ['0xabcdef', 2], ['', 3]]);
});

test('PG wire: GEOHASH, LONG256 and INTERVAL are varchar text, in text and binary results', async (t) => {
  const text = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb' });
  await text.connect();
  try {
    const simple = await text.query("select g6, g7, l, interval(ts, ts) i from geo where ts in '2024-01-01'");
    t.deepEqual(simple.fields.map((field) => field.dataTypeID), [1043, 1043, 1043, 1043]);
    t.deepEqual(simple.rows, [{ g6: 'u33dbc', g7: '1010101', l: '0x0123456789abcdef0123456789abcdef0123456789abcdef', i: "('2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')" }]);
  } finally {
    await text.end();
  }
  // pg hands binary cells over as strings; the raw parser keeps their bytes (varchar_send is the UTF-8 bytes).
  const raw = { getTypeParser: (oid: number, format?: string) => (format === 'binary' ? (value: string) => Buffer.from(value, 'utf8') : pg.types.getTypeParser(oid, 'text')) };
  const binaryResults: Partial<pg.ClientConfig> & { readonly binary: boolean } = { types: raw, binary: true };
  const binary = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb', ...binaryResults });
  await binary.connect();
  try {
    const result = await binary.query('select g6, l from geo where g1 = $1', ['u']);
    t.deepEqual(result.fields.map((field) => [field.format, field.dataTypeID]), [['binary', 1043], ['binary', 1043]]);
    t.deepEqual(result.rows.map((row: Record<string, unknown>) => [String(row['g6']), String(row['l'])]), [['u33dbc', '0x0123456789abcdef0123456789abcdef0123456789abcdef']]);
  } finally {
    await binary.end();
  }
});

test('ILP: 0x...i fields create and fill LONG256 columns over HTTP and TCP; strings fill GEOHASH columns', async (t) => {
  const http = await postIlp(server.httpPort, Buffer.from('ilp_l,s=a l=0x0123456789abcdefi,g="u33d" 1700000000000000000\nilp_l,s=b l=0xffi 1700000000000000001\n'));
  t.is(http.status, 204, http.text);
  t.deepEqual(await rows(server.baseUrl, "select \"column\", type from table_columns('ilp_l') where \"column\" in ('l', 'g')"), [['l', 'LONG256'], ['g', 'VARCHAR']]);
  t.deepEqual(await rows(server.baseUrl, 'select s, l from ilp_l'), [['a', '0x0123456789abcdef'], ['b', '0xff']]);
  const bad = await postIlp(server.httpPort, Buffer.from('ilp_l l=0xzzi 1700000000000000002\n'));
  t.is(bad.status, 400);
  t.regex(bad.text, /invalid long256 value/);

  await execOk(server.baseUrl, 'create table ilp_g (g geohash(7b), h geohash(4c), l long256, ts timestamp) timestamp(ts)');
  await waitUntilListening(server.ilpTcpPort);
  const socket = await openRawIlpSocket(server.ilpTcpPort);
  socket.write('ilp_g g="u33d",h="u33dbc",l=0x10000000000000000i 1700000000000000000\n');
  socket.end();
  t.true(await waitUntil(async () => (await rows(server.baseUrl, 'select count() from ilp_g'))[0]?.[0] === 1, 10_000));
  t.deepEqual(await rows(server.baseUrl, 'select g, h, l from ilp_g'), [['1101000', 'u33d', '0x010000000000000000']]);
});
