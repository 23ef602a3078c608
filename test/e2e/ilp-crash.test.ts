// kill -9 of the primary while official ILP clients (@questdb/nodejs-client, retries off) write over HTTP: after a
// restart on the same root every row of every request that got 204 is present exactly once, and a request that
// got no 204 is all present or all absent, across both tables when it wrote two. Three kill points, one root.
import test from 'ava';
import { Sender } from '@questdb/nodejs-client';
import { startServer, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { seededRandom } from '../helpers/seeded-random.js';

const TABLE_A = 'ilp_crash_a';
const TABLE_B = 'ilp_crash_b';
/** Ids are (client * REQUESTS_MAX + request) * ROWS_MAX + row, so each row names its request. */
const ROWS_MAX = 10_000;
const REQUESTS_MAX = 100_000;
const DAY_MICROS = 86_400_000_000;
const START_MICROS = Date.UTC(2024, 0, 1) * 1000;

interface SentRequest {
  readonly client: number;
  readonly request: number;
  readonly rowsA: number;
  readonly rowsB: number;
  acknowledged: boolean;
}

function requestKey(client: number, request: number): number {
  return client * REQUESTS_MAX + request;
}

/** One request: rows for table A and, for a two-table client, rows for table B; timestamps spread over three days. */
async function writeRequest(sender: Sender, entry: SentRequest): Promise<void> {
  const base = requestKey(entry.client, entry.request) * ROWS_MAX;
  const day = (entry.request % 3) * DAY_MICROS;
  for (let row = 0; row < entry.rowsA; row++) {
    await sender.table(TABLE_A).symbol('client', `c${entry.client}`).intColumn('id', base + row).floatColumn('value', row / 4)
      .at(BigInt(START_MICROS + day + entry.request * 1000 + row), 'us');
  }
  for (let row = 0; row < entry.rowsB; row++) {
    await sender.table(TABLE_B).symbol('client', `c${entry.client}`).intColumn('id', base + entry.rowsA + row)
      .at(BigInt(START_MICROS + day + entry.request * 1000 + row), 'us');
  }
}

/** Sends requests until one fails (the kill); every request is logged before it is sent, and marked once it got 204. */
async function runClient(server: TestServer, client: number, twoTables: boolean, log: SentRequest[]): Promise<void> {
  // node:http transport with retry_timeout=0: a request is sent once, never resent. (The undici transport
  // keeps retrying a dead server past its retry_timeout.)
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off;stdlib_http=on;retry_timeout=0`, { log: () => undefined });
  const random = seededRandom(client * 7919 + 1);
  try {
    for (let request = 0; request < REQUESTS_MAX; request++) {
      const rowsA = 100 + Math.floor(random() * 1900);
      const rowsB = twoTables ? 50 + Math.floor(random() * 500) : 0;
      const entry: SentRequest = { client, request, rowsA, rowsB, acknowledged: false };
      await writeRequest(sender, entry);
      log.push(entry);
      try {
        await sender.flush();
      } catch {
        return;
      }
      entry.acknowledged = true;
    }
  } finally {
    await sender.close();
  }
}

/** Row counts per request key in one table; fails on an id no request sent or sent twice. */
async function countRows(t: import('ava').ExecutionContext, server: TestServer, table: string): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const found = (await rows(server.baseUrl, `select id, client from ${table}`)) as [number, string][];
  const seen = new Set<number>();
  for (const [id, client] of found) {
    if (seen.has(id)) t.fail(`${table}: id ${id} is present twice`);
    seen.add(id);
    const key = Math.floor(id / ROWS_MAX);
    if (client !== `c${Math.floor(key / REQUESTS_MAX)}`) t.fail(`${table}: id ${id} has client ${client}`);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Every acknowledged request is present exactly once; an unacknowledged one is whole in both tables or absent from both. */
async function checkRequests(t: import('ava').ExecutionContext, server: TestServer, log: readonly SentRequest[], label: string): Promise<void> {
  const countsA = await countRows(t, server, TABLE_A);
  const countsB = await countRows(t, server, TABLE_B);
  const known = new Set(log.map((entry) => requestKey(entry.client, entry.request)));
  for (const key of [...countsA.keys(), ...countsB.keys()]) if (!known.has(key)) t.fail(`${label}: rows of a request never sent (${key})`);
  let halves = 0;
  let lost = 0;
  for (const entry of log) {
    const key = requestKey(entry.client, entry.request);
    const a = countsA.get(key) ?? 0;
    const b = countsB.get(key) ?? 0;
    const whole = a === entry.rowsA && b === entry.rowsB;
    if (entry.acknowledged && !whole) lost++;
    if (!whole && a + b > 0) halves++;
    if (!whole && (entry.acknowledged || a + b > 0)) {
      t.log(`${label}: client ${entry.client} request ${entry.request} (acknowledged: ${entry.acknowledged}) has ${a}/${entry.rowsA} rows in A, ${b}/${entry.rowsB} in B`);
    }
  }
  t.is(lost, 0, `${label}: every request that got 204 is present, whole`);
  t.is(halves, 0, `${label}: no request is half-visible (within a table or across the two)`);
}

async function waitForAcknowledged(log: readonly SentRequest[], atLeast: number, afterMs: number): Promise<void> {
  const started = Date.now();
  const acknowledged = (): number => log.filter((entry) => entry.acknowledged).length;
  do await new Promise((resolve) => setTimeout(resolve, 20));
  while ((Date.now() - started < afterMs || acknowledged() < atLeast) && Date.now() - started < 20_000);
}

/** Kill points: milliseconds of writing before kill -9, and the commit mode of that round. */
const ROUNDS = [
  { writeMs: 400, commitMode: 'nosync' },
  { writeMs: 1100, commitMode: 'nosync' },
  { writeMs: 800, commitMode: 'sync' },
] as const;
const CLIENTS_PER_ROUND = 4;

test('requests acknowledged with 204 survive kill -9 of the primary; none is half-visible, across tables too', async (t) => {
  let server = await startServer({ workers: 2, env: { SVC_CAIRO_COMMIT_MODE: ROUNDS[0].commitMode } });
  const root = server.rootDir;
  const log: SentRequest[] = [];
  try {
    for (const [round, { writeMs }] of ROUNDS.entries()) {
      const roundLog: SentRequest[] = [];
      // Even clients write table A only, odd ones A and B in the same request, so groups mix both kinds.
      const clients = Array.from({ length: CLIENTS_PER_ROUND }, (_, k) => runClient(server, round * CLIENTS_PER_ROUND + k, k % 2 === 1, roundLog));
      await waitForAcknowledged(roundLog, 8, writeMs);
      await server.kill9();
      await Promise.all(clients);
      log.push(...roundLog);
      const acknowledged = roundLog.filter((entry) => entry.acknowledged).length;
      t.true(acknowledged >= 8, `round ${round}: ${acknowledged} of ${roundLog.length} requests got 204 before the kill`);
      const nextMode = ROUNDS[round + 1]?.commitMode ?? 'nosync';
      server = await startServer({ workers: 2, rootDir: root, env: { SVC_CAIRO_COMMIT_MODE: nextMode } });
      await checkRequests(t, server, log, `after kill ${round + 1}`);
    }
  } finally {
    await server.stop();
    server.cleanup();
  }
});
