// /exec and /api/v1/sql/execute over real HTTP against a real 2-worker server: JSON shapes, every parameter,
// every error form, DDL and DML acknowledgements.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, getJson, rows, sqlUrl } from '../helpers/http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

test('select 1 returns the exact QuestDB body', async (t) => {
  const response = await exec(server.baseUrl, 'select 1');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(response.text, '{"query":"select 1","columns":[{"name":"1","type":"INT"}],"timestamp":-1,"dataset":[[1]],"count":1}');
});

test('the versioned path serves the same result', async (t) => {
  const response = await getJson(sqlUrl(server.baseUrl, '/api/v1/sql/execute', "select 1 x, 'a' s"));
  t.is(response.text, '{"query":"select 1 x, \'a\' s","columns":[{"name":"x","type":"INT"},{"name":"s","type":"STRING"}],"timestamp":-1,"dataset":[[1,"a"]],"count":1}');
});

test('DDL and INSERT acknowledgements', async (t) => {
  t.deepEqual(await execOk(server.baseUrl, 'create table ack (a int, ts timestamp) timestamp(ts) partition by DAY'), { ddl: 'OK' });
  t.deepEqual(await execOk(server.baseUrl, "insert into ack values (1, '2024-01-01T00:00:00Z')"), { dml: 'OK' });
  t.deepEqual(await rows(server.baseUrl, 'select a, ts from ack'), [[1, '2024-01-01T00:00:00.000000Z']]);
  const body = await execOk(server.baseUrl, 'ack');
  t.is(body['timestamp'], 1);
});

test('empty query answers 200 with the QuestDB notice shape', async (t) => {
  const response = await exec(server.baseUrl, '   -- only a comment');
  t.is(response.status, 200);
  t.is(response.text, '{"error":"empty query","query":"   -- only a comment","position":"0"}');
  const missing = await getJson(`${server.baseUrl}/exec`);
  t.is(missing.text, '{"error":"empty query","query":"","position":"0"}');
});

test('unknown table, unknown column and syntax errors carry positions', async (t) => {
  const noTable = await exec(server.baseUrl, 'select * from nope');
  t.is(noTable.status, 400);
  t.deepEqual(noTable.json, { query: 'select * from nope', error: 'table does not exist [table=nope]', position: 14 });
  await execOk(server.baseUrl, 'create table errs (a int)');
  const noColumn = await exec(server.baseUrl, 'select a, z from errs');
  t.deepEqual(noColumn.json, { query: 'select a, z from errs', error: 'Invalid column: z', position: 10 });
  const syntax = await exec(server.baseUrl, 'select from where');
  t.is(syntax.status, 400);
  const body = syntax.json as { error: string; position: number };
  t.true(body.error.length > 0);
  t.true(body.position >= 0);
  const exists = await exec(server.baseUrl, 'create table errs (b int)');
  t.deepEqual(exists.json, { query: 'create table errs (b int)', error: 'table already exists', position: 13 });
});

test('POST to execute is 405; unknown paths are 404', async (t) => {
  const post = await fetch(sqlUrl(server.baseUrl, '/exec', 'select 1'), { method: 'POST' });
  t.is(post.status, 405);
  await post.text();
  const missing = await fetch(`${server.baseUrl}/no/such/path`);
  t.is(missing.status, 404);
  await missing.text();
});

test('limit, count and nm parameters', async (t) => {
  const q = 'select x from long_sequence(20)';
  const limited = (await execOk(server.baseUrl, q + '')) as { count: number };
  t.is(limited.count, 20);
  const top = await exec(server.baseUrl, q, { limit: '2' });
  t.deepEqual((top.json as { dataset: unknown }).dataset, [[1], [2]]);
  t.is((top.json as { count: number }).count, 2);
  const range = await exec(server.baseUrl, q, { limit: '10,25' });
  const rangeBody = range.json as { dataset: number[][]; count: number };
  t.is(rangeBody.dataset.length, 11);
  t.deepEqual(rangeBody.dataset[0], [10]);
  t.is(rangeBody.count, 20);
  const counted = await exec(server.baseUrl, q, { limit: '3', count: 'true' });
  t.is((counted.json as { count: number }).count, 20);
  const noMeta = await exec(server.baseUrl, 'select 1', { nm: 'true' });
  t.is(noMeta.text, '{"dataset":[[1]],"count":1}');
});

test('timings, explain and quoteLargeNum parameters', async (t) => {
  const timed = (await exec(server.baseUrl, 'select x from long_sequence(3) where x > 1', { timings: 'true', explain: 'true' })).json as Record<string, unknown>;
  const timings = timed['timings'] as Record<string, number>;
  t.deepEqual(Object.keys(timings), ['authentication', 'compiler', 'execute', 'count']);
  t.true(timings['compiler'] !== undefined && timings['compiler'] >= 0);
  t.deepEqual(timed['explain'], { jitCompiled: true });
  const quoted = await exec(server.baseUrl, 'select 9223372036854775807L big, 5L small', { quoteLargeNum: 'true' });
  t.is((quoted.json as { dataset: unknown[][] }).dataset[0]?.[0], '9223372036854775807');
  t.is((quoted.json as { dataset: unknown[][] }).dataset[0]?.[1], '5');
  const plain = await exec(server.baseUrl, 'select 9223372036854775807L big');
  t.true(plain.text.includes('[[9223372036854775807]]'));
});

test('Statement-Timeout cancels a long query with an error', async (t) => {
  const response = await exec(server.baseUrl, 'select count(*) from long_sequence(2000000000)', {}, { headers: { 'Statement-Timeout': '100' } });
  t.is(response.status, 400);
  t.regex((response.json as { error: string }).error, /timeout/);
});

