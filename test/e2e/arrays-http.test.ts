// DOUBLE[] columns over real HTTP: /exec JSON (QuestDB's ARRAY/dim/elemType column form, nested arrays, NULL
// elements as null), /exp CSV (quoted JSON text) and /exp Parquet, nested lists by default (read back by DuckDB
// as nested lists, NULL arrays, empty arrays and NULL elements kept apart) and BYTE_ARRAY with
// raw_array_encoding=true; values survive a killed server.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows, sqlUrl } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
  await execOk(server.baseUrl, 'create table arr (id int, v double[], m double[][], ts timestamp) timestamp(ts) partition by day');
  await execOk(server.baseUrl, `insert into arr values
    (1, ARRAY[1.5, -2, 1e300], ARRAY[[1, 2], [3, 4]], '2024-01-01T00:00:00Z'),
    (2, null, null, '2024-01-01T01:00:00Z'),
    (3, ARRAY[], ARRAY[[5, null]], '2024-01-02T00:00:00Z'),
    (4, ARRAY[null, 0.1], ARRAY[[1], [2], [3]], '2024-01-02T01:00:00Z')`);
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const EXPECTED_JSON_ROWS = '[1,[1.5,-2.0,1.0E300],[[1.0,2.0],[3.0,4.0]]],[2,null,null],[3,[],[[5.0,null]]],[4,[null,0.1],[[1.0],[2.0],[3.0]]]';

test('/exec reports array columns as QuestDB does and writes nested JSON arrays', async (t) => {
  const response = await exec(server.baseUrl, 'select id, v, m from arr');
  t.is(response.status, 200, response.text);
  t.true(response.text.includes('"columns":[{"name":"id","type":"INT"},{"name":"v","type":"ARRAY","dim":1,"elemType":"DOUBLE"},{"name":"m","type":"ARRAY","dim":2,"elemType":"DOUBLE"}]'), response.text);
  t.true(response.text.includes(`"dataset":[${EXPECTED_JSON_ROWS}]`), response.text);
});

test('/exp CSV writes arrays as quoted JSON text, NULL arrays as "null" (QuestDB\'s ExportQueryProcessor)', async (t) => {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'select id, v, m from arr'));
  t.is(response.status, 200);
  t.is(await response.text(), '"id","v","m"\r\n'
    + '1,"[1.5,-2.0,1.0E300]","[[1.0,2.0],[3.0,4.0]]"\r\n'
    + '2,"null","null"\r\n'
    + '3,"[]","[[5.0,null]]"\r\n'
    + '4,"[null,0.1]","[[1.0],[2.0],[3.0]]"\r\n');
});

async function exportParquet(params: Record<string, string>): Promise<Uint8Array> {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'select id, v, m from arr', { fmt: 'parquet', ...params }));
  if (response.status !== 200) throw new Error(`parquet export failed: ${response.status} ${await response.text()}`);
  return new Uint8Array(await response.arrayBuffer());
}

for (const version of ['1', '2']) {
  test(`/exp Parquet (format version ${version}) writes nested lists that DuckDB reads back`, async (t) => {
    const reader = await ParquetReader.open();
    try {
      const path = reader.save('arrays.parquet', await exportParquet({ parquet_version: version }));
      const types = await reader.rows(`select name, type from parquet_schema('${path}') where name in ('v', 'm')`);
      t.deepEqual(types.map((row) => row['name']), ['v', 'm']);
      const values = await reader.rows(`select id, v::varchar v, m::varchar m, len(v) n from read_parquet('${path}') order by id`);
      t.deepEqual(values, [
        { id: 1, v: '[1.5, -2.0, 1e+300]', m: '[[1.0, 2.0], [3.0, 4.0]]', n: '3' },
        { id: 2, v: null, m: null, n: null },
        { id: 3, v: '[]', m: '[[5.0, NULL]]', n: '0' },
        { id: 4, v: '[NULL, 0.1]', m: '[[1.0], [2.0], [3.0]]', n: '2' },
      ]);
    } finally {
      reader.close();
    }
  });
}

test('/exp Parquet with raw_array_encoding=true writes each array as one BYTE_ARRAY value', async (t) => {
  const reader = await ParquetReader.open();
  try {
    const path = reader.save('raw.parquet', await exportParquet({ raw_array_encoding: 'true' }));
    const schema = await reader.rows(`select name, type from parquet_schema('${path}') where name in ('v', 'm')`);
    t.deepEqual(schema, [{ name: 'v', type: 'BYTE_ARRAY' }, { name: 'm', type: 'BYTE_ARRAY' }]);
    const sizes = await reader.rows(`select id, octet_length(v) v, octet_length(m) m from read_parquet('${path}') order by id`);
    // Header: int32 dimension count, int32 per dimension, 4 bytes of padding after an odd count; 8 bytes per element.
    t.deepEqual(sizes, [{ id: 1, v: '36', m: '44' }, { id: 2, v: null, m: null }, { id: 3, v: '12', m: '28' }, { id: 4, v: '28', m: '36' }]);
  } finally {
    reader.close();
  }
});

test('array values survive a killed server (WAL replay) and a restart', async (t) => {
  const own = await startServer({ workers: 1 });
  try {
    await execOk(own.baseUrl, 'create table arr_restart (id int, m double[][], ts timestamp) timestamp(ts) partition by day');
    await execOk(own.baseUrl, "insert into arr_restart values (1, ARRAY[[1, 2], [3, 4]], '2024-01-01'), (2, null, '2024-01-02'), (3, ARRAY[[0.5]], '2024-01-01T12:00:00Z')");
    await own.kill9();
    const again = await startServer({ workers: 1, rootDir: own.rootDir });
    try {
      t.deepEqual(await rows(again.baseUrl, 'select id, m, array_sum(m), m[2, 1] from arr_restart'), [[1, [[1, 2], [3, 4]], 10, 3], [3, [[0.5]], 0.5, null], [2, null, 0, null]]);
    } finally {
      await again.stop();
    }
  } finally {
    await own.stop();
    own.cleanup();
  }
});
