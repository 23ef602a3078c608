// Request limits over real HTTP, one worker so every bound is met by one process: query text length, header
// size, request body size (but not /imp), concurrent requests (503 at once), keep-alive, header and idle timeouts,
// query.timeout, the Statement-Timeout header and http.export.timeout. After each limit is hit the server
// keeps serving other clients. Tests run one at a time: with only three request slots, one test's slow
// clients would take another's.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec } from '../helpers/http.js';
import { openSocket, rawRequest, readResponse, sleep } from '../helpers/raw-http.js';
import { importCsv, multipartBody } from '../helpers/upload.js';

let server: TestServer;

const LIMITS = {
  SVC_HTTP_MAX_CONCURRENT_REQUESTS: '3',
  SVC_HTTP_REQUEST_BODY_LIMIT: '2k',
  SVC_HTTP_QUERY_MAX_LENGTH: '200',
  SVC_HTTP_REQUEST_HEADER_BUFFER_SIZE: '4k',
  SVC_HTTP_KEEP_ALIVE_TIMEOUT: '500ms',
  SVC_HTTP_REQUEST_HEADERS_TIMEOUT: '1s',
  SVC_HTTP_NET_CONNECTION_TIMEOUT: '2s',
  SVC_QUERY_TIMEOUT: '300ms',
  SVC_HTTP_EXPORT_TIMEOUT: '600ms',
};
const SLOW_QUERY = 'select sum(x*x) from long_sequence(300000000)';