test('validate compiles without running or creating anything', async (t) => {
  const query = await getJson(sqlUrl(server.baseUrl, '/api/v1/sql/validate', 'select x, x * 2 y from long_sequence(5)'));
  t.is(query.text, '{"query":"select x, x * 2 y from long_sequence(5)","columns":[{"name":"x","type":"LONG"},{"name":"y","type":"LONG"}],"timestamp":-1}');
  const ddl = await getJson(sqlUrl(server.baseUrl, '/api/v1/sql/validate', 'create table never_made (a int)'));
  t.is(ddl.text, '{"queryType":"CREATE TABLE"}');
  const tables = await rows(server.baseUrl, "select table_name from tables() where table_name = 'never_made'");
  t.deepEqual(tables, []);
  const bad = await getJson(sqlUrl(server.baseUrl, '/api/v1/sql/validate', 'select a, z from xyz'));
  t.is(bad.status, 400);
  t.deepEqual(bad.json, { query: 'select a, z from xyz', error: 'table does not exist [table=xyz]', position: 17 });
});

test('arithmetic, comparison, boolean logic, concat and casts', async (t) => {
  t.deepEqual(await rows(server.baseUrl, "select 7 / 2, -7 / 2, 7 % 3, 1.5 * 2, 'a' || 'b', cast(3.9 as int), '12'::long, 2 > 1 and not false"),
    [[3, -3, 1, 3.0, 'ab', 3, 12, true]]);
  // A text operand of || is never parsed as a number (regression: it was coerced like a comparison operand).
  t.deepEqual(await rows(server.baseUrl, "select 'S' || (x % 100), x || 'y' from long_sequence(1)"), [['S1', '1y']]);
  t.deepEqual(await rows(server.baseUrl, 'select x, x * x sq from long_sequence(5) where x % 2 = 1 order by x desc'), [[5, 25], [3, 9], [1, 1]]);
  t.deepEqual(await rows(server.baseUrl, 'select count(*), sum(x), avg(x), min(x), max(x) from long_sequence(100)'), [[100, 5050, 50.5, 1, 100]]);
});

test('QuestDB LIMIT forms', async (t) => {
  const q = 'select x from long_sequence(10)';
  const values = async (limit: string): Promise<unknown[]> => (await rows(server.baseUrl, `${q} limit ${limit}`)).map((row) => row[0]);
  t.deepEqual(await values('3'), [1, 2, 3]);
  t.deepEqual(await values('-3'), [8, 9, 10]);
  t.deepEqual(await values('2, 5'), [3, 4, 5]);
  t.deepEqual(await values('5, 2'), [3, 4, 5]);
  t.deepEqual(await values('-4, -2'), [7, 8]);
  t.deepEqual(await values('2, -3'), [3, 4, 5, 6, 7]);
  t.deepEqual(await values('0'), []);
});

test('tables() and SHOW TABLES list created tables', async (t) => {
  await execOk(server.baseUrl, 'create table listed_a (ts timestamp) timestamp(ts) partition by MONTH');
  await execOk(server.baseUrl, 'create table listed_b (x long)');
  const listed = await rows(server.baseUrl, "select table_name, designatedTimestamp, partitionBy from tables() where table_name in ('listed_a', 'listed_b') order by table_name");
  t.deepEqual(listed, [['listed_a', 'ts', 'MONTH'], ['listed_b', null, 'NONE']]);
  const shown = (await rows(server.baseUrl, 'show tables')).map((row) => row[0]);
  t.true(shown.includes('listed_a') && shown.includes('listed_b'));
});

test('INSERT ... SELECT, CREATE TABLE AS, TRUNCATE and DROP', async (t) => {
  await execOk(server.baseUrl, "create table src as (select x id, cast(x * 1000000 as timestamp) ts from long_sequence(5)) timestamp(ts) partition by DAY");
  t.deepEqual(await rows(server.baseUrl, 'select count(*) from src'), [[5]]);
  await execOk(server.baseUrl, 'create table dst (id long, ts timestamp) timestamp(ts)');
  await execOk(server.baseUrl, 'insert into dst select id, ts from src where id > 2');
  t.deepEqual(await rows(server.baseUrl, 'select id from dst'), [[3], [4], [5]]);
  await execOk(server.baseUrl, 'truncate table dst');
  t.deepEqual(await rows(server.baseUrl, 'select count(*) from dst'), [[0]]);
  await execOk(server.baseUrl, 'drop table dst');
  t.is((await exec(server.baseUrl, 'select * from dst')).status, 400);
  t.deepEqual(await execOk(server.baseUrl, 'drop table if exists dst'), { ddl: 'OK' });
});

test('a table dropped and created again under its name reads its own values, not the files of the dropped one', async (t) => {
  await execOk(server.baseUrl, 'create table again (k symbol, s string, x int)');
  await execOk(server.baseUrl, "insert into again values ('old1', 'a', 1), ('old2', 'b', 2), ('old3', 'c', 3)");
  // Reads map the first table's column files in the worker(s) that serve them.
  for (let k = 0; k < 8; k++) await rows(server.baseUrl, 'select * from again');
  await execOk(server.baseUrl, 'drop table again');
  await execOk(server.baseUrl, 'create table again (k symbol, s symbol, x int)');
  await execOk(server.baseUrl, "insert into again values ('new', 'z', 9)");
  for (let k = 0; k < 8; k++) t.deepEqual(await rows(server.baseUrl, 'select * from again'), [['new', 'z', 9]]);
});
