// The PostgreSQL endpoint with psql (Debian postgresql-client, unchanged) and node-postgres: queries, several
// statements in one -c, an error pointing at its position; SCRAM-SHA-256 (the default), MD5 and cleartext
// logins; a wrong password or user refused with one message that does not say which was wrong, and logged; the
// read-only user refused writes; the connection limit; a SSLRequest answered 'N' so sslmode=prefer falls back,
// and TLS when a certificate is configured.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer, startServers, type TestServer } from '../helpers/server.js';
import { openRawPgSocket } from '../helpers/pg-messages.js';

let scramServer: TestServer;
let md5Server: TestServer;
let cleartextServer: TestServer;

interface PsqlRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function psql(server: TestServer, args: readonly string[], options: { user?: string; password?: string; sslmode?: string } = {}): PsqlRun {
  const run = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(server.pgPort), '-U', options.user ?? 'admin', '-d', 'qdb', '-X', '-A', '-t', ...args], {
    encoding: 'utf8', timeout: 30_000,
    env: { ...process.env, PGPASSWORD: options.password ?? 'quest', PGSSLMODE: options.sslmode ?? 'prefer', PGCONNECT_TIMEOUT: '10' },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function pgQuery(server: TestServer, text: string, user = 'admin', password = 'quest'): Promise<pg.QueryResult> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user, password, database: 'qdb' });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

function logText(server: TestServer): string {
  const dir = join(server.rootDir, 'log');
  return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('');
}

test.before(async () => {
  [scramServer, md5Server, cleartextServer] = await startServers([
    { workers: 1, env: { SVC_PG_READONLY_USER_ENABLED: 'true', SVC_PG_NET_CONNECTION_LIMIT: '3' } },
    { workers: 1, env: { SVC_PG_AUTH_METHOD: 'md5', SVC_PG_NET_HANDSHAKE_TIMEOUT: '500ms', SVC_PG_NET_IDLE_TIMEOUT: '1000ms' } },
    { workers: 1, env: { SVC_PG_AUTH_METHOD: 'cleartext' } },
  ]);
});

test.after.always(async () => {
  for (const server of [scramServer, md5Server, cleartextServer]) {
    await server?.stop();
    server?.cleanup();
  }
});

test.serial('psql: queries, several statements in one -c, and DDL/INSERT tags', (t) => {
  const created = psql(scramServer, ['-c', "create table p (ts timestamp, v long, s symbol) timestamp(ts) partition by day; insert into p values ('2024-01-01', 1, 'a'), ('2024-01-02', 2, null); select s, v from p order by v"]);
  t.is(created.status, 0, created.stderr);
  t.is(created.stdout, 'CREATE TABLE\nINSERT 0 2\na|1\n|2\n');
  const tags = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(scramServer.pgPort), '-U', 'admin', '-X', '-c', "insert into p values ('2024-01-03', 3, 'b')", '-c', 'update p set v = 30 where v = 3', '-c', 'begin', '-c', 'commit'], {
    encoding: 'utf8', env: { ...process.env, PGPASSWORD: 'quest' },
  });
  t.is(tags.stdout, 'INSERT 0 1\nUPDATE 1\nBEGIN\nCOMMIT\n');
});

test.serial('psql: \\dt lists the tables and \\d <table> describes one, through the pg_catalog relations', (t) => {
  const listed = psql(scramServer, ['-c', '\\dt']);
  t.is(listed.status, 0, listed.stderr);
  t.true(listed.stdout.split('\n').includes('public|p|table|admin'), listed.stdout);
  const described = psql(scramServer, ['-c', '\\d p']);
  t.is(described.status, 0, described.stderr);
  t.deepEqual(described.stdout.trim().split('\n'), ['ts|timestamp without time zone||not null|', 'v|bigint|||', 's|character varying|||']);
});

test.serial('psql: an error shows its message and points at its position', (t) => {
  const run = psql(scramServer, ['-c', 'select v, nope from p']);
  t.is(run.status, 1);
  t.true(run.stderr.includes('ERROR:  Invalid column: nope'), run.stderr);
  // psql draws the caret under the character the P field names (1-based 11: `nope`).
  const lines = run.stderr.split('\n');
  const query = lines.find((line) => line.startsWith('LINE 1: ')) ?? '';
  const caret = lines[lines.indexOf(query) + 1] ?? '';
  t.is(query.slice(caret.indexOf('^')), 'nope from p');
});

test.serial('SCRAM-SHA-256 (default), MD5 and cleartext logins all work with psql and node-postgres', async (t) => {
  for (const server of [scramServer, md5Server, cleartextServer]) {
    t.is(psql(server, ['-c', 'select 40 + 2']).stdout, '42\n');
    t.is((await pgQuery(server, 'select 41 + 1 x')).rows[0].x, 42);
  }
});

