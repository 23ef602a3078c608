// Fuzz of the :9000 interface over raw sockets: at least 10,000 random and mutated requests (bad percent-
// encoding, invalid UTF-8, huge parameters, broken request lines and headers, truncated multipart bodies,
// byte-level mutations, slow clients) against two workers with authentication on. Every request must be
// answered below 500 or closed; no process may die; svc_unhandled_errors_total and 5xx counts stay 0.
// The seed is printed, and SVCTEST_FUZZ_SEED replays a run (SVCTEST_FUZZ_REQUESTS shortens it while debugging).
import test from 'ava';
import { connect } from 'node:net';
import { startServer, type TestServer } from '../helpers/server.js';
import { basicAuthorization, sleep } from '../helpers/raw-http.js';
import { nextFuzzCase, type FuzzCase } from '../helpers/fuzz-requests.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { multipartBody } from '../helpers/upload.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REQUESTS = Number(process.env['SVCTEST_FUZZ_REQUESTS'] ?? 10_000);
const CONCURRENCY = 48;
/** A request neither answered nor closed within this long counts as hung. */
const ANSWER_WAIT_MS = 10_000;
const AUTH = { good: basicAuthorization('fuzz', 'f:u:z:z') };

let server: TestServer;

test.before(async () => {
  server = await startServer({
    workers: 2,
    env: {
      SVC_HTTP_USER: 'fuzz', SVC_HTTP_PASSWORD: 'f:u:z:z', SVC_METRICS_ENABLED: 'true',
      SVC_HTTP_KEEP_ALIVE_TIMEOUT: '1s', SVC_HTTP_REQUEST_HEADERS_TIMEOUT: '2s', SVC_QUERY_TIMEOUT: '2s', SVC_HTTP_EXPORT_TIMEOUT: '2s',
    },
  });
  for (const statement of ['create table fz (x int, s symbol, v double, ts timestamp) timestamp(ts) partition by day', "insert into fz select x::int, rnd_symbol('a','b','c'), rnd_double(), timestamp_sequence('2024-01-01', 3600000000) from long_sequence(200)"]) {
    const response = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent(statement)}`, { headers: { Authorization: AUTH.good } });
    if (response.status !== 200) throw new Error(`${statement}: ${await response.text()}`);
  }
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

type Outcome = { readonly status: number } | { readonly closed: true } | { readonly hung: true };

function runCase(port: number, fuzzCase: FuzzCase): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let settled = false;
    const settle = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ hung: true }), ANSWER_WAIT_MS + fuzzCase.pauseMs * fuzzCase.chunks.length);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (match !== null) settle({ status: Number(match[1]) });
      else if (received.length > 12 || received.includes('\r\n')) settle({ status: -1 });
    });
    socket.on('error', () => settle({ closed: true }));
    socket.on('close', () => settle({ closed: true }));
    socket.on('connect', () => {
      void (async () => {
        for (const [index, chunk] of fuzzCase.chunks.entries()) {
          if (settled) return;
          if (index > 0 && fuzzCase.pauseMs > 0) await sleep(fuzzCase.pauseMs);
          socket.write(chunk);
        }
        if (fuzzCase.truncated && !settled) socket.end();
      })();
    });
  });
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function serverErrorResponses(): Promise<number> {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  return text.split('\n').filter((line) => /^svc_http_requests_total\{.*status="5\d\d"/.test(line)).reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** Requests that once made the server answer 500; each must now be a 400 query error. */
const REGRESSIONS = [
  "select lpad('a', 2000000000, 'b')",
  "select rpad('a', 2000000000)",
  'rename table fz to ".."',
  'rename table fz to "../escaped"',
  'rename table fz to "a/b"',
  'rename table fz to ".hidden"',
];

test.serial('an export file name with control or non-Latin-1 characters is cleaned, not a 500', async (t) => {
  const response = await fetch(`${server.baseUrl}/exp?query=select%201&filename=a%0D%0Ab%ED%BF%BF%C3%BF%E2%82%AC%22c`, { headers: { Authorization: AUTH.good } });
  t.is(response.status, 200);
  t.is(response.headers.get('content-disposition'), 'attachment; filename="a__b______c.csv"');
  await response.text();
});

test.serial('an import name that is too long or would leave db/ is refused, never a directory outside db/', async (t) => {
  const csv = multipartBody([{ name: 'data', filename: 'a.csv', content: 'a,b\n1,2\n3,4\n' }]);
  for (const [name, status] of [['x'.repeat(300), 400], ['../escaped_imp', 400], ['..', 400], ['/', 400]] as const) {
    const response = await fetch(`${server.baseUrl}/imp?fmt=json&name=${encodeURIComponent(name)}`, { method: 'POST', body: csv.body, headers: { Authorization: AUTH.good, 'Content-Type': csv.contentType } });
    t.is(response.status, status, `${name.slice(0, 20)}: ${await response.text()}`);
  }
  t.false(existsSync(join(server.rootDir, 'escaped_imp')), 'nothing was created beside db/');
  t.false(existsSync(join(server.rootDir, 'db', 'escaped_imp')), 'nor a cleaned-up name inside db/');
});

test.serial('statements that used to answer 500 (huge padding, table renamed out of db/) are 400 errors', async (t) => {
  for (const statement of REGRESSIONS) {
    const response = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent(statement)}`, { headers: { Authorization: AUTH.good } });
    t.is(response.status, 400, `${statement}: ${await response.text()}`);
  }
  const still = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent('select count() from fz')}`, { headers: { Authorization: AUTH.good } });
  t.is(still.status, 200, 'fz was not moved');
  t.is(await metric('svc_unhandled_errors_total'), 0);
});

test('10,000 hostile requests: each answered below 500 or closed, no crash, no unhandled error', async (t) => {
  const seed = Number(process.env['SVCTEST_FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
  t.log(`seed ${seed} (replay with SVCTEST_FUZZ_SEED=${seed})`);
  const random = seededRandom(seed);
  const statuses = new Map<string, number>();
  const failures: string[] = [];
  const timeByKind = new Map<string, number>();
  let sent = 0;
  const started = Date.now();
  const lane = async (): Promise<void> => {
    while (sent < REQUESTS) {
      sent++;
      const fuzzCase = nextFuzzCase(random, AUTH);
      const caseStarted = Date.now();
      const outcome = await runCase(server.httpPort, fuzzCase);
      timeByKind.set(fuzzCase.kind, (timeByKind.get(fuzzCase.kind) ?? 0) + Date.now() - caseStarted);
      const label = 'status' in outcome ? String(outcome.status) : 'closed' in outcome ? 'closed' : 'hung';
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
      if (('status' in outcome && (outcome.status >= 500 || outcome.status < 0)) || 'hung' in outcome) {
        if (failures.length < 20) failures.push(`${label} ${fuzzCase.kind}: ${JSON.stringify(Buffer.concat(fuzzCase.chunks).toString('latin1').slice(0, 300))}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const elapsedMs = Date.now() - started;
  t.log(`${sent} requests in ${(elapsedMs / 1000).toFixed(1)} s (${Math.round(sent / (elapsedMs / 1000))}/s): ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.log(`lane time by kind (ms): ${JSON.stringify(Object.fromEntries(timeByKind))}`);
  t.deepEqual(failures, []);
  t.true(sent >= REQUESTS);
  t.is(server.process.exitCode, null, 'the primary is alive');
  t.is(await metric('svc_worker_restarts_total'), 0, 'no worker died');
  t.is(await metric('svc_unhandled_errors_total'), 0, server.output().split('\n').filter((line) => / C /.test(line)).slice(0, 5).join('\n'));
  t.is(await serverErrorResponses(), 0);
  const after = await fetch(`${server.baseUrl}/exec?query=select%20count()%20from%20fz`, { headers: { Authorization: AUTH.good } });
  t.is(after.status, 200, 'still serving');
});
