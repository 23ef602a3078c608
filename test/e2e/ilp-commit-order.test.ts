// ILP requests of one table whose parsing finishes out of their time order commit in time order: a request
// still being received announces where its rows start, and a later-starting request that is ready first waits
// for it, so both append and no partition is rewritten by an out-of-order merge (its version stays 0). A
// request whose client leaves mid-body holds nothing up: the later one commits at once.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { startServer, type TestServer } from '../helpers/server.js';
import { postIlp } from '../helpers/ilp-http.js';
import { rows } from '../helpers/http.js';
import { decodeTxn } from '../../src/storage/txn-file.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const DAY_NANOS = BigInt(Date.UTC(2024, 0, 1)) * 1_000_000n;
const SECOND_NANOS = 1_000_000_000n;

/** Lines of `table` at seconds [from, to) of 2024-01-01, one per second. */
function lines(table: string, from: number, to: number): Buffer {
  let text = '';
  for (let second = from; second < to; second++) text += `${table},host=h${second % 3} v=${second}i ${DAY_NANOS + BigInt(second) * SECOND_NANOS}\n`;
  return Buffer.from(text);
}

/** The committed partition entries of `table`, from its _txn. */
function partitions(table: string): { name: string; version: number }[] {
  const dbDir = join(server.rootDir, 'db');
  const dir = readdirSync(dbDir).find((name) => name === table || name.startsWith(`${table}~`));
  if (dir === undefined) throw new Error(`no directory of table ${table}`);
  const path = join(dbDir, dir, '_txn');
  return decodeTxn(readFileSync(path), path).partitions.map((entry) => ({ name: entry.name, version: entry.version }));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

test('a later request ready first waits for the earlier one still arriving, and both append', async (t) => {
  t.is((await postIlp(server.httpPort, lines('ordered', 0, 10))).status, 204);
  // The earlier request sends its first lines, then the rest (postIlp pauses 300 ms after each chunk, the last included); the later one is sent whole meanwhile.
  const earlier = postIlp(server.httpPort, [lines('ordered', 10, 20), lines('ordered', 20, 30)], { pauseMs: 300 });
  await sleep(200);
  const later = await postIlp(server.httpPort, lines('ordered', 30, 40));
  t.is(later.status, 204, later.text);
  t.is((await earlier).status, 204);
  t.deepEqual(await rows(server.baseUrl, 'select count(), min(v), max(v) from ordered'), [[40, 0, 39]]);
  t.deepEqual(partitions('ordered'), [{ name: '2024-01-01', version: 0 }], 'appended in time order: no merged version');
});

test('a request whose client leaves mid-body does not hold a later one', async (t) => {
  t.is((await postIlp(server.httpPort, lines('abandoned', 0, 10))).status, 204);
  const gone = request({ host: '127.0.0.1', port: server.httpPort, method: 'POST', path: '/write', headers: { 'Transfer-Encoding': 'chunked' } });
  gone.on('error', () => undefined);
  gone.write(lines('abandoned', 10, 20));
  await sleep(200);
  const later = postIlp(server.httpPort, lines('abandoned', 30, 40));
  await sleep(100);
  gone.destroy();
  const started = Date.now();
  t.is((await later).status, 204);
  // Without the withdrawal the later request would wait out the whole bound (ilpOrderWaitMsMax, 1 s).
  t.true(Date.now() - started < 700, `answered ${Date.now() - started} ms after the other client left`);
  t.deepEqual(await rows(server.baseUrl, 'select count() from abandoned'), [[20]]);
});
