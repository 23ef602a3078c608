// DECIMAL over the real interfaces: /exec JSON (values as strings, null as null), /exp CSV, /exp Parquet read
// back by DuckDB as DECIMAL values, Parquet partitions (CONVERT PARTITION round trip), /imp with a schema part
// declaring DECIMAL(p,s), PG wire text, and read_parquet of svc's exports and of DuckDB's INT32/INT64/FLBA decimals.
import test from 'ava';
import pg from 'pg';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows, sqlUrl } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';
import { importCsv, type UploadPart } from '../helpers/upload.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
  // One column per storage width: 8, 16, 32, 64, 128 and 256 bits.
  await execOk(server.baseUrl, `create table dec (
    d8 decimal(2,1), d16 decimal(4,2), d32 decimal(9,3), d64 decimal(18,4), d128 decimal(38,10), d256 decimal(76,20), ts timestamp
  ) timestamp(ts) partition by day`);
  await execOk(server.baseUrl, `insert into dec values
    (9.9m, -99.99m, 123456.789m, -12345678901234.5678m, 1234567890123456789012345678.0123456789m, -12345678901234567890123456789012345678901234567890123456.01234567890123456789m, '2024-01-01'),
    (null, null, null, null, null, null, '2024-01-02'),
    (-0.1m, 0.01m, -0.001m, 0.0001m, -0.0000000001m, 0.00000000000000000001m, '2024-01-03')`);
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const DEC_ROWS = [
  ['9.9', '-99.99', '123456.789', '-12345678901234.5678', '1234567890123456789012345678.0123456789', '-12345678901234567890123456789012345678901234567890123456.01234567890123456789'],
  [null, null, null, null, null, null],
  ['-0.1', '0.01', '-0.001', '0.0001', '-0.0000000001', '0.00000000000000000001'],
];

test('/exec prints DECIMAL(p,s) type names and values as strings, null as null', async (t) => {
  const raw = await (await fetch(sqlUrl(server.baseUrl, '/exec', 'select d8, d16, d32, d64, d128, d256 from dec'))).text();
  t.true(raw.includes('"columns":[{"name":"d8","type":"DECIMAL(2,1)"},{"name":"d16","type":"DECIMAL(4,2)"},{"name":"d32","type":"DECIMAL(9,3)"},{"name":"d64","type":"DECIMAL(18,4)"},{"name":"d128","type":"DECIMAL(38,10)"},{"name":"d256","type":"DECIMAL(76,20)"}]'), raw);
  t.true(raw.includes(`"dataset":${JSON.stringify(DEC_ROWS)}`), raw);
});

test('/exp CSV: DECIMAL values bare, nulls empty', async (t) => {
  const text = await (await fetch(sqlUrl(server.baseUrl, '/exp', 'select d8, d64, d256 from dec'))).text();
  t.is(text, '"d8","d64","d256"\r\n'
    + '9.9,-12345678901234.5678,-12345678901234567890123456789012345678901234567890123456.01234567890123456789\r\n'
    + ',,\r\n'
    + '-0.1,0.0001,0.00000000000000000001\r\n');
});

test('/exp Parquet: DuckDB reads DECIMAL columns with their precision, scale and exact values', async (t) => {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'select d8, d16, d32, d64, d128 from dec', { fmt: 'parquet' }));
  t.is(response.status, 200);
  const reader = await ParquetReader.open();
  try {
    const path = reader.save('dec.parquet', new Uint8Array(await response.arrayBuffer()));
    const schema = await reader.rows(`select name, type_length, converted_type, scale, precision from parquet_schema('${path}') where name like 'd%'`);
    t.deepEqual(schema.map((row) => [row['name'], row['type_length'], row['converted_type'], row['scale'], row['precision']]), [
      ['d8', '1', 'DECIMAL', '1', '2'], ['d16', '2', 'DECIMAL', '2', '4'], ['d32', '4', 'DECIMAL', '3', '9'],
      ['d64', '8', 'DECIMAL', '4', '18'], ['d128', '16', 'DECIMAL', '10', '38'],
    ]);
    const types = await reader.rows(`describe select * from read_parquet('${path}')`);
    t.deepEqual(types.map((row) => row['column_type']), ['DECIMAL(2,1)', 'DECIMAL(4,2)', 'DECIMAL(9,3)', 'DECIMAL(18,4)', 'DECIMAL(38,10)']);
    const read = await reader.rows(`select d8::varchar d8, d16::varchar d16, d32::varchar d32, d64::varchar d64, d128::varchar d128 from read_parquet('${path}')`);
    t.deepEqual(read.map((row) => [row['d8'], row['d16'], row['d32'], row['d64'], row['d128']]), DEC_ROWS.map((row) => row.slice(0, 5)));
  } finally {
    reader.close();
  }
});

