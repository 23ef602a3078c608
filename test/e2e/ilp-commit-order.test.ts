// ILP requests of one table whose bodies finish arriving out of their time order commit in time order: a
// request still being received announces where its rows start, and a later-starting request that is ready first
// waits for it (line.http.commit.order.wait), so both append and no partition is rewritten by an out-of-order
// merge (its version stays 0). A request whose client leaves mid-body, or whose worker dies, holds nothing up; a
// slow sender holds the others for one bound at most; with the key at 0 nothing waits.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request, type ClientRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { startServer, type TestServer } from '../helpers/server.js';
import { postIlp, type IlpResponse } from '../helpers/ilp-http.js';
import { rows } from '../helpers/http.js';
import { decodeTxn } from '../../src/storage/txn-file.js';

/** The default bound (line.http.commit.order.wait = 1000ms). */
const WAIT_MS = 1000;
/** How long the slow request pauses between its two chunks (postIlp pauses after the last one too). */
const PAUSE_MS = 300;

let ordered: TestServer;
let unordered: TestServer;

test.before(async () => {
  [ordered, unordered] = await Promise.all([
    startServer({ workers: 2 }),
    startServer({ workers: 2, env: { SVC_LINE_HTTP_COMMIT_ORDER_WAIT: '0' } }),
  ]);
});

test.after.always(async () => {
  await Promise.all([ordered?.stop(), unordered?.stop()]);
  ordered?.cleanup();
  unordered?.cleanup();
});

const DAY_NANOS = BigInt(Date.UTC(2024, 0, 1)) * 1_000_000n;
const SECOND_NANOS = 1_000_000_000n;

/** Lines of `table` at seconds [from, to) of 2024-01-01, one per second, field v = the second. */
function lines(table: string, from: number, to: number): Buffer {
  let text = '';
  for (let second = from; second < to; second++) text += `${table},host=h${second % 3} v=${second}i ${DAY_NANOS + BigInt(second) * SECOND_NANOS}\n`;
  return Buffer.from(text);
}

/** The whole numbers [from, to), as the rows of a one-column result. */
function column(from: number, to: number): number[][] {
  return Array.from({ length: to - from }, (_, index) => [from + index]);
}

