// http.security.readonly over real HTTP: every statement that would change data or structure is refused with
// 403 and `Write permission denied` on /exec, /api/v1/sql/execute and /exp, and /imp uploads are refused too;
// reads keep working and the data on disk is unchanged. The table is made by an earlier read-write run.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, rows, sqlUrl } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';

let server: TestServer;

test.before(async () => {
  const writable = await startServer({ workers: 1 });
  for (const statement of ['create table ro (x int, s symbol, ts timestamp) timestamp(ts) partition by day', "insert into ro values (1, 'a', '2024-01-01T00:00:00Z')"]) {
    const response = await exec(writable.baseUrl, statement);
    if (response.status !== 200) throw new Error(response.text);
  }
  await writable.stop();
  server = await startServer({ workers: 2, rootDir: writable.rootDir, env: { SVC_HTTP_SECURITY_READONLY: 'true' } });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const WRITES = [
  'create table other (x int)',
  "insert into ro values (2, 'b', '2024-01-02T00:00:00Z')",
  'insert into ro select x, s, ts from ro',
  'update ro set x = 5',
  'alter table ro add column y double',
  'alter table ro drop column s',
  'rename table ro to ro2',
  'truncate table ro',
  'drop table ro',
  'create table copy as (select * from ro)',
  'CREATE SERVICE ACCOUNT nobody',
  'vacuum table ro',
];

for (const path of ['/exec', '/api/v1/sql/execute']) {
  test(`${path}: every write statement gets 403 Write permission denied`, async (t) => {
    for (const statement of WRITES) {
      const response = await fetch(sqlUrl(server.baseUrl, path, statement));
      t.is(response.status, 403, statement);
      t.deepEqual(await response.json(), { query: statement, error: 'Write permission denied', position: 0 }, statement);
    }
  });
}

test('/exp: a write statement gets 403 too', async (t) => {
  const response = await fetch(sqlUrl(server.baseUrl, '/exp', 'drop table ro'));
  t.is(response.status, 403);
  t.regex(await response.text(), /Write permission denied/);
});

test('/imp: uploads are refused with 403, into new and existing tables', async (t) => {
  for (const name of ['ro', 'fresh']) {
    const response = await importCsv(server.baseUrl, { name, fmt: 'json' }, [{ name: 'data', filename: 'a.csv', content: 'x,s,ts\n9,z,2024-01-03T00:00:00.000000Z\n' }]);
    t.is(response.status, 403, name);
    t.deepEqual(response.json, { status: `Write permission denied [table=${name}]` });
  }
});

test('reads and validation still work, and nothing changed', async (t) => {
  t.deepEqual(await rows(server.baseUrl, 'select x, s from ro'), [[1, 'a']]);
  t.deepEqual(await rows(server.baseUrl, 'select count() from tables()'), [[1]]);
  const validated = await fetch(sqlUrl(server.baseUrl, '/api/v1/sql/validate', 'drop table ro'));
  t.is(validated.status, 200);
  const csv = await fetch(sqlUrl(server.baseUrl, '/exp', 'select x from ro'));
  t.is(await csv.text(), '"x"\r\n1\r\n');
});