test.before(async () => {
  server = await startServer({ workers: 1, env: LIMITS });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

async function stillServing(t: import('ava').ExecutionContext): Promise<void> {
  const response = await exec(server.baseUrl, 'select 42');
  t.is(response.status, 200, 'the server keeps serving other clients');
}

test.serial('requests beyond http.max.concurrent.requests get 503 at once; slots free up when requests end', async (t) => {
  const { contentType } = multipartBody([]);
  const uploads = await Promise.all([0, 1, 2].map(async (i) => {
    const socket = await openSocket(server.httpPort);
    socket.write(`POST /imp?name=busy${i} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: 100000\r\n\r\n------svc-test-boundary\r\n`);
    return socket;
  }));
  await sleep(200);
  const started = Date.now();
  const refused = await exec(server.baseUrl, 'select 1');
  t.is(refused.status, 503);
  t.true(Date.now() - started < 1000, 'refused without queueing');
  t.is(refused.headers.get('retry-after'), '1');
  t.deepEqual(refused.json, { error: 'too many concurrent requests [max=3]', code: 'SVC_OVERLOADED' });
  for (const socket of uploads) socket.destroy();
  await sleep(200);
  await stillServing(t);
});

test.serial('an idle kept-alive connection is closed after http.keep-alive.timeout', async (t) => {
  const socket = await openSocket(server.httpPort);
  const reading = readResponse(socket);
  socket.write('GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\n\r\n');
  const response = await reading;
  t.is(response.status, 200);
  t.false(response.closed);
  const started = Date.now();
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const idleMs = Date.now() - started;
  t.true(idleMs >= 300 && idleMs < 2000, `closed after ${idleMs} ms`);
});

test.serial('query text longer than http.query.max.length is refused on execute, validate and export', async (t) => {
  const query = `select 1 /* ${'x'.repeat(250)} */`;
  for (const path of ['/exec', '/api/v1/sql/validate', '/exp']) {
    const response = await fetch(`${server.baseUrl}${path}?query=${encodeURIComponent(query)}`);
    t.is(response.status, 400, path);
    t.deepEqual(await response.json(), { query, error: `query text is too long [length=${query.length}, max=200]`, position: 200 }, path);
  }
  await stillServing(t);
});

test.serial('headers larger than http.request.header.buffer.size get 431', async (t) => {
  const response = await rawRequest(server.httpPort, `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(5000)}\r\n\r\n`);
  t.is(response.status, 431);
  t.true(response.closed);
  const longUrl = await rawRequest(server.httpPort, `GET /exec?query=${'1'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  t.is(longUrl.status, 431);
  await stillServing(t);
});

test.serial('bodies over http.request.body.limit get 413 everywhere but /imp', async (t) => {
  const declared = await rawRequest(server.httpPort, `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n${'b'.repeat(5000)}`);
  t.is(declared.status, 413);
  t.deepEqual(JSON.parse(declared.body), { error: 'request body is too large [max=2048 bytes]', code: 'SVC_PAYLOAD_TOO_LARGE' });
  t.regex(declared.head, /\r\nconnection: close/i);
  const chunk = 'c'.repeat(1000);
  const chunked = await rawRequest(server.httpPort, `GET /index.html HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${`3e8\r\n${chunk}\r\n`.repeat(3)}0\r\n\r\n`);
  t.true(chunked.status === 413 || chunked.status === undefined, chunked.head);
  t.true(chunked.closed || /\r\nconnection: close/i.test(chunked.head));
  const small = await rawRequest(server.httpPort, `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nConnection: close\r\n\r\n${'s'.repeat(100)}`);
  t.is(small.status, 200);
  const rows = Array.from({ length: 2000 }, (_, i) => `${i},${i * 2}`).join('\n');
  const imported = await importCsv(server.baseUrl, { name: 'big_upload', fmt: 'json' }, [{ name: 'data', filename: 'b.csv', content: `a,b\n${rows}\n` }]);
  t.is(imported.status, 200, imported.text);
  t.is((imported.json as { rowsImported: number }).rowsImported, 2000);
  await stillServing(t);
});

test.serial('a client that does not finish its headers within http.request.headers.timeout is answered 408 and closed', async (t) => {
  const socket = await openSocket(server.httpPort);
  const reading = readResponse(socket, 10_000);
  const started = Date.now();
  socket.write('GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\n');
  const response = await reading;
  socket.destroy();
  t.true(response.closed);
  t.true(response.status === 408 || response.status === undefined, response.head);
  t.true(Date.now() - started < 5000, `closed after ${Date.now() - started} ms`);
  await stillServing(t);
});

test.serial('an upload that stalls mid-body is closed after http.net.connection.timeout', async (t) => {
  const { contentType } = multipartBody([]);
  const socket = await openSocket(server.httpPort);
  const reading = readResponse(socket, 15_000);
  const started = Date.now();
  socket.write(`POST /imp?name=stalled HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: 100000\r\n\r\n------svc-test-boundary\r\nContent-Disposition: form-data; name="data"; filename="s.csv"\r\n\r\na,b\n1,2\n`);
  const response = await reading;
  const elapsedMs = Date.now() - started;
  t.true(response.closed);
  t.true(elapsedMs >= 1500 && elapsedMs < 8000, `closed after ${elapsedMs} ms`);
  const tables = await exec(server.baseUrl, "select count() from tables() where table_name = 'stalled'");
  t.deepEqual((tables.json as { dataset: unknown }).dataset, [[0]], 'the abandoned upload left no table behind');
  await stillServing(t);
});

test.serial('query.timeout bounds execute and CSV export; Statement-Timeout overrides it; http.export.timeout bounds Parquet', async (t) => {
  const timedOut = await exec(server.baseUrl, SLOW_QUERY);
  t.is(timedOut.status, 400);
  t.deepEqual(timedOut.json, { query: SLOW_QUERY, error: 'timeout, query aborted [timeout=300ms]', position: 0 });
  const header = await exec(server.baseUrl, SLOW_QUERY, {}, { headers: { 'Statement-Timeout': '100' } });
  t.regex(header.text, /\[timeout=100ms\]/);
  const csv = await fetch(`${server.baseUrl}/exp?query=${encodeURIComponent(SLOW_QUERY)}`);
  t.is(csv.status, 400);
  t.regex(await csv.text(), /\[timeout=300ms\]/);
  const parquet = await fetch(`${server.baseUrl}/exp?fmt=parquet&query=${encodeURIComponent(SLOW_QUERY)}`);
  t.is(parquet.status, 400);
  t.regex(await parquet.text(), /\[timeout=600ms\]/);
  await stillServing(t);
});

test.serial('Statement-Timeout bounds a write statement too: INSERT ... SELECT stops at its limit', async (t) => {
  t.is((await exec(server.baseUrl, 'create table bulk (x long)')).status, 200);
  const insert = 'insert into bulk select x from long_sequence(100000000)';
  // Before, /exec handed writes the server's query.timeout (300ms here) whatever the header said.
  const timedOut = await exec(server.baseUrl, insert, {}, { headers: { 'Statement-Timeout': '100' } });
  t.is(timedOut.status, 400);
  t.regex(timedOut.text, /timeout, query aborted \[timeout=100ms\]/);
  // It commits every insertSelectChunkRowsMax rows, so what it did before its limit stays; far from all of it.
  const rowsLeft = (await exec(server.baseUrl, 'select count() from bulk')).json as { dataset: number[][] };
  t.true((rowsLeft.dataset[0]?.[0] ?? -1) < 100_000_000);
  await stillServing(t);
});

test.serial('a write statement with a Statement-Timeout beyond setTimeout\'s range is answered, not a 503', async (t) => {
  // The writer client's timer took the header's value as it was: Node fires a delay over 2^31 - 1 ms after 1 ms,
  // so the worker gave up on the primary at once ("did not answer the write request in time", 503).
  for (const statement of ['drop table if exists nothing_here', 'create table huge_timeout (x long)', 'insert into huge_timeout values (1)']) {
    const answer = await exec(server.baseUrl, statement, {}, { headers: { 'Statement-Timeout': '99999999999' } });
    t.is(answer.status, 200, `${statement}: ${answer.text}`);
  }
  await stillServing(t);
});