/** The committed partition entries of `table` on `server`, from its _txn. */
function partitions(server: TestServer, table: string): { name: string; version: number }[] {
  const dbDir = join(server.rootDir, 'db');
  const dir = readdirSync(dbDir).find((name) => name === table || name.startsWith(`${table}~`));
  if (dir === undefined) throw new Error(`no directory of table ${table}`);
  const path = join(dbDir, dir, '_txn');
  return decodeTxn(readFileSync(path), path).partitions.map((entry) => ({ name: entry.name, version: entry.version }));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Posts `body` whole and says when the answer came, in ms after the post. */
async function timedPost(server: TestServer, body: Buffer): Promise<{ response: IlpResponse; elapsedMs: number }> {
  const started = Date.now();
  const response = await postIlp(server.httpPort, body);
  return { response, elapsedMs: Date.now() - started };
}

/** The later request is sent this long after the earlier one started, and the earlier body ends this long after it. */
const LATER_SENT_MS = PAUSE_MS / 2;
const EARLIER_ENDS_AFTER_LATER_MS = 2 * PAUSE_MS - LATER_SENT_MS;

/**
 * Seconds 0-9 committed, then the earlier request (10-29) sends its first half, pauses, sends the rest and pauses
 * again before ending; the later one (30-39) is sent whole meanwhile. Resolves with the later one's answer.
 */
async function racePair(server: TestServer, table: string): Promise<{ later: IlpResponse; laterMs: number }> {
  const base = await postIlp(server.httpPort, lines(table, 0, 10));
  if (base.status !== 204) throw new Error(`the first rows were refused: ${base.text}`);
  const earlier = postIlp(server.httpPort, [lines(table, 10, 20), lines(table, 20, 30)], { pauseMs: PAUSE_MS });
  await sleep(LATER_SENT_MS);
  const later = await timedPost(server, lines(table, 30, 40));
  const earlierResponse = await earlier;
  if (earlierResponse.status !== 204) throw new Error(`the earlier request was refused: ${earlierResponse.text}`);
  return { later: later.response, laterMs: later.elapsedMs };
}

test.serial('a later request ready first is answered only after the earlier one arrived, and both append', async (t) => {
  const { later, laterMs } = await racePair(ordered, 'ordered');
  t.is(later.status, 204, later.text);
  t.true(laterMs >= EARLIER_ENDS_AFTER_LATER_MS - 50, `the later request waited for the earlier one (answered after ${laterMs} ms)`);
  t.true(laterMs < WAIT_MS - 100, `released by the earlier one's arrival, not by the bound (${laterMs} ms)`);
  t.deepEqual(await rows(ordered.baseUrl, 'select v from ordered'), column(0, 40), 'every row, in time order');
  t.deepEqual(partitions(ordered, 'ordered'), [{ name: '2024-01-01', version: 0 }], 'appended in time order: no merged version');
});

test.serial('with line.http.commit.order.wait=0 the later request commits at once and the earlier one is merged', async (t) => {
  const { later, laterMs } = await racePair(unordered, 'unordered');
  t.is(later.status, 204, later.text);
  t.true(laterMs < EARLIER_ENDS_AFTER_LATER_MS - 100, `not held (answered after ${laterMs} ms)`);
  t.deepEqual(await rows(unordered.baseUrl, 'select v from unordered'), column(0, 40), 'every row, in time order');
  const [partition] = partitions(unordered, 'unordered');
  t.true(partition !== undefined && partition.version > 0, 'the earlier request became an out-of-order merge (a new partition version)');
});

test.serial('a request whose client leaves mid-body does not hold a later one', async (t) => {
  t.is((await postIlp(ordered.httpPort, lines('abandoned', 0, 10))).status, 204);
  const gone = request({ host: '127.0.0.1', port: ordered.httpPort, method: 'POST', path: '/write', headers: { 'Transfer-Encoding': 'chunked' } });
  gone.on('error', () => undefined);
  gone.write(lines('abandoned', 10, 20));
  await sleep(200);
  let answered = false;
  const later = postIlp(ordered.httpPort, lines('abandoned', 30, 40)).finally(() => { answered = true; });
  await sleep(100);
  t.false(answered, 'held while the abandoned request is being received');
  gone.destroy();
  const started = Date.now();
  t.is((await later).status, 204);
  // Without the withdrawal the later request would wait out the whole bound.
  t.true(Date.now() - started < WAIT_MS * 0.7, `answered ${Date.now() - started} ms after the other client left`);
  t.deepEqual(await rows(ordered.baseUrl, 'select v from abandoned'), column(0, 10).concat(column(30, 40)));
});

test.serial('a slow sender holds the others once, for the bound at most', async (t) => {
  t.is((await postIlp(ordered.httpPort, lines('slow', 0, 10))).status, 204);
  // Its first lines arrive, then nothing for well over the bound.
  const slow = postIlp(ordered.httpPort, [lines('slow', 10, 20), lines('slow', 20, 30)], { pauseMs: WAIT_MS * 2.5 });
  await sleep(200);
  const first = await timedPost(ordered, lines('slow', 30, 40));
  t.is(first.response.status, 204, first.response.text);
  t.true(first.elapsedMs >= WAIT_MS - 50, `the first request behind it waited the bound (${first.elapsedMs} ms)`);
  t.true(first.elapsedMs < WAIT_MS * 2, `and no longer (${first.elapsedMs} ms)`);
  const second = await timedPost(ordered, lines('slow', 40, 50));
  t.is(second.response.status, 204, second.response.text);
  t.true(second.elapsedMs < WAIT_MS / 2, `the slow sender holds nobody again (${second.elapsedMs} ms)`);
  t.is((await slow).status, 204);
  t.deepEqual(await rows(ordered.baseUrl, 'select v from slow'), column(0, 50), 'every row, in time order');
});

/** The pid of the server process holding the server side of the loopback connection from `clientPort`. */
function ownerPid(serverPort: number, clientPort: number): number | undefined {
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( sport = :${serverPort} and dport = :${clientPort} )`], { encoding: 'utf8' });
  const match = /pid=(\d+)/.exec(out);
  return match === null ? undefined : Number(match[1]);
}

async function connected(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** A connection to `port` served by another worker than `pid` (the primary hands connections out in turn). */
async function connectionAvoiding(port: number, pid: number): Promise<Socket> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const socket = await connected(port);
    await sleep(20);
    const owner = ownerPid(port, socket.localPort ?? 0);
    if (owner !== undefined && owner !== pid) return socket;
    socket.destroy();
  }
  throw new Error(`every connection landed on worker ${pid}`);
}

/** Posts `body` to /write over `socket` and resolves with the status of the answer. */
function rawPost(socket: Socket, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status !== null) resolve(Number(status[1]));
    });
    socket.once('error', reject);
    socket.write(`POST /write HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    socket.write(body);
  });
}

test.serial('a request whose worker dies mid-body does not hold a later one', async (t) => {
  t.is((await postIlp(ordered.httpPort, lines('orphaned', 0, 10))).status, 204);
  const slow: ClientRequest = request({ host: '127.0.0.1', port: ordered.httpPort, method: 'POST', path: '/write', agent: false, headers: { 'Transfer-Encoding': 'chunked' } });
  slow.on('error', () => undefined);
  slow.write(lines('orphaned', 10, 20));
  const slowSocket = await new Promise<Socket>((resolve) => slow.once('socket', (socket: Socket) => socket.once('connect', () => resolve(socket))));
  await sleep(100);
  const victim = ownerPid(ordered.httpPort, slowSocket.localPort ?? 0);
  if (victim === undefined) throw new Error('no server process holds the slow connection');
  const laterSocket = await connectionAvoiding(ordered.httpPort, victim);
  let answered = false;
  const later = rawPost(laterSocket, lines('orphaned', 30, 40)).finally(() => { answered = true; });
  await sleep(150);
  t.false(answered, 'held while the slow request is being received');
  process.kill(victim, 'SIGKILL');
  const started = Date.now();
  t.is(await later, 204);
  // Without the worker's exit releasing it the later request would wait out the whole bound.
  t.true(Date.now() - started < WAIT_MS * 0.7, `answered ${Date.now() - started} ms after the other worker died`);
  laterSocket.destroy();
  t.deepEqual(await rows(ordered.baseUrl, 'select v from orphaned'), column(0, 10).concat(column(30, 40)));
});
