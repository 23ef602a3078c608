// DOUBLE[] over the PostgreSQL wire protocol with node-postgres (`pg`, unchanged): columns are described as
// float8[] (OID 1022) and travel in PostgreSQL's text form (`{1.0,2.0}`, NULL elements as NULL), which pg parses
// into nested JS arrays. (pg has no binary float8[] parser; the binary form is checked in test/unit/pgwire.)
import test from 'ava';
import pg from 'pg';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk } from '../helpers/http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
  await execOk(server.baseUrl, 'create table pa (id int, v double[], m double[][], ts timestamp) timestamp(ts) partition by day');
  await execOk(server.baseUrl, "insert into pa values (1, ARRAY[1.5, null], ARRAY[[1, 2], [3, 4]], '2024-01-01'), (2, null, null, '2024-01-02'), (3, ARRAY[], ARRAY[[0.25]], '2024-01-03')");
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

async function query(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb' });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

test('text results: float8[] columns in PostgreSQL array text, parsed by pg into nested arrays', async (t) => {
  // The parameters test below inserts id 10 into the same table concurrently: read only the rows written before.
  const result = await query('select id, v, m from pa where id < 10 order by id');
  t.deepEqual(result.fields.map((field) => field.dataTypeID), [23, 1022, 1022]);
  t.deepEqual(result.rows, [
    { id: 1, v: [1.5, null], m: [[1, 2], [3, 4]] },
    { id: 2, v: null, m: null },
    { id: 3, v: [], m: [[0.25]] },
  ]);
});

test('parameters: pg sends JS arrays as array text, which INSERT parses into the array column', async (t) => {
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb' });
  await client.connect();
  try {
    await client.query('insert into pa values ($1, $2, $3, $4)', [10, [0.5, -1], [[7, 8]], '2024-01-05T00:00:00.000000Z']);
    const result = await client.query('select v, m from pa where id = 10');
    t.deepEqual(result.rows, [{ v: [0.5, -1], m: [[7, 8]] }]);
  } finally {
    await client.end();
  }
});
