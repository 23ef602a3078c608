// COPY <table> FROM STDIN over the PostgreSQL protocol with real clients (psql, psycopg 3) and raw messages:
// text and CSV formats, NULLs and escapes, a header, the import's atomicity (a bad value or CopyFail commits
// nothing), the read-only user refused, and COPY refused over /exec.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec } from '../helpers/http.js';
import { cstring, hasFrame, openRawPgSocket, passwordMessage, queryMessage, startupMessage, typedMessage } from '../helpers/pg-messages.js';

let server: TestServer;

function psqlCopy(sql: string, input: string, user = 'admin'): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(server.pgPort), '-U', user, '-X', '-A', '-t', '-c', sql], {
    input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, PGPASSWORD: 'quest' },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function query(text: string): Promise<unknown[][]> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest' });
  await client.connect();
  try {
    return (await client.query({ text, rowMode: 'array' })).rows;
  } finally {
    await client.end();
  }
}

test.before(async () => {
  server = await startServer({ env: { SVC_PG_READONLY_USER_ENABLED: 'true' } });
  await query('create table cp (ts timestamp, v double, s symbol, note varchar, n long) timestamp(ts) partition by day');
  await query('create table bulk (ts timestamp, v double, s symbol, n long) timestamp(ts) partition by day');
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

test.serial('psql: text format with \\N and escapes, then CSV with a header and quoted fields', async (t) => {
  const text = psqlCopy('copy cp from stdin', '2024-01-01T00:00:00.000000Z\t1.5\ta\tplain\t1\n2024-01-01T00:00:01.000000Z\t\\N\tb\ttab\\there, "q"\t\\N\n');
  t.is(text.stdout, 'COPY 2\n', text.stderr);
  const csv = psqlCopy('copy cp from stdin with (format csv, header true)', 'ts,v,s,note,n\n2024-01-02T00:00:00Z,2.5,c,"x,y ""z""",3\n2024-01-02T00:00:01Z,,,,4\n');
  t.is(csv.stdout, 'COPY 2\n', csv.stderr);
  t.deepEqual(await query('select v, s, note, n from cp order by ts'), [
    [1.5, 'a', 'plain', '1'],
    [null, 'b', 'tab\there, "q"', null],
    [2.5, 'c', 'x,y "z"', '3'],
    [null, null, null, '4'],
  ]);
});

test.serial('a value that does not convert fails the whole COPY: nothing is committed', async (t) => {
  const before = await query('select count(*) from cp');
  const run = psqlCopy('copy cp from stdin', '2024-01-03T00:00:00Z\t1\ta\tok\t1\n2024-01-03T00:00:01Z\tnot-a-number\ta\tbad\t2\n');
  t.is(run.status, 1);
  t.regex(run.stderr, /ERROR:/);
  t.deepEqual(await query('select count(*) from cp'), before);
});

test.serial('CopyFail abandons the COPY and the connection goes on', async (t) => {
  // Raw frames log in with a cleartext password (the main test server speaks SCRAM).
  const cleartext = await startServer({ workers: 1, env: { SVC_PG_AUTH_METHOD: 'cleartext' } });
  try {
    const session = await openRawPgSocket(cleartext.pgPort);
    session.socket.write(Buffer.concat([startupMessage({ user: 'admin' }), passwordMessage('quest'), queryMessage('create table f (v long)')]));
    await session.until((bytes) => bytes.toString('latin1').includes('CREATE TABLE'), 10_000);
    const mark = session.received().length;
    session.socket.write(Buffer.concat([queryMessage('copy f from stdin'), typedMessage('d', Buffer.from('1\n2\n')), typedMessage('f', cstring('client gave up')), queryMessage('select count(*) from f')]));
    await session.until((bytes) => bytes.subarray(mark).toString('latin1').includes('SELECT 1'), 10_000);
    const answer = session.received().subarray(mark).toString('latin1');
    t.true(hasFrame(session.received().subarray(mark), 'G'), 'CopyInResponse');
    t.regex(answer, /COPY from stdin failed: client gave up/);
    t.regex(answer, /D\0\0\0\x0b\0\x01\0\0\0\x010/, 'count(*) is 0');
    session.socket.destroy();
  } finally {
    await cleartext.stop();
    cleartext.cleanup();
  }
});

test.serial('psycopg 3 copy API: 10,000 rows with NULLs', (t) => {
  const run = spawnSync('/usr/bin/python3', [join(import.meta.dirname, 'pg-clients', 'psycopg3_copy.py'), String(server.pgPort)], { encoding: 'utf8', timeout: 120_000 });
  t.is(run.status, 0, run.stderr);
  t.deepEqual(JSON.parse(run.stdout), { copied: 10000, count: 10000, sum: 49995000 - 4995000, nonNull: 9000, first: '2024-02-01T00:00:00', last: '2024-02-01T02:46:39' });
});

test.serial('COPY is refused for the read-only user, for a missing table, and over /exec', async (t) => {
  const readOnly = psqlCopy('copy cp from stdin', '2024-01-01T00:00:00Z\t1\ta\tx\t1\n', 'user');
  t.regex(readOnly.stderr, /Write permission denied/);
  const missing = psqlCopy('copy nowhere from stdin', '1\n');
  t.regex(missing.stderr, /table does not exist \[table=nowhere\]/);
  const overHttp = await exec(server.baseUrl, 'copy cp from stdin');
  t.is(overHttp.status, 400);
  t.regex(overHttp.text, /COPY FROM STDIN is served by the PostgreSQL wire protocol only/);
});
