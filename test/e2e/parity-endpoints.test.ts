// QuestDB's smaller HTTP endpoints and /exec forms over real HTTP, against a 2-worker server with Basic
// credentials: GET /chk, GET /warnings, the `cols` projection, comment-only and non-UTF-8 query text, and
// validation of maintenance statements on a missing table. Expected texts are QuestDB's (see README).
import test from 'ava';
import { readFileSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { getJson, sqlUrl, type JsonResponse } from '../helpers/http.js';

const USER = 'admin';
const PASSWORD = 'quest';
const authorization = { Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` };

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2, env: { SVC_HTTP_USER: USER, SVC_HTTP_PASSWORD: PASSWORD } });
  await run('/exec', 'create table trades (sym symbol, price double, ts timestamp) timestamp(ts) partition by DAY');
  await run('/exec', "insert into trades values ('a', 1.5, '2024-01-01T00:00:00Z'), ('b', 2.5, '2024-01-02T00:00:00Z')");
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

/** GET with credentials; `search` is appended as written, so tests can send exact percent-encodings. */
function get(pathAndSearch: string): Promise<JsonResponse> {
  return getJson(`${server.baseUrl}${pathAndSearch}`, { headers: authorization });
}

function run(path: string, query: string, params: Record<string, string> = {}): Promise<JsonResponse> {
  return getJson(sqlUrl(server.baseUrl, path, query, params), { headers: authorization });
}

test('/chk answers Exists and Does not exist, as JSON with f=json and as text otherwise', async (t) => {
  const exists = await get('/chk?f=json&j=trades&version=2');
  t.is(exists.status, 200);
  t.is(exists.headers.get('content-type'), 'application/json');
  t.is(exists.text, '{"status":"Exists"}');
  t.is((await get('/chk?j=TRADES&f=JSON')).text, '{"status":"Exists"}');
  t.is((await get('/chk?j=nope&f=json')).text, '{"status":"Does not exist"}');
  const text = await get('/chk?j=trades');
  t.is(text.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.is(text.text, 'Exists\r\n');
  t.is((await get('/chk?j=nope')).text, 'Does not exist\r\n');
  t.is((await get('/chk?j=%C3%28&f=json')).text, '{"status":"Does not exist"}');
});

test('/chk without j says the table name is missing; without credentials it is refused', async (t) => {
  const missing = await get('/chk?f=json');
  t.is(missing.status, 200);
  t.is(missing.text, 'table name missing\r\n');
  const anonymous = await fetch(`${server.baseUrl}/chk?j=trades&f=json`);
  t.is(anonymous.status, 401);
  await anonymous.text();
});

/** This host's readings, taken the simple way, as an oracle for the tags the server must report. */
function expectedWarningTags(dbDir: string): string[] {
  const soft = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 'unlimited';
  const maps = Number(readFileSync('/proc/sys/vm/max_map_count', 'utf8').trim());
  const disk = statfsSync(dbDir);
  const free = disk.bavail * disk.bsize;
  const tags: string[] = [];
  if (soft !== 'unlimited' && Number(soft) < 1_048_576) tags.push('TOO MANY OPEN FILES');
  if (maps > 0 && maps < 1_048_576) tags.push('OUT OF MMAP AREAS');
  if (free < Math.max(1024 ** 3, disk.blocks * disk.bsize * 0.05)) tags.push('DISK FULL');
  return tags;
}

test('/warnings is a JSON array of {tag, warning} for this host, without credentials', async (t) => {
  const response = await getJson(`${server.baseUrl}/warnings`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json');
  const warnings = response.json as { tag: string; warning: string }[];
  t.true(Array.isArray(warnings));
  for (const warning of warnings) t.deepEqual(Object.keys(warning), ['tag', 'warning']);
  t.deepEqual(warnings.map((w) => w.tag), expectedWarningTags(join(server.rootDir, 'db')));
  const files = warnings.find((w) => w.tag === 'TOO MANY OPEN FILES');
  if (files !== undefined) t.regex(files.warning, /^fs\.file-max limit is too low \[current=\d+, recommended=1048576\]$/);
  const maps = warnings.find((w) => w.tag === 'OUT OF MMAP AREAS');
  if (maps !== undefined) t.regex(maps.warning, /^vm\.max_map_count limit is too low \[current=\d+, recommended=1048576\]$/);
  t.is((await getJson(`${server.baseUrl}/warnings`)).text, response.text);
});

test('cols projects and reorders the result by name; the timestamp index is the full result\'s', async (t) => {
  const response = await run('/exec', 'select * from trades', { cols: 'price,SYM,"price"' });
  t.is(response.status, 200);
  t.is(response.text, '{"query":"select * from trades","columns":[{"name":"price","type":"DOUBLE"},{"name":"sym","type":"SYMBOL"},'
    + '{"name":"price","type":"DOUBLE"}],"timestamp":2,"dataset":[[1.5,"a",1.5],[2.5,"b",2.5]],"count":2}');
  const trailing = await run('/exec', 'select sym from trades', { cols: 'sym,', limit: '1', nm: 'true' });
  t.is(trailing.text, '{"dataset":[["a"]],"count":1}');
});

test('cols with an unknown or empty name is refused with QuestDB\'s errors', async (t) => {
  const unknown = await run('/exec', 'select * from trades', { cols: 'sym,z' });
  t.is(unknown.status, 400);
  t.is(unknown.text, '{"query":"select * from trades","error":"column not found: \'z\'"}');
  const empty = await run('/exec', 'select * from trades', { cols: 'sym,,price' });
  t.is(empty.status, 400);
  t.is(empty.text, '{"query":"select * from trades","error":"empty column in query parameter"}');
  const badBytes = await get('/exec?query=select+1&cols=%C3%28');
  t.is(badBytes.status, 400);
  t.is(badBytes.text, '{"error":"utf8 error in column list"}');
});

test('a query of only comments is an empty query that echoes its text', async (t) => {
  const line = await run('/exec', '-- hello');
  t.is(line.status, 200);
  t.is(line.text, '{"error":"empty query","query":"-- hello","position":"0"}');
  const block = await run('/exec', '/* x */', { version: '2' });
  t.is(block.text, '{"notice":"empty query","query":"/* x */","position":"0"}');
  t.is((await run('/api/v1/sql/validate', '--')).text, '{"error":"empty query","query":"--","position":"0"}');
});

test('query bytes that are not UTF-8 get QuestDB\'s error and echo', async (t) => {
  for (const path of ['/exec', '/api/v1/sql/validate']) {
    const response = await get(`${path}?query=select%C3(`);
    t.is(response.status, 400, path);
    t.is(response.text, '{"query":"select\uffc3(","error":"Bad UTF8 encoding in query text","position":0}', path);
  }
  const replacement = await get('/exec?query=select+%27%EF%BF%BD%27+x');
  t.is(replacement.status, 200);
  t.deepEqual((replacement.json as { dataset: unknown }).dataset, [['\ufffd']]);
});

test('validating a maintenance statement on a missing table fails as QuestDB\'s does', async (t) => {
  const cases: readonly [string, number][] = [
    ['alter table abc resume wal', 12], ['alter table abc suspend wal', 12], ['alter table abc set type wal', 12],
    ['vacuum table abc', 13], ['reindex table abc', 14], ['drop table abc', 11], ['truncate table abc', 15],
  ];
  for (const [query, position] of cases) {
    const response = await run('/api/v1/sql/validate', query);
    t.is(response.status, 400, query);
    t.deepEqual(response.json, { query, error: 'table does not exist [table=abc]', position }, query);
  }
  t.is((await run('/api/v1/sql/validate', 'vacuum table trades')).text, '{"queryType":"VACUUM TABLE"}');
  t.is((await run('/api/v1/sql/validate', 'alter table trades resume wal')).text, '{"queryType":"ALTER TABLE"}');
  t.is((await run('/api/v1/sql/validate', 'drop table if exists abc')).text, '{"queryType":"DROP"}');
  t.deepEqual((await run('/exec', 'vacuum table abc')).json, { query: 'vacuum table abc', error: 'table does not exist [table=abc]', position: 13 });
  t.deepEqual((await run('/exec', 'reindex table trades')).json, { ddl: 'OK' });
});
