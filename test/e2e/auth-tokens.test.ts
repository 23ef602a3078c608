// Bearer tokens over real HTTP with two workers: service accounts and REST tokens are managed with SQL under
// the configured user's credentials; a token authorises requests on every worker, is stored only as a sha256
// digest, expires at its TTL and is refused everywhere as soon as DROP TOKEN (or a replacing CREATE TOKEN,
// or DROP SERVICE ACCOUNT) has answered. Tokens survive a restart.
import test from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { startServer, type TestServer } from '../helpers/server.js';
import { basicAuthorization, sleep } from '../helpers/raw-http.js';

const ADMIN = basicAuthorization('admin', 'quest');
const ENV = { SVC_HTTP_USER: 'admin', SVC_HTTP_PASSWORD: 'quest' };

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2, env: ENV });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One request on its own connection, so a series of them is spread over both workers' accept queues. */
function get(path: string, authorization: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.httpPort, path, agent: false, headers: { Authorization: authorization, Connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function sql(query: string, authorization = ADMIN): Promise<Answer> {
  return get(`/exec?query=${encodeURIComponent(query)}`, authorization);
}

async function sqlOk(query: string): Promise<Record<string, unknown>> {
  const answer = await sql(query);
  if (answer.status !== 200) throw new Error(`${query} → ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body) as Record<string, unknown>;
}

async function createToken(account: string, ttl?: string): Promise<{ token: string; expiresAt: string }> {
  const body = await sqlOk(`ALTER SERVICE ACCOUNT ${account} CREATE TOKEN TYPE REST${ttl === undefined ? '' : ` WITH TTL '${ttl}'`}`);
  assertTokenColumns(body);
  const row = (body['dataset'] as string[][])[0] ?? [];
  return { token: row[1] ?? '', expiresAt: row[2] ?? '' };
}

function assertTokenColumns(body: Record<string, unknown>): void {
  const columns = body['columns'] as { name: string }[];
  if (columns.map((column) => column.name).join(',') !== 'name,access_token,expires_at') throw new Error(JSON.stringify(body));
}

/** Statuses of `count` fresh-connection requests made with the token. */
async function statusesWith(token: string, count = 24): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, () => sql('select 1', `Bearer ${token}`)));
  return answers.map((answer) => answer.status);
}

test('a token is returned once, stored only as its digest, and authorises on every worker', async (t) => {
  t.deepEqual(await sqlOk('CREATE SERVICE ACCOUNT ingest'), { ddl: 'OK' });
  const { token, expiresAt } = await createToken('ingest', '1h');
  t.regex(token, /^svc_[A-Za-z0-9_-]{43}$/);
  const expires = Date.parse(expiresAt);
  t.true(Math.abs(expires - (Date.now() + 3_600_000)) < 60_000, expiresAt);
  t.deepEqual(await statusesWith(token), Array(24).fill(200));
  for (const path of ['/api/v1/sql/validate?query=select%201', '/exp?query=select%201', '/index.html']) {
    t.not((await get(path, `Bearer ${token}`)).status, 401, path);
  }
  const file = readFileSync(join(server.rootDir, 'conf', 'service-accounts.json'), 'utf8');
  t.false(file.includes(token));
  t.true(file.includes(createHash('sha256').update(token).digest('hex')));
});

test('DROP TOKEN revokes at once on every worker', async (t) => {
  await sqlOk('CREATE SERVICE ACCOUNT revoked');
  const { token } = await createToken('revoked');
  t.deepEqual(await statusesWith(token), Array(24).fill(200));
  t.deepEqual(await sqlOk('ALTER SERVICE ACCOUNT revoked DROP TOKEN TYPE REST'), { ddl: 'OK' });
  t.deepEqual(await statusesWith(token, 40), Array(40).fill(401));
});

test('a new token replaces the old one, and DROP SERVICE ACCOUNT revokes its token', async (t) => {
  await sqlOk('CREATE SERVICE ACCOUNT rotating');
  const first = await createToken('rotating');
  const second = await createToken('rotating');
  t.deepEqual(await statusesWith(first.token), Array(24).fill(401));
  t.deepEqual(await statusesWith(second.token), Array(24).fill(200));
  const wrongDrop = await sql(`ALTER SERVICE ACCOUNT rotating DROP TOKEN TYPE REST '${first.token}'`);
  t.is(wrongDrop.status, 400, 'a token that is not the account\'s current one cannot be dropped by text');
  await sqlOk('DROP SERVICE ACCOUNT rotating');
  t.deepEqual(await statusesWith(second.token, 40), Array(40).fill(401));
});

test('a token expires at its TTL on every worker', async (t) => {
  await sqlOk('CREATE SERVICE ACCOUNT shortlived');
  const { token } = await createToken('shortlived', '2s');
  t.deepEqual(await statusesWith(token), Array(24).fill(200));
  await sleep(2300);
  t.deepEqual(await statusesWith(token, 40), Array(40).fill(401));
});

test('a token cannot manage service accounts; mistakes in the statements are positioned errors', async (t) => {
  await sqlOk('CREATE SERVICE ACCOUNT limited');
  const { token } = await createToken('limited');
  const minted = await sql('ALTER SERVICE ACCOUNT limited CREATE TOKEN TYPE REST', `Bearer ${token}`);
  t.is(minted.status, 403);
  t.regex(minted.body, /Write permission denied/);
  t.is((await sql('CREATE TABLE from_token (x int)', `Bearer ${token}`)).status, 200, 'ordinary statements are allowed');
  const duplicate = await sql('CREATE SERVICE ACCOUNT limited');
  t.is(duplicate.status, 400);
  t.deepEqual(JSON.parse(duplicate.body), { query: 'CREATE SERVICE ACCOUNT limited', error: 'service account already exists [name=limited]', position: 23 });
  const missing = await sql('ALTER SERVICE ACCOUNT nobody CREATE TOKEN TYPE REST');
  t.is(JSON.parse(missing.body).position, 22);
  const badTtl = await sql("ALTER SERVICE ACCOUNT limited CREATE TOKEN TYPE REST WITH TTL 'soon'");
  t.is(badTtl.status, 400);
  t.is(JSON.parse(badTtl.body).position, 62);
  const badType = await sql('ALTER SERVICE ACCOUNT limited CREATE TOKEN TYPE JWK');
  t.is(badType.status, 400);
  const validated = await get(`/api/v1/sql/validate?query=${encodeURIComponent('CREATE SERVICE ACCOUNT x')}`, ADMIN);
  t.deepEqual(JSON.parse(validated.body), { queryType: 'CREATE SERVICE ACCOUNT' });
});

test.serial('tokens survive a restart', async (t) => {
  await sqlOk('CREATE SERVICE ACCOUNT durable');
  const { token } = await createToken('durable');
  await server.stop();
  server = await startServer({ workers: 2, env: ENV, rootDir: server.rootDir });
  t.deepEqual(await statusesWith(token), Array(24).fill(200));
});
