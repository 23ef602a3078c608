// porsager `postgres` (postgres.js 3, unchanged) against a real server: named prepared statements reused across
// executions, Describe of a statement (parameter and column types), tagged-template parameters, a transaction
// block, a batched insert. postgres.js reads pg_type (its array types) at connect with its default settings,
// which the pg_catalog relations answer.
import test from 'ava';
import postgres from 'postgres';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let sql: postgres.Sql;

test.before(async () => {
  server = await startServer();
  sql = postgres({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb', max: 2, prepare: true });
  await sql`create table readings (ts timestamp, sensor symbol, v double) timestamp(ts) partition by day`;
  await sql`insert into readings select timestamp_sequence('2024-01-01', 1000000L), rnd_symbol('s1', 's2'), x from long_sequence(1000)`;
});

test.after.always(async () => {
  await sql?.end();
  await server?.stop();
  server?.cleanup();
});

test('named prepared statements run many times with new parameters', async (t) => {
  const counts: string[] = [];
  for (let k = 1; k <= 10; k++) {
    const [row] = await sql`select count(*) c from readings where v <= ${k * 100}`;
    counts.push(String(row?.['c']));
  }
  t.deepEqual(counts, ['100', '200', '300', '400', '500', '600', '700', '800', '900', '1000']);
});

test('describe reports parameter types inferred from use and the result columns', async (t) => {
  const described = await sql`select ts, v from readings where v > ${1} and ts < ${'2024-01-01T00:10:00Z'}`.describe();
  t.deepEqual(described.types, [701, 1114]);
  t.deepEqual(described.columns.map((column) => [column.name, column.type]), [['ts', 1114], ['v', 701]]);
});

test('a batched insert with parameters and a transaction block', async (t) => {
  await sql`create table batched (ts timestamp, n long, label varchar) timestamp(ts) partition by day`;
  const rows = Array.from({ length: 50 }, (_, k) => ({ ts: new Date(Date.UTC(2024, 5, 1, 0, k)), n: k, label: `l${k}` }));
  await sql.begin(async (tx) => {
    for (const row of rows) await tx`insert into batched values (${row.ts}, ${row.n}, ${row.label})`;
  });
  const [summary] = await sql`select count(*) c, sum(n) s, max(label) m from batched`;
  t.deepEqual([String(summary?.['c']), String(summary?.['s']), summary?.['m']], ['50', '1225', 'l9']);
});

test('an error names its SQLSTATE and position, and the pool keeps working', async (t) => {
  const error = await t.throwsAsync(sql`select nope from readings where v = ${1}`);
  t.is((error as { code?: string }).code, '42703');
  const [row] = await sql`select ${41}::int + 1 x`;
  t.is(row?.['x'], 42);
});
