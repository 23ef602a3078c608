// HTTP basic authentication over real HTTP, with two workers: every :9000 endpoint (execute, validate, export,
// import, static paths) refuses missing or wrong credentials with 401 + a Basic challenge + a JSON body, and
// accepts the configured ones, including a password with colons. Failures are logged at E with the remote
// address and without the password. The :9003 health server needs no credentials.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { basicAuthorization, rawRequest } from '../helpers/raw-http.js';
import { multipartBody } from '../helpers/upload.js';

const USER = 'admin';
const PASSWORD = 'pa:ss:w0rd';
const GOOD = basicAuthorization(USER, PASSWORD);

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2, env: { SVC_HTTP_USER: USER, SVC_HTTP_PASSWORD: PASSWORD } });
  const created = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent('create table auth_t (x int, ts timestamp) timestamp(ts)')}`, { headers: { Authorization: GOOD } });
  if (created.status !== 200) throw new Error(await created.text());
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

interface Probe {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Status with the right credentials. */
  readonly okStatus: number;
}

const csv = multipartBody([{ name: 'data', filename: 'a.csv', content: 'a,b\n1,2\n3,4\n' }]);

const PROBES: readonly Probe[] = [
  { name: 'exec', method: 'GET', path: '/exec?query=select%201', okStatus: 200 },
  { name: 'execute', method: 'GET', path: '/api/v1/sql/execute?query=select%201', okStatus: 200 },
  { name: 'validate', method: 'GET', path: '/api/v1/sql/validate?query=select%201', okStatus: 200 },
  { name: 'exp', method: 'GET', path: '/exp?query=select%201', okStatus: 200 },
  { name: 'imp', method: 'POST', path: '/imp?name=auth_imp', okStatus: 200 },
  { name: 'static file', method: 'GET', path: '/index.html', okStatus: 200 },
  { name: 'root', method: 'GET', path: '/', okStatus: 200 },
  { name: 'unknown path', method: 'GET', path: '/no/such/path', okStatus: 404 },
];

function send(probe: Probe, authorization: string | undefined): Promise<Response> {
  const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
  if (probe.method === 'POST') {
    return fetch(`${server.baseUrl}${probe.path}`, { method: 'POST', body: csv.body, headers: { ...headers, 'Content-Type': csv.contentType } });
  }
  return fetch(`${server.baseUrl}${probe.path}`, { headers });
}

async function assertUnauthorized(t: import('ava').ExecutionContext, response: Response, what: string): Promise<void> {
  t.is(response.status, 401, what);
  t.is(response.headers.get('www-authenticate'), 'Basic realm="svc", charset="UTF-8"', what);
  t.regex(response.headers.get('content-type') ?? '', /^application\/json/, what);
  t.deepEqual(await response.json(), { error: 'Unauthorized', code: 'SVC_AUTH_REQUIRED' }, what);
}

const WRONG: readonly [string, string | undefined][] = [
  ['no Authorization header', undefined],
  ['wrong password', basicAuthorization(USER, 'nope')],
  ['wrong user', basicAuthorization('root', PASSWORD)],
  ['password cut at its first colon', basicAuthorization(USER, 'pa')],
  ['user and password swapped', basicAuthorization(PASSWORD.replaceAll(':', ''), USER)],
  ['empty Basic value', 'Basic '],
  ['not Base64', 'Basic !!!not-base64!!!'],
  ['Base64 without a colon', `Basic ${Buffer.from('adminpassword').toString('base64')}`],
  ['credentials encoded with a trailing newline', `Basic ${Buffer.from(`${USER}:${PASSWORD}\n`).toString('base64')}`],
  ['credentials encoded with a trailing CRLF', `Basic ${Buffer.from(`${USER}:${PASSWORD}\r\n`).toString('base64')}`],
  ['Base64 with a line break inside', `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64').replace(/^(.{4})/, '$1 ')}`],
  ['unknown scheme', `Digest ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`],
  ['unknown bearer token', 'Bearer svc_nosuchtoken'],
];

for (const probe of PROBES) {
  test(`${probe.name}: 401 with every kind of missing or wrong credentials`, async (t) => {
    for (const [what, authorization] of WRONG) await assertUnauthorized(t, await send(probe, authorization), `${probe.name}, ${what}`);
  });

  test(`${probe.name}: the right credentials (password with colons) are let through`, async (t) => {
    const response = await send(probe, GOOD);
    t.is(response.status, probe.okStatus, await response.text());
    const lowerScheme = await send(probe, GOOD.replace('Basic', 'basic'));
    t.is(lowerScheme.status, probe.okStatus, 'the scheme name is case-insensitive');
    await lowerScheme.text();
  });
}

test('a raw request whose Authorization line carries an encoded newline is refused; the server keeps serving', async (t) => {
  const encoded = Buffer.from(`${USER}:${PASSWORD}\n`).toString('base64');
  const response = await rawRequest(server.httpPort, `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${encoded}\r\nConnection: close\r\n\r\n`);
  t.is(response.status, 401);
  const good = await rawRequest(server.httpPort, `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nAuthorization: ${GOOD}\r\nConnection: close\r\n\r\n`);
  t.is(good.status, 200);
});

test('failed attempts are logged at E with the remote address and never the password', async (t) => {
  const secret = 'very-secret-guess-42';
  const response = await fetch(`${server.baseUrl}/exec?query=select%201`, { headers: { Authorization: basicAuthorization('mallory', secret) } });
  t.is(response.status, 401);
  await response.text();
  const deadline = Date.now() + 5000;
  let line: string | undefined;
  while (line === undefined && Date.now() < deadline) {
    line = server.output().split('\n').find((text) => text.includes('authentication failed') && text.includes('mallory'));
    if (line === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.truthy(line, server.output());
  t.regex(line ?? '', / E http-auth authentication failed \[remote=(::ffff:)?127\.0\.0\.1, reason=wrong credentials, user="mallory"/);
  t.false(server.output().includes(secret));
  t.false(server.output().includes(PASSWORD));
});

test('the :9003 health server does not ask for credentials', async (t) => {
  const response = await fetch(`${server.adminUrl}/`);
  t.is(response.status, 200);
  t.is(await response.text(), 'Status: Healthy');
});
