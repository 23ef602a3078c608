// psycopg 3 and psycopg2 (Debian's python3-psycopg and python3-psycopg2, unchanged) against a real server, each
// through a script under pg-clients/ that prints what it saw as JSON. psycopg 3 binds server-side (extended
// protocol, text and binary results); psycopg2 interpolates client-side (simple protocol).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';

/** Debian's interpreter, where the apt packages live (not a pyenv shim earlier on PATH). */
const PYTHON = '/usr/bin/python3';
const scripts = join(import.meta.dirname, 'pg-clients');
let server: TestServer;

function runScript(name: string): Record<string, unknown> {
  const run = spawnSync(PYTHON, [join(scripts, name), String(server.pgPort)], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`${name} failed (${run.status}):\n${run.stderr}\n${run.stdout}`);
  const parsed: unknown = JSON.parse(run.stdout);
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${name} printed no object`);
  return parsed as Record<string, unknown>;
}

test.before(async () => {
  server = await startServer();
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

test('psycopg 3: every type round-trips through text and binary with NULLs; binding, prepared statements, transactions', (t) => {
  const out = runScript('psycopg3_check.py');
  // QuestDB's OIDs: timestamp, int4, int8, float8, float4, bool, varchar (varchar, symbol), uuid, int2 (short,
  // byte), bpchar, bytea, timestamp (date), varchar (ipv4).
  t.deepEqual(out['oids'], [1114, 23, 20, 701, 700, 16, 1043, 1043, 2950, 21, 21, 1042, 17, 1114, 1043]);
  const reads = out['reads'] as Record<string, unknown>;
  t.deepEqual(reads['text'], out['written']);
  t.deepEqual(reads['binary'], out['written']);
  t.deepEqual(out['bound'], [42, "it's; drop table types"]);
  t.deepEqual(out['many'], [200, 19900]);
  t.deepEqual(out['prepared'], [0, 10, 20, 30, 40, 50, 60, 70]);
  t.deepEqual(out['error'], { sqlstate: '42703', position: '8', message: 'Invalid column: nope' });
  t.is(out['timeFilter'], 10);
  t.is(out['inTransaction'], 'INTRANS');
  t.is(out['afterCommit'], 'IDLE');
  t.is(out['countAfter'], 201);
});

test('psycopg2: client-side parameters over the simple protocol, typed reads, an error with its SQLSTATE', (t) => {
  const out = runScript('psycopg2_check.py');
  t.deepEqual(out['grouped'], [['a', 4, 12], ['b', 4, 10]]);
  t.deepEqual(out['typed'], [['2024-01-01T00:00:00', 0], ['2024-01-01T01:00:00', 0.5]]);
  t.deepEqual(out['lastOfMany'], [[2]]);
  t.deepEqual(out['error'], { pgcode: '42P01', position: '15' });
  t.is(out['count'], 10);
});