test('CONVERT PARTITION TO PARQUET and back keeps every DECIMAL value and null', async (t) => {
  await execOk(server.baseUrl, 'create table dec_parts as (select * from dec) timestamp(ts) partition by day');
  await execOk(server.baseUrl, "insert into dec_parts (ts) values ('2024-01-01T01:00:00')");
  const before = await rows(server.baseUrl, 'select * from dec_parts');
  await execOk(server.baseUrl, "alter table dec_parts convert partition to parquet list '2024-01-01', '2024-01-02'");
  t.deepEqual(await rows(server.baseUrl, "select name, isParquet from table_partitions('dec_parts')"), [['2024-01-01', true], ['2024-01-02', true], ['2024-01-03', false]]);
  t.deepEqual(await rows(server.baseUrl, 'select * from dec_parts'), before);
  t.deepEqual(await rows(server.baseUrl, 'select sum(d64), max(d256) from dec_parts'), [['-12345678901234.5677', '0.00000000000000000001']]);
  await execOk(server.baseUrl, "alter table dec_parts convert partition to native list '2024-01-01', '2024-01-02'");
  t.deepEqual(await rows(server.baseUrl, 'select * from dec_parts'), before);
});

test('/imp with a schema part stores DECIMAL values rescaled to the declared scale; bad values are errors', async (t) => {
  const parts: UploadPart[] = [
    { name: 'schema', content: JSON.stringify([{ name: 'price', type: 'DECIMAL(10,2)' }, { name: 'qty', type: 'DECIMAL(5,0)' }]) },
    { name: 'data', filename: 'dec.csv', content: 'price,qty,n\n12.345,7,1\nabc,8,2\n,,3\n-0.5,123456,4\n1e2,9,5\n' },
  ];
  const response = await importCsv(server.baseUrl, { name: 'dec_imp', fmt: 'json' }, parts);
  t.is(response.status, 200, response.text);
  const report = response.json as { rowsImported: number; columns: { name: string; type: string; errors: number }[] };
  t.is(report.rowsImported, 5);
  t.deepEqual(report.columns.map((column) => [column.name, column.type, column.errors]), [['price', 'DECIMAL(10,2)', 1], ['qty', 'DECIMAL(5,0)', 1], ['n', 'INT', 0]]);
  t.deepEqual(await rows(server.baseUrl, 'select price, qty, n from dec_imp'), [['12.35', '7', 1], [null, '8', 2], [null, null, 3], ['-0.50', null, 4], ['100.00', '9', 5]]);
});

test('PG wire: DECIMAL values are varchar text', async (t) => {
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb' });
  await client.connect();
  try {
    const result = await client.query("select d16, d256, 1.50m * 2 x from dec where ts in '2024-01-03'");
    t.deepEqual(result.fields.map((field) => field.dataTypeID), [1043, 1043, 1043]);
    t.deepEqual(result.rows, [{ d16: '0.01', d256: '0.00000000000000000001', x: '3.00' }]);
  } finally {
    await client.end();
  }
});

test('read_parquet reads DECIMAL columns of svc exports (every width) and of DuckDB files (INT32, INT64, FIXED_LEN_BYTE_ARRAY)', async (t) => {
  const copyRoot = mkdtempSync(join(tmpdir(), 'svc-dec-copy-root-'));
  const other = await startServer({ workers: 1, env: { SVC_CAIRO_SQL_COPY_ROOT: copyRoot } });
  const reader = await ParquetReader.open();
  try {
    await execOk(other.baseUrl, 'create table d (a decimal(2,1), b decimal(18,4), c decimal(76,20))');
    await execOk(other.baseUrl, "insert into d values (9.9m, -12345678901234.5678m, -12345678901234567890123456789012345678901234567890123456.01234567890123456789m), (null, null, null), (-0.1m, 0.0001m, 0.00000000000000000001m)");
    const exported = await fetch(sqlUrl(other.baseUrl, '/exp', 'select * from d', { fmt: 'parquet' }));
    writeFileSync(join(copyRoot, 'svc.parquet'), new Uint8Array(await exported.arrayBuffer()));
    const response = await fetch(sqlUrl(other.baseUrl, '/exec', "select * from read_parquet('svc.parquet')"));
    const body = (await response.json()) as { columns: { type: string }[]; dataset: unknown[][] };
    t.deepEqual(body.columns.map((column) => column.type), ['DECIMAL(2,1)', 'DECIMAL(18,4)', 'DECIMAL(76,20)']);
    t.deepEqual(body.dataset, await rows(other.baseUrl, 'select * from d'));

    const path = join(copyRoot, 'duck.parquet');
    await reader.rows(`copy (select * from (values (1.25::decimal(9,2), -123456789012.345678::decimal(18,6), 12345678901234567890123456.789::decimal(38,3)),
      (null, null, null), (-0.01::decimal(9,2), 0.000001::decimal(18,6), -0.001::decimal(38,3))) v(i32, i64, flba)) to '${path}' (format parquet)`);
    const physical = await reader.rows(`select name, type from parquet_schema('${path}') where name in ('i32', 'i64', 'flba')`);
    t.deepEqual(physical.map((row) => [row['name'], row['type']]), [['i32', 'INT32'], ['i64', 'INT64'], ['flba', 'FIXED_LEN_BYTE_ARRAY']]);
    t.deepEqual(await rows(other.baseUrl, "select i32, i64, flba, i32 + 1 from read_parquet('duck.parquet')"), [
      ['1.25', '-123456789012.345678', '12345678901234567890123456.789', '2.25'], [null, null, null, null], ['-0.01', '0.000001', '-0.001', '0.99'],
    ]);
  } finally {
    reader.close();
    await other.stop();
    other.cleanup();
  }
});
