// ILP over HTTP at the protocol level, with raw requests instead of the official client: QuestDB's exact error
// body and key order, the precision parameter, gzip and unsupported encodings, chunked bodies cut at awkward
// places, /ping and /settings, the line size limit, all-or-nothing requests over two tables, auto-create off,
// names that would leave db/, a 50 MB streamed body (spilled to the staged file) and concurrent group commits.
import test from 'ava';
import { Agent } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServers, type TestServer } from '../helpers/server.js';
import { exec, rows } from '../helpers/http.js';
import { openSocket, sleep } from '../helpers/raw-http.js';
import { ilpErrorBody, postIlp } from '../helpers/ilp-http.js';
import { binaryDouble, bytesOf } from '../helpers/ilp-parse.js';

let server: TestServer;
let strict: TestServer;
const LINE_BYTES_MAX = 1024;

test.before(async () => {
  [server, strict] = await startServers([
    { workers: 2, env: { SVC_LINE_HTTP_MAX_LINE_SIZE: String(LINE_BYTES_MAX), SVC_METRICS_ENABLED: 'true' } },
    { workers: 1, env: { SVC_LINE_AUTO_CREATE_NEW_TABLES: 'false', SVC_LINE_AUTO_CREATE_NEW_COLUMNS: 'false' } },
  ]);
});

test.after.always(async () => {
  await Promise.all([server?.stop(), strict?.stop()]);
  server?.cleanup();
  strict?.cleanup();
});

async function count(target: TestServer, table: string): Promise<number> {
  const result = await rows(target.baseUrl, `select count() from "${table}"`);
  return Number(result[0]?.[0]);
}

async function tableExists(target: TestServer, table: string): Promise<boolean> {
  const result = await rows(target.baseUrl, `select count() from tables() where table_name = '${table}'`);
  return result[0]?.[0] === 1;
}

async function unhandledErrors(): Promise<number> {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith('svc_unhandled_errors_total '));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? NaN);
}

test('a bad line is a 400 with QuestDB\'s body: code, message, line, errorId in that order', async (t) => {
  const response = await postIlp(server.httpPort, Buffer.from('p_shape a=1i\n\n# comment\np_shape a=1.5\n'));
  t.is(response.status, 400);
  t.is(response.headers['content-type'], 'application/json; charset=utf-8');
  t.regex(response.text, /^\{"code":"invalid","message":"failed to parse line protocol:errors encountered on line\(s\):\\nerror in line 4: table: p_shape, column: a; cast error from protocol type: FLOAT to column type: LONG","line":4,"errorId":"[0-9a-f]+-\d+"\}$/);
  const again = ilpErrorBody((await postIlp(server.httpPort, Buffer.from('p_shape a=x\n'))).text);
  t.not(again.errorId, ilpErrorBody(response.text).errorId, 'each error has its own id');
  t.false(await tableExists(server, 'p_shape'));
});

test('precision applies to designated timestamps without a suffix; other parameters are ignored', async (t) => {
  const cases = [['n', '1704067200123456789'], ['ns', '1704067200123456789'], ['u', '1704067200123456'], ['us', '1704067200123456'],
    ['ms', '1704067200123'], ['s', '1704067200'], ['m', '28401121'], ['h', '473353']] as const;
  for (const [precision, value] of cases) {
    const response = await postIlp(server.httpPort, Buffer.from(`p_precision,unit=${precision} v=1i ${value}\n`), { path: `/write?db=x&org=o&bucket=b&precision=${precision}` });
    t.is(response.status, 204, `${precision}: ${response.text}`);
  }
  t.deepEqual(await rows(server.baseUrl, 'select unit, timestamp from p_precision order by unit'), [
    ['h', '2024-01-01T01:00:00.000000Z'], ['m', '2024-01-01T00:01:00.000000Z'], ['ms', '2024-01-01T00:00:00.123000Z'], ['n', '2024-01-01T00:00:00.123456Z'],
    ['ns', '2024-01-01T00:00:00.123456Z'], ['s', '2024-01-01T00:00:00.000000Z'], ['u', '2024-01-01T00:00:00.123456Z'], ['us', '2024-01-01T00:00:00.123456Z'],
  ]);
});

test('an unsupported precision is a 400 "not supported", and nothing is written', async (t) => {
  for (const precision of ['x', 'd', 'NS', '']) {
    const response = await postIlp(server.httpPort, Buffer.from('p_bad_precision v=1i 1\n'), { path: `/api/v2/write?precision=${precision}` });
    t.is(response.status, 400, precision);
    t.deepEqual({ ...ilpErrorBody(response.text), errorId: '' }, { code: 'not supported', message: 'unsupported precision', errorId: '' });
  }
  t.false(await tableExists(server, 'p_bad_precision'));
});

