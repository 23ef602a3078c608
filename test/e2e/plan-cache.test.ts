// /exec reuses the plan compiled for the same text while the tables it reads are unchanged (sql/plan-cache.ts).
// One worker, so every statement meets the plans the earlier ones left: each test runs a query twice (the second
// run is answered from the cache), changes the table, and expects the next answer to see the change.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
});

test.after.always(async () => {
  await server.stop();
  server.cleanup();
});

async function twice(sql: string): Promise<unknown[][]> {
  const first = await rows(server.baseUrl, sql);
  const second = await rows(server.baseUrl, sql);
  if (JSON.stringify(first) !== JSON.stringify(second)) throw new Error(`${sql}: two runs over one txn differ`);
  return second;
}

test('a new commit is seen by the next run of a cached query', async (t) => {
  await execOk(server.baseUrl, 'create table pc_commit (ts timestamp, x long) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into pc_commit values ('2024-01-01T00:00:00Z', 1), ('2024-01-01T01:00:00Z', 2)");
  t.deepEqual(await twice('select count(*), sum(x) from pc_commit'), [[2, 3]]);
  await execOk(server.baseUrl, "insert into pc_commit values ('2024-01-01T02:00:00Z', 4)");
  t.deepEqual(await twice('select count(*), sum(x) from pc_commit'), [[3, 7]]);
});

test('a new partition is seen by a cached interval query', async (t) => {
  await execOk(server.baseUrl, 'create table pc_partition (ts timestamp, x long) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into pc_partition values ('2024-01-01T00:00:00Z', 1)");
  const sql = "select count(*) from pc_partition where ts in '2024-01-02'";
  t.deepEqual(await twice(sql), [[0]]);
  await execOk(server.baseUrl, "insert into pc_partition values ('2024-01-02T05:00:00Z', 5), ('2024-01-02T06:00:00Z', 6)");
  t.deepEqual(await twice(sql), [[2]]);
});

test('ALTER TABLE ADD COLUMN changes what a cached select * returns', async (t) => {
  await execOk(server.baseUrl, 'create table pc_alter (ts timestamp, x long) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into pc_alter values ('2024-01-01T00:00:00Z', 1)");
  t.deepEqual(await twice('select * from pc_alter'), [['2024-01-01T00:00:00.000000Z', 1]]);
  await execOk(server.baseUrl, 'alter table pc_alter add column y double');
  t.deepEqual(await twice('select * from pc_alter'), [['2024-01-01T00:00:00.000000Z', 1, null]]);
});

test('a table dropped and created again under the same name is read afresh', async (t) => {
  await execOk(server.baseUrl, 'create table pc_again (ts timestamp, x long) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into pc_again values ('2024-01-01T00:00:00Z', 1)");
  t.deepEqual(await twice('select * from pc_again'), [['2024-01-01T00:00:00.000000Z', 1]]);
  // No query in between: the next one meets the plan over the dropped table.
  await execOk(server.baseUrl, 'drop table pc_again');
  await execOk(server.baseUrl, 'create table pc_again (ts timestamp, s string) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into pc_again values ('2024-02-01T00:00:00Z', 'new')");
  t.deepEqual(await twice('select * from pc_again'), [['2024-02-01T00:00:00.000000Z', 'new']]);
});

test('a dropped table is not answered from the cache', async (t) => {
  await execOk(server.baseUrl, 'create table pc_dropped (ts timestamp, x long) timestamp(ts) partition by DAY');
  t.deepEqual(await twice('select count(*) from pc_dropped'), [[0]]);
  await execOk(server.baseUrl, 'drop table pc_dropped');
  const response = await exec(server.baseUrl, 'select count(*) from pc_dropped');
  t.is(response.status, 400);
  t.like(response.json, { error: 'table does not exist [table=pc_dropped]' });
});

test('a cached plan over a symbol column sees symbols added after it was compiled', async (t) => {
  await execOk(server.baseUrl, 'create table pc_symbols (ts timestamp, s symbol) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into pc_symbols values ('2024-01-01T00:00:00Z', 'a')");
  const sql = "select count(*) from pc_symbols where s = 'b'";
  t.deepEqual(await twice(sql), [[0]]);
  await execOk(server.baseUrl, "insert into pc_symbols values ('2024-01-01T01:00:00Z', 'b')");
  t.deepEqual(await twice(sql), [[1]]);
});