test.serial('a wrong password or an unknown user is refused with the same message, and logged', async (t) => {
  for (const server of [scramServer, md5Server, cleartextServer]) {
    const wrongPassword = psql(server, ['-c', 'select 1'], { password: 'nope' });
    const wrongUser = psql(server, ['-c', 'select 1'], { user: 'nobody' });
    t.is(wrongPassword.status, 2);
    t.true(wrongPassword.stderr.includes('FATAL:  invalid username/password'), wrongPassword.stderr);
    t.is(wrongUser.stderr.replace(/port \d+/, ''), wrongPassword.stderr.replace(/port \d+/, ''));
    const error = await t.throwsAsync(pgQuery(server, 'select 1', 'admin', 'bad'));
    t.is((error as { code?: string }).code, '28P01');
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.regex(logText(scramServer), /E pg authentication failed \[remote=127\.0\.0\.1:\d+, user="nobody", method=scram-sha-256\]/);
});

test.serial('the read-only user reads but is refused writes', async (t) => {
  t.is((await pgQuery(scramServer, 'select 5 x', 'user', 'quest')).rows[0].x, 5);
  const error = await t.throwsAsync(pgQuery(scramServer, 'create table ro (v long)', 'user', 'quest'));
  t.is((error as { code?: string }).code, '42501');
  t.is(error?.message, 'Write permission denied');
  // The read-write user is unaffected; the read-only one is off unless enabled.
  t.is((await pgQuery(scramServer, 'create table rw (v long)')).command, 'CREATE');
  await t.throwsAsync(pgQuery(md5Server, 'select 1', 'user', 'quest'));
});

test.serial('SSLRequest is answered N: sslmode=prefer falls back to plain text, require fails', (t) => {
  t.is(psql(cleartextServer, ['-c', 'select 1'], { sslmode: 'prefer' }).stdout, '1\n');
  const required = psql(cleartextServer, ['-c', 'select 1'], { sslmode: 'require' });
  t.is(required.status, 2);
  t.true(required.stderr.includes('server does not support SSL'), required.stderr);
});

test.serial('past pg.net.connection.limit a connection is refused with SQLSTATE 53300', async (t) => {
  const clients = [0, 1, 2].map(() => new pg.Client({ host: '127.0.0.1', port: scramServer.pgPort, user: 'admin', password: 'quest' }));
  await Promise.all(clients.map((client) => client.connect()));
  try {
    const error = await t.throwsAsync(pgQuery(scramServer, 'select 1'));
    t.is((error as { code?: string }).code, '53300');
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is((await pgQuery(scramServer, 'select 1 x')).rows[0].x, 1);
});

test.serial('handshake and idle timeouts close silent connections', async (t) => {
  const silent = await openRawPgSocket(md5Server.pgPort);
  const handshake = await silent.until(() => false, 5000);
  t.true(handshake.closed, 'a connection that never logs in is closed after pg.net.handshake.timeout');
  const idle = new pg.Client({ host: '127.0.0.1', port: md5Server.pgPort, user: 'admin', password: 'quest' });
  const ended = new Promise<void>((resolve) => idle.on('end', () => resolve()));
  idle.on('error', () => undefined);
  await idle.connect();
  t.is((await idle.query('select 1 x')).rows[0].x, 1);
  const started = Date.now();
  await ended;
  t.true(Date.now() - started >= 800, 'closed after pg.net.idle.timeout of silence');
});

test.serial('TLS after SSLRequest with pg.tls.cert.path/pg.tls.key.path: psql sslmode=require and node-postgres ssl', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-tls-'));
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { encoding: 'utf8' });
  t.is(made.status, 0, made.stderr);
  const tlsServer = await startServer({ workers: 1, env: { SVC_PG_TLS_CERT_PATH: join(dir, 'cert.pem'), SVC_PG_TLS_KEY_PATH: join(dir, 'key.pem') } });
  try {
    const info = psql(tlsServer, ['-c', '\\conninfo', '-c', 'select 6 * 7'], { sslmode: 'require' });
    t.is(info.status, 0, info.stderr);
    t.regex(info.stdout, /SSL connection \(protocol: TLSv1\.[23]/);
    t.regex(info.stdout, /\n42\n$/);
    const client = new pg.Client({ host: '127.0.0.1', port: tlsServer.pgPort, user: 'admin', password: 'quest', ssl: { rejectUnauthorized: false } });
    await client.connect();
    t.is((await client.query('select $1::int + 1 x', [1])).rows[0].x, 2);
    await client.end();
    // Plain text still works for clients that do not ask for TLS.
    t.is(psql(tlsServer, ['-c', 'select 1'], { sslmode: 'disable' }).stdout, '1\n');
  } finally {
    await tlsServer.stop();
    tlsServer.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});