test('gzip bodies are read; a corrupt one is a 400, an unsupported encoding a 415', async (t) => {
  const body = Buffer.from('p_gzip,s=a v=1i 1000\np_gzip,s=b v=2i 2000\n');
  t.is((await postIlp(server.httpPort, gzipSync(body), { headers: { 'Content-Encoding': 'gzip' } })).status, 204);
  const packed = gzipSync(Buffer.from('p_gzip,s=c v=3i 3000\n'));
  t.is((await postIlp(server.httpPort, [packed.subarray(0, 7), packed.subarray(7)], { headers: { 'Content-Encoding': 'x-gzip' }, pauseMs: 5 })).status, 204);
  t.deepEqual(await rows(server.baseUrl, 'select s, v from p_gzip'), [['a', 1], ['b', 2], ['c', 3]]);
  for (const corrupt of [Buffer.from('plainly not gzip\n'), gzipSync(body).subarray(0, 20)]) {
    const response = await postIlp(server.httpPort, corrupt, { headers: { 'Content-Encoding': 'gzip' } });
    t.is(response.status, 400);
    t.regex(ilpErrorBody(response.text).message, /^cannot decompress the gzip body: /);
  }
  for (const encoding of ['br', 'deflate', 'compress']) {
    const response = await postIlp(server.httpPort, body, { headers: { 'Content-Encoding': encoding } });
    t.is(response.status, 415, encoding);
    t.deepEqual({ ...ilpErrorBody(response.text), errorId: '' }, { code: 'not supported', message: `unsupported content encoding [encoding=${encoding}]`, errorId: '' });
  }
  t.is(await count(server, 'p_gzip'), 3);
});

test('chunked bodies cut inside names, escapes, strings, CRLF, UTF-8 and binary doubles are read whole', async (t) => {
  const body = bytesOf('p_chunked,tag=v\\ 1 s="a \\"quoted\\" é",n=1i 1000\r\n', 'p_chunked,tag=v2 d==', binaryDouble(Buffer.from([0x0a, 0x0d, 0x20, 0x2c, 0x3d, 0x22, 0x5c, 0x40]).readDoubleLE(0)), ',n=2i 2000\n',
    '# comment\n\np_chunked s="line\\\nbreak",n=3i 3000');
  const cuts = [3, 10, 15, 27, 33, 40, 47, 49, 50, 66, 75, 77, 80, 84, body.length - 20, body.length - 2];
  const chunks = [0, ...cuts].map((start, k) => body.subarray(start, cuts[k] ?? body.length));
  t.is(Buffer.concat(chunks).length, body.length);
  const response = await postIlp(server.httpPort, chunks, { pauseMs: 3 });
  t.is(response.status, 204, response.text);
  t.deepEqual(await rows(server.baseUrl, 'select tag, s, n, timestamp from p_chunked'), [
    ['v 1', 'a "quoted" é', 1, '1970-01-01T00:00:00.000001Z'], ['v2', null, 2, '1970-01-01T00:00:00.000002Z'], [null, 'line\nbreak', 3, '1970-01-01T00:00:00.000003Z'],
  ]);
  t.deepEqual(await rows(server.baseUrl, 'select d from p_chunked where n = 2'), [[Buffer.from([0x0a, 0x0d, 0x20, 0x2c, 0x3d, 0x22, 0x5c, 0x40]).readDoubleLE(0)]]);
});

test('a last line without a newline is committed', async (t) => {
  t.is((await postIlp(server.httpPort, Buffer.from('p_last a=1i 1000\np_last a=2i 2000'))).status, 204);
  t.is((await postIlp(server.httpPort, [Buffer.from('p_last a=3i'), Buffer.from(' 3000')], { pauseMs: 5 })).status, 204);
  t.deepEqual(await rows(server.baseUrl, 'select a from p_last'), [[1], [2], [3]]);
});

test('GET on /write is a 404 "invalid"; /ping answers 204 with X-Influxdb-Version', async (t) => {
  for (const path of ['/write', '/api/v2/write']) {
    const response = await postIlp(server.httpPort, [], { method: 'GET', path });
    t.is(response.status, 404, path);
    t.deepEqual({ ...ilpErrorBody(response.text), errorId: '' }, { code: 'invalid', message: 'method not supported [method=GET]', errorId: '' });
  }
  for (const method of ['GET', 'HEAD']) {
    const response = await fetch(`${server.baseUrl}/ping`, { method });
    t.is(response.status, 204, method);
    t.is(response.headers.get('x-influxdb-version'), 'v2.2.2');
    t.is(await response.text(), '');
  }
});

