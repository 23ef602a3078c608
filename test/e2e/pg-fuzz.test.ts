// 5,000 seeded malformed or truncated PostgreSQL protocol exchanges (pg-fuzz-cases.ts) against a real server:
// each connection gets an ErrorResponse, a normal answer, or is closed (or waits for the rest of a message it
// was promised); the server never crashes or logs an unhandled error, and a connection opened before the fuzz
// keeps answering queries throughout.
import test from 'ava';
import pg from 'pg';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { hasFrame, openRawPgSocket, passwordMessage, startupMessage, syncMessage } from '../helpers/pg-messages.js';
import { pgFuzzCase, PG_FUZZ_KINDS } from '../helpers/pg-fuzz-cases.js';

const CASES = 5000;
const CONCURRENT = 25;
const ANSWER_TIMEOUT_MS = 3000;
let server: TestServer;

type Outcome = 'answered' | 'error' | 'closed' | 'waiting' | 'disconnected';

async function runCase(seed: number): Promise<{ kind: string; outcome: Outcome }> {
  const fuzz = pgFuzzCase(seed);
  const raw = await openRawPgSocket(server.pgPort);
  try {
    if (fuzz.authenticate) {
      raw.socket.write(Buffer.concat([startupMessage({ user: 'admin', database: 'qdb' }), passwordMessage('quest')]));
      const ready = await raw.until((bytes) => hasFrame(bytes, 'Z'), ANSWER_TIMEOUT_MS);
      if (ready.closed || ready.timedOut) throw new Error(`seed ${seed}: no ReadyForQuery after login`);
    }
    const before = raw.received().length;
    raw.socket.write(fuzz.bytes);
    if (fuzz.disconnect) {
      raw.socket.destroy();
      return { kind: fuzz.kind, outcome: 'disconnected' };
    }
    if (fuzz.authenticate) raw.socket.write(syncMessage());
    const after = await raw.until((bytes) => hasFrame(bytes.subarray(before), 'Z'), ANSWER_TIMEOUT_MS);
    const answer = raw.received().subarray(before);
    if (after.closed) return { kind: fuzz.kind, outcome: hasFrame(answer, 'E') ? 'error' : 'closed' };
    if (after.timedOut) return { kind: fuzz.kind, outcome: 'waiting' };
    return { kind: fuzz.kind, outcome: hasFrame(answer, 'E') ? 'error' : 'answered' };
  } finally {
    raw.socket.destroy();
  }
}

test.before(async () => {
  server = await startServer({ env: { SVC_PG_AUTH_METHOD: 'cleartext', SVC_PG_NET_CONNECTION_LIMIT: '200' } });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

test('5,000 malformed exchanges: ErrorResponse or close, never a crash; other connections unaffected', async (t) => {
  t.timeout(600_000);
  const control = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest' });
  await control.connect();
  const outcomes = new Map<string, number>();
  const kinds = new Set<string>();
  for (let first = 1; first <= CASES; first += CONCURRENT) {
    const seeds = Array.from({ length: Math.min(CONCURRENT, CASES - first + 1) }, (_, k) => first + k);
    const results = await Promise.all(seeds.map(runCase));
    for (const result of results) {
      kinds.add(result.kind);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
    }
    if ((first - 1) % (CONCURRENT * 20) === 0) {
      const started = Date.now();
      t.is((await control.query('select 21 * 2 x')).rows[0].x, 42);
      t.true(Date.now() - started < 5000, 'the control connection answers while the fuzz runs');
    }
  }
  t.is((await control.query('select count(*) c from long_sequence(10)')).rows[0].c, '10');
  await control.end();
  t.log(Object.fromEntries(outcomes));
  t.deepEqual([...kinds].sort(), [...PG_FUZZ_KINDS].sort());
  t.true((outcomes.get('error') ?? 0) > CASES / 4, 'most malformed input is answered with an ErrorResponse');
  t.true((outcomes.get('answered') ?? 0) > 0, 'valid exchanges among them are answered normally');
  t.is(server.process.exitCode, null);
  const logDir = join(server.rootDir, 'log');
  const log = readdirSync(logDir).map((name) => readFileSync(join(logDir, name), 'utf8')).join('');
  t.deepEqual(log.split('\n').filter((line) => / C /.test(line)), [], 'no unhandled error was logged');
});