test('/settings answers QuestDB\'s JSON exactly, without credentials', async (t) => {
  const response = await fetch(`${server.baseUrl}/settings`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  const text = await response.text();
  const version = /"release\.version":"([^"]*)"/.exec(text)?.[1] ?? '';
  t.regex(version, /^\d+\.\d+\.\d+/);
  t.is(text, `{"config":{"release.type":"OSS","release.version":"${version}","http.settings.readonly":false,"accepting.writes":["http","tcp"],`
    + '"line.proto.support.versions":[1,2,3],"ilp.proto.transports":["http","tcp"],"cairo.max.file.name.length":127},"preferences.version":0,"preferences":{}}');
});

test('a line over line.http.max.line.size is a 413 on its line; nothing is written and the server keeps serving', async (t) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const body = Buffer.from(`p_limit a=1i\np_limit s="${'x'.repeat(LINE_BYTES_MAX)}"\np_limit a=2i\n`);
    const whole = await postIlp(server.httpPort, body, { agent });
    t.is(whole.status, 413);
    t.deepEqual({ ...ilpErrorBody(whole.text), errorId: '' }, { code: 'request too large', message: `line 2 is longer than the line size limit [limit=${LINE_BYTES_MAX}]`, line: 2, errorId: '' });
    const cut = await postIlp(server.httpPort, [body.subarray(0, 40), body.subarray(40, 600), body.subarray(600)], { agent, pauseMs: 5 });
    t.is(cut.status, 413);
    t.is(ilpErrorBody(cut.text).line, 2);
    t.false(await tableExists(server, 'p_limit'));
    t.is((await postIlp(server.httpPort, Buffer.from(`p_limit s="${'x'.repeat(LINE_BYTES_MAX - 20)}"\n`), { agent })).status, 204);
    t.is(await count(server, 'p_limit'), 1);
  } finally {
    agent.destroy();
  }
});

test('one request over two tables whose second table\'s line is bad commits neither table', async (t) => {
  const fresh = await postIlp(server.httpPort, Buffer.from('p_pair_a v=1i 1000\np_pair_a v=2i 2000\np_pair_b v=1i 1000\np_pair_b v="x" 2000\n'));
  t.is(fresh.status, 400);
  t.is(ilpErrorBody(fresh.text).line, 4);
  t.false(await tableExists(server, 'p_pair_a'));
  t.false(await tableExists(server, 'p_pair_b'));
  t.is((await postIlp(server.httpPort, Buffer.from('p_pair_a v=0i 500\np_pair_b v=0i 500\n'))).status, 204);
  const existing = await postIlp(server.httpPort, Buffer.from('p_pair_a v=1i 1000\np_pair_b v=1i 1000\np_pair_b v=1.5 2000\n'));
  t.is(existing.status, 400);
  t.deepEqual([await count(server, 'p_pair_a'), await count(server, 'p_pair_b')], [1, 1]);
});

test('with auto-create off, a missing table or column is a 400 naming it', async (t) => {
  await exec(strict.baseUrl, 'create table p_strict (timestamp timestamp, v long) timestamp(timestamp) partition by DAY WAL');
  const table = await postIlp(strict.httpPort, Buffer.from('p_strict v=1i 1000\np_missing v=1i\n'));
  t.is(table.status, 400);
  t.deepEqual({ ...ilpErrorBody(table.text), errorId: '' }, { code: 'invalid', message: 'failed to parse line protocol:errors encountered on line(s):\nerror in line 2: table: p_missing; table does not exist, creating new tables is disabled', line: 2, errorId: '' });
  const column = await postIlp(strict.httpPort, Buffer.from('p_strict v=1i,extra=2i 1000\n'));
  t.is(column.status, 400);
  t.regex(ilpErrorBody(column.text).message, /error in line 1: table: p_strict, column: extra; column does not exist, creating new columns is disabled$/);
  t.is((await postIlp(strict.httpPort, Buffer.from('p_strict v=3i 1000\n'))).status, 204);
  t.is(await count(strict, 'p_strict'), 1);
});

test('table and column names that are invalid or would leave db/ are a 400, and nothing is created', async (t) => {
  for (const name of ['../p_escape', '.p_hidden', '..', 'p_a/b', 'p_a\\\\b']) {
    const response = await postIlp(server.httpPort, Buffer.from(`${name} v=1i\n`));
    t.is(response.status, 400, name);
    t.regex(ilpErrorBody(response.text).message, /; invalid table name$/, name);
  }
  for (const column of ['a.b', 'a/b', '..', 'a\\\\b']) {
    const response = await postIlp(server.httpPort, Buffer.from(`p_columns ${column}=1i\n`));
    t.is(response.status, 400, column);
    t.regex(ilpErrorBody(response.text).message, /; invalid column name: /, column);
  }
  t.false(existsSync(join(server.rootDir, 'p_escape')));
  t.deepEqual(readdirSync(join(server.rootDir, 'db')).filter((entry) => entry.startsWith('.p_') || entry.includes('p_columns') || entry.includes('p_escape')), []);
  t.false(await tableExists(server, 'p_columns'));
});

test('a client that leaves mid-body (plain or gzip) commits nothing and is no server error', async (t) => {
  const before = await unhandledErrors();
  for (const encoding of ['identity', 'gzip']) {
    const socket = await openSocket(server.httpPort);
    const head = `POST /write HTTP/1.1\r\nHost: x\r\nContent-Encoding: ${encoding}\r\nContent-Length: 100000\r\n\r\n`;
    socket.write(Buffer.concat([Buffer.from(head), encoding === 'gzip' ? gzipSync('p_left v=1i\n'.repeat(100)).subarray(0, 30) : Buffer.from('p_left v=1i\n'.repeat(10))]));
    await sleep(100);
    socket.destroy();
  }
  await sleep(300);
  t.is(await unhandledErrors(), before);
  t.false(await tableExists(server, 'p_left'));
});

/** Streams `lines` lines of about 50 bytes without holding the body: each row has a distinct id. */
function largeBody(lines: number): Readable {
  let next = 0;
  return new Readable({
    read() {
      if (next >= lines) {
        this.push(null);
        return;
      }
      const batch: string[] = [];
      for (const end = Math.min(lines, next + 2000); next < end; next++) batch.push(`p_large,sym=s${next % 7} id=${next}i,v=${next * 0.5} ${1_700_000_000_000_000 + next * 1000}t\n`);
      this.push(batch.join(''));
    },
  });
}

test.serial('a ~50 MB body streamed in is committed completely (spilled through the staged file), and a small one after it reuses that file', async (t) => {
  const lines = 900_000;
  const response = await postIlp(server.httpPort, largeBody(lines), {});
  t.is(response.status, 204, response.text);
  t.deepEqual(await rows(server.baseUrl, 'select count(), count_distinct(id), min(id), max(id), sum(v) from p_large'),
    [[lines, lines, 0, lines - 1, (lines * (lines - 1)) / 4]]);
  t.deepEqual(await rows(server.baseUrl, 'select count() from p_large where sym = \'s3\''), [[Math.ceil((lines - 3) / 7)]]);
  // The staged file is kept for the worker's next request, whose rows fill only its start: the small body's
  // rows, and none of the large body's bytes still past them, are what commit.
  const stagedFiles = (): string[] => readdirSync(join(server.rootDir, 'db', '.staging')).filter((name) => name.startsWith('ilp-'));
  t.true(stagedFiles().length <= 2, `at most one kept file per worker: ${stagedFiles().join(', ')}`);
  for (let round = 0; round < 4; round++) {
    const small = await postIlp(server.httpPort, Buffer.from(`p_large,sym=small id=${lines + round}i,v=1.5 ${1_800_000_000_000_000 + round}t\n`), {});
    t.is(small.status, 204, small.text);
  }
  t.deepEqual(await rows(server.baseUrl, 'select count(), max(id) from p_large'), [[lines + 4, lines + 3]]);
  t.deepEqual(await rows(server.baseUrl, 'select count(), sum(v) from p_large where sym = \'small\''), [[4, 6]]);
  t.true(stagedFiles().length <= 2, `the small requests reused the kept files: ${stagedFiles().join(', ')}`);
});

test.serial('concurrent requests to one table from 16 connections are each committed exactly once', async (t) => {
  const connections = 16;
  const requestsPerConnection = 25;
  const rowsPerRequest = 40;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  try {
    const statuses = await Promise.all(Array.from({ length: connections }, async (_unused, connection) => {
      const seen: number[] = [];
      for (let request = 0; request < requestsPerConnection; request++) {
        const first = (connection * requestsPerConnection + request) * rowsPerRequest;
        const body = Array.from({ length: rowsPerRequest }, (_row, k) => `p_group,conn=c${connection} id=${first + k}i ${1_700_000_000_000_000 + first + k}t\n`).join('');
        seen.push((await postIlp(server.httpPort, Buffer.from(body), { agent })).status);
      }
      return seen;
    }));
    t.deepEqual([...new Set(statuses.flat())], [204]);
  } finally {
    agent.destroy();
  }
  const total = connections * requestsPerConnection * rowsPerRequest;
  t.deepEqual(await rows(server.baseUrl, 'select count(), count_distinct(id), min(id), max(id) from p_group'), [[total, total, 0, total - 1]]);
  t.is(await unhandledErrors(), 0);
});
