// ILP over TCP (line.tcp.net.bind.to) against real server processes, written by QuestDB's official Node client
// (@questdb/nodejs-client, unchanged) and by raw sockets where the exact bytes matter: every field type read
// back exactly, commits at the interval while a connection stays open, a bad line that closes the connection and
// commits nothing of its batch, a long stream across many size-triggered commits, QuestDB's ECDSA handshake,
// the connection limit, and shutdown committing what connections still hold (single-process mode).
import test from 'ava';
import { Sender } from '@questdb/nodejs-client';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLogFiles, startServer, startServers, type TestServer } from '../helpers/server.js';
import { exec, rows } from '../helpers/http.js';
import { openRawIlpSocket, waitUntil, waitUntilListening, type RawIlpSocket } from '../helpers/ilp-tcp.js';
import { metricValue } from '../helpers/cold-partitions.js';
import { childPids } from '../helpers/proc-stat.js';
import { connectionsHeldBy, connectionsPerChild, untilBothWorkersTakeConnections } from '../helpers/proc-sockets.js';

const KEY_ID = 'ingest-1';
const quiet = { log: (): void => undefined };

interface KeyPair {
  readonly privateKey: KeyObject;
  /** The client's `token`: the private scalar, base64url. */
  readonly d: string;
  readonly x: string;
  readonly y: string;
}

function newKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { d } = privateKey.export({ format: 'jwk' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  if (d === undefined || x === undefined || y === undefined) throw new Error('a P-256 JWK has d, x and y');
  return { privateKey, d, x, y };
}

/** The commit interval of `server`: its commit ticks are the multiples of it on the wall clock. */
const TICK_MS = 250;
const key = newKeyPair();
const otherKey = newKeyPair();
let server: TestServer;
let authServer: TestServer;

test.before(async () => {
  const authRoot = mkdtempSync(join(tmpdir(), 'svc-test-'));
  mkdirSync(join(authRoot, 'conf'));
  writeFileSync(join(authRoot, 'conf', 'ilp-auth.txt'), `# ILP TCP keys\n\n${KEY_ID} ec-p-256-sha256 ${key.x} ${key.y}  # the ingest service\n`);
  [server, authServer] = await startServers([
    { workers: 2, env: { SVC_LINE_TCP_COMMIT_INTERVAL_DEFAULT: `${TICK_MS}ms`, SVC_LINE_TCP_MAX_UNCOMMITTED_SIZE: '64k', SVC_METRICS_ENABLED: 'true' } },
    { workers: 1, rootDir: authRoot, env: { SVC_LINE_TCP_AUTH_DB_PATH: 'conf/ilp-auth.txt', SVC_LINE_TCP_COMMIT_INTERVAL_DEFAULT: '250ms' } },
  ]);
  await Promise.all([waitUntilListening(server.ilpTcpPort), waitUntilListening(authServer.ilpTcpPort)]);
});

test.after.always(async () => {
  await Promise.all([server?.stop(), authServer?.stop()]);
  server?.cleanup();
  authServer?.cleanup();
});

/** Rows in `table`; -1 while it does not exist, -2 when the request failed (a kept-alive socket the server closed). */
async function count(target: TestServer, table: string): Promise<number> {
  const response = await exec(target.baseUrl, `select count() from ${table}`).catch(() => undefined);
  if (response === undefined) return -2;
  if (response.status !== 200) return -1;
  return ((response.json as { dataset: number[][] }).dataset[0] as number[])[0] as number;
}

function untilCount(target: TestServer, table: string, expected: number, timeoutMs = 15_000): Promise<boolean> {
  return waitUntil(async () => (await count(target, table)) === expected, timeoutMs);
}

test('the official client (tcp::addr, no auth) creates a table of every field type; values read back exactly', async (t) => {
  const sender = await Sender.fromConfig(`tcp::addr=127.0.0.1:${server.ilpTcpPort}`, quiet);
  await sender.connect();
  try {
    await sender.table('tcp_types').symbol('sym', 'AAPL').floatColumn('price', 1.25).intColumn('amount', 42)
      .stringColumn('note', 'tab\there "quoted" \\ back\nnew line').booleanColumn('ok', true)
      .timestampColumn('seen', 1_700_000_000_123_456n, 'us').at(1_700_000_000_000_000_000n, 'ns');
    await sender.table('tcp_types').symbol('sym', 'MSFT').floatColumn('price', -0.5).intColumn('amount', -9_007_199_254_740_991)
      .booleanColumn('ok', false).at(1_700_000_001_500_000n, 'us');
    await sender.flush();
  } finally {
    await sender.close();
  }
  t.true(await untilCount(server, 'tcp_types', 2));
  t.deepEqual(await rows(server.baseUrl, `select "column", type, designated from table_columns('tcp_types')`), [
    ['sym', 'SYMBOL', false], ['price', 'DOUBLE', false], ['amount', 'LONG', false], ['note', 'VARCHAR', false],
    ['ok', 'BOOLEAN', false], ['seen', 'TIMESTAMP', false], ['timestamp', 'TIMESTAMP', true],
  ]);
  t.deepEqual(await rows(server.baseUrl, 'select sym, price, amount::string, note, ok, seen, timestamp from tcp_types'), [
    ['AAPL', 1.25, '42', 'tab\there "quoted" \\ back\nnew line', true, '2023-11-14T22:13:20.123456Z', '2023-11-14T22:13:20.000000Z'],
    ['MSFT', -0.5, '-9007199254740991', null, false, null, '2023-11-14T22:13:21.500000Z'],
  ]);
});

test('rows are committed at the commit interval while the connection stays open; a bare timestamp is nanoseconds', async (t) => {
  const socket = await openRawIlpSocket(server.ilpTcpPort);
  try {
    socket.write('tcp_interval,s=a v=1i 1700000000000000000\ntcp_interval,s=b v=2i 1700000000000001000\n');
    t.true(await untilCount(server, 'tcp_interval', 2), 'visible without closing the connection');
    t.deepEqual(await rows(server.baseUrl, 'select s, v, timestamp from tcp_interval'), [
      ['a', 1, '2023-11-14T22:13:20.000000Z'], ['b', 2, '2023-11-14T22:13:20.000001Z'],
    ]);
    // A line split across writes (and so across commit units) arrives whole.
    socket.write('tcp_interval,s=c v=3');
    await new Promise((resolve) => setTimeout(resolve, 400));
    socket.write('i 1700000000000002000\n');
    t.true(await untilCount(server, 'tcp_interval', 3));
    t.false(socket.closedByServer());
  } finally {
    socket.destroy();
  }
});

// Serial: the commit counter is the whole server's, so no other test may commit meanwhile.
test.serial('connections commit on the shared tick of the interval: rows sent at scattered moments merge once', async (t) => {
  const sockets = await Promise.all(Array.from({ length: 8 }, () => openRawIlpSocket(server.ilpTcpPort)));
  try {
    const before = await metricValue(server.adminUrl, 'svc_o3_commits_total');
    // Each connection's row 15 ms after the previous one's (105 ms in all), each older than the one before, as
    // when senders' clocks and batches overlap. Timers of their own would commit them one by one, every commit
    // after the first an out-of-order merge (7); on the shared tick they reach the primary together and commit
    // in timestamp order (none). Ticks are multiples of the interval on the wall clock, so the rows start just
    // after one to fall within a single interval.
    await new Promise((resolve) => setTimeout(resolve, TICK_MS - (Date.now() % TICK_MS) + 10));
    const writtenAtMs: number[] = [];
    for (const [k, socket] of sockets.entries()) {
      if (k > 0) await new Promise((resolve) => setTimeout(resolve, 15));
      socket.write(`tcp_tick,s=c${k} v=${k}i ${1_700_000_000_000_000_000 - k * 1000}\n`);
      writtenAtMs.push(Date.now());
    }
    const ticksCrossed = Math.floor(writtenAtMs[writtenAtMs.length - 1] / TICK_MS) - Math.floor(writtenAtMs[0] / TICK_MS);
    t.true(await untilCount(server, 'tcp_tick', 8), 'every row committed without closing a connection');
    const merges = (await metricValue(server.adminUrl, 'svc_o3_commits_total')) - before;
    // Room for one worker's units missing a tick's gathering on a loaded machine, and, when a stalled test
    // timer let the rows straddle ticks anyway, for each later tick's group merging below the one before.
    const allowed = 2 + 2 * ticksCrossed;
    t.true(merges <= allowed, `${merges} out-of-order commits for 8 connections over ${ticksCrossed + 1} tick(s)`);
    t.deepEqual((await rows(server.baseUrl, 'select s from tcp_tick')).map((row) => row[0]), ['c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1', 'c0']);
    t.false(sockets.some((socket) => socket.closedByServer()));
  } finally {
    for (const socket of sockets) socket.destroy();
  }
});

/** ILP TCP connections each of the server's workers holds, ascending. */
function connectionsPerWorker(target: TestServer): number[] {
  return connectionsPerChild(target.process.pid as number, target.ilpTcpPort);
}

// Serial: the connections of other tests would be counted too.
test.serial('the primary spreads connections opened together over the workers; a dead worker\'s share goes to the others', async (t) => {
  const primaryPid = server.process.pid as number;
  t.true(await untilBothWorkersTakeConnections(primaryPid, server.ilpTcpPort), 'both workers take connections');
  const sockets = await Promise.all(Array.from({ length: 8 }, () => openRawIlpSocket(server.ilpTcpPort)));
  try {
    for (const [k, socket] of sockets.entries()) socket.write(`tcp_spread,s=c${k} v=${k}i\n`);
    // Workers accepting on a shared socket took all 8 on one of them, which then parsed every row alone.
    t.true(await waitUntil(() => connectionsPerWorker(server).join() === '4,4', 10_000), `held per worker: ${connectionsPerWorker(server).join()}`);
    t.is(connectionsHeldBy(primaryPid, server.ilpTcpPort), 0, 'the primary hands connections on and keeps none');
    t.true(await untilCount(server, 'tcp_spread', 8));
    const [victim] = childPids(primaryPid);
    process.kill(victim as number, 'SIGKILL');
    t.true(await waitUntil(() => sockets.filter((socket) => socket.closedByServer()).length === 4, 10_000), 'the dead worker\'s connections are closed');
    const more = await Promise.all(Array.from({ length: 4 }, () => openRawIlpSocket(server.ilpTcpPort)));
    sockets.push(...more);
    for (const [k, socket] of more.entries()) socket.write(`tcp_spread,s=d${k} v=${k}i\n`);
    t.true(await untilCount(server, 'tcp_spread', 12), 'connections opened while a worker restarts are served');
    t.false(more.some((socket) => socket.closedByServer()));
    t.true(await waitUntil(() => { const workers = childPids(primaryPid); return workers.length === 2 && !workers.includes(victim as number); }, 15_000), 'the dead worker is restarted');
  } finally {
    for (const socket of sockets) socket.destroy();
  }
});

test('a bad line closes the connection, is logged with its line number, and commits nothing of its batch', async (t) => {
  const socket = await openRawIlpSocket(server.ilpTcpPort);
  socket.write('tcp_bad,s=a v=1i 1000\n# a comment is a line too\ntcp_bad,s=b v=2i 2000\n');
  t.true(await untilCount(server, 'tcp_bad', 2));
  socket.write('tcp_bad,s=c v=3i 3000\ntcp_bad,s=d v=4i 4000\ntcp_bad,s=e v=5i,w 5000\ntcp_bad,s=f v=6i 6000\n');
  t.true(await socket.closed(10_000), 'the server closes the connection');
  t.deepEqual(await rows(server.baseUrl, 'select s, v from tcp_bad'), [['a', 1], ['b', 2]]);
  const logged = await waitUntil(() => /E ilp-tcp ILP TCP 127\.0\.0\.1:\d+: error in line 6: .*field without a value/.test(server.output()), 10_000);
  t.true(logged, server.output());
});

// Serial (ava runs it before the concurrent tests): building 200,000 rows with the client keeps this process busy,
// and concurrent tests would then miss their timeouts.
test.serial('200,000 rows over one connection arrive complete across many size-triggered commits', async (t) => {
  const rowCount = 200_000;
  const sender = await Sender.fromConfig(`tcp::addr=127.0.0.1:${server.ilpTcpPort}`, quiet);
  await sender.connect();
  try {
    for (let row = 0; row < rowCount; row++) {
      await sender.table('tcp_stream').symbol('k', `key${row % 16}`).intColumn('n', row).floatColumn('x', row / 4)
        .at(1_700_000_000_000_000n + BigInt(row), 'us');
    }
    await sender.flush();
  } finally {
    await sender.close();
  }
  t.true(await untilCount(server, 'tcp_stream', rowCount, 25_000));
  t.deepEqual(await rows(server.baseUrl, 'select count_distinct(k), sum(n), sum(x), min(timestamp), max(timestamp) from tcp_stream'), [
    [16, (rowCount - 1) * rowCount / 2, (rowCount - 1) * rowCount / 8, '2023-11-14T22:13:20.000000Z', '2023-11-14T22:13:20.199999Z'],
  ]);
});

test.serial('connections read into one shared buffer per process: six at once, lines cut at every piece, arrive exact', async (t) => {
  // Each process reads all its connections into one buffer: a byte kept past its read (a cut line, a tag set)
  // without a copy would be overwritten by another connection's next read and show up here as a lost or changed row.
  const connections = 6;
  const rowCount = 20_000;
  const sockets = await Promise.all(Array.from({ length: connections }, () => openRawIlpSocket(server.ilpTcpPort)));
  const bodies = sockets.map((_, c) => {
    let text = '';
    for (let row = 0; row < rowCount; row++) text += `tcp_shared,conn=c${c} v=${row}i,x=${row / 4},s="c${c}-${row}" ${1_700_000_000_000_000 + row * connections + c}000\n`;
    return Buffer.from(text);
  });
  const pieceBytes = 997;
  for (let at = 0; at < Math.max(...bodies.map((body) => body.length)); at += pieceBytes) {
    for (const [c, socket] of sockets.entries()) {
      const body = bodies[c] as Buffer;
      if (at < body.length) socket.write(body.subarray(at, at + pieceBytes));
    }
  }
  for (const socket of sockets) socket.end();
  t.true(await untilCount(server, 'tcp_shared', connections * rowCount, 25_000));
  const expected = Array.from({ length: connections }, (_, c) => [`c${c}`, rowCount, (rowCount - 1) * rowCount / 2, (rowCount - 1) * rowCount / 8, rowCount]);
  t.deepEqual(await rows(server.baseUrl, 'select conn, count(), sum(v), sum(x), count_distinct(s) from tcp_shared order by conn'), expected);
});

/**
 * The official client's `username`/`token` form pairs the token with a fixed public key of its own; Node.js 26
 * checks that a JWK's point matches its private scalar and refuses it inside the client's socket handler
 * (ERR_CRYPTO_INVALID_JWK, an uncaught exception of the test process). Its `jwk` option carries the whole key
 * and works on every Node.js line.
 */
const clientTokenFormWorks = Number(process.versions.node.split('.')[0]) < 26;

/** The official client authenticating as `keyId` with the whole of `pair` (its `jwk` option). */
function jwkSender(keyId: string, pair: KeyPair): Sender {
  return new Sender({ protocol: 'tcp', protocol_version: '1', host: '127.0.0.1', port: authServer.ilpTcpPort, jwk: { kid: keyId, kty: 'EC', crv: 'P-256', d: pair.d, x: pair.x, y: pair.y }, ...quiet });
}

test('ECDSA: the official client authenticates (its jwk option; username=<key id>;token=<d> where it can) and writes', async (t) => {
  const senders = [jwkSender(KEY_ID, key)];
  if (clientTokenFormWorks) senders.push(await Sender.fromConfig(`tcp::addr=127.0.0.1:${authServer.ilpTcpPort};username=${KEY_ID};token=${key.d}`, quiet));
  for (const [index, sender] of senders.entries()) {
    await sender.connect();
    try {
      await sender.table('tcp_auth').symbol('s', 'a').intColumn('v', 7 + index).at(1_000_000n + BigInt(index), 'us');
      await sender.flush();
    } finally {
      await sender.close();
    }
  }
  t.true(await untilCount(authServer, 'tcp_auth', senders.length));
  const expected = [['a', 7, '1970-01-01T00:00:01.000000Z'], ['a', 8, '1970-01-01T00:00:01.000001Z']].slice(0, senders.length);
  t.deepEqual(await rows(authServer.baseUrl, 'select s, v, timestamp from tcp_auth'), expected);
});

async function challengeOf(socket: RawIlpSocket, keyId: string): Promise<Buffer> {
  socket.write(`${keyId}\n`);
  const challenge = await socket.readLine(5000);
  if (challenge === undefined) throw new Error('no challenge line');
  return challenge;
}

test('ECDSA handshake: a 512-byte printable challenge; DER or raw r||s signatures; a wrong key or unknown key id is refused', async (t) => {
  const raw = await openRawIlpSocket(authServer.ilpTcpPort);
  const challenge = await challengeOf(raw, KEY_ID);
  t.is(challenge.length, 512);
  t.true(challenge.every((byte) => byte >= 0x20 && byte <= 0x7e), 'printable ASCII');
  const p1363 = sign('sha256', challenge, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  t.is(p1363.length, 64);
  raw.write(`${p1363.toString('base64')}\ntcp_auth_raw,s=raw v=1i 1000\n`);
  raw.end();
  t.true(await untilCount(authServer, 'tcp_auth_raw', 1));

  const wrongKey = await openRawIlpSocket(authServer.ilpTcpPort);
  const second = await challengeOf(wrongKey, KEY_ID);
  wrongKey.write(`${sign('sha256', second, otherKey.privateKey).toString('base64')}\ntcp_auth_refused,s=x v=1i 1000\n`);
  t.true(await wrongKey.closed(5000), 'a signature by another key closes the connection');

  const unknown = await openRawIlpSocket(authServer.ilpTcpPort);
  const third = await challengeOf(unknown, 'nobody');
  t.is(third.length, 512, 'an unknown key id still gets a challenge');
  unknown.write(`${sign('sha256', third, otherKey.privateKey).toString('base64')}\n`);
  t.true(await unknown.closed(5000), 'an unknown key id is refused at the signature');

  const official = jwkSender(KEY_ID, otherKey);
  await official.connect();
  await official.table('tcp_auth_refused').symbol('s', 'y').intColumn('v', 2).at(2000n, 'us');
  await official.flush().catch(() => false);
  await official.close();
  const refusals = await waitUntil(() => (readLogFiles(authServer.rootDir).match(/authentication failed, closing/g) ?? []).length >= 3, 10_000);
  t.true(refusals, readLogFiles(authServer.rootDir));
  t.true(/unknown key id 'nobody'/.test(readLogFiles(authServer.rootDir)));
  t.is(await count(authServer, 'tcp_auth_refused'), -1, 'nothing of a refused connection is parsed');
});

test('single-process mode: the connection limit closes extra connections; shutdown commits what connections hold', async (t) => {
  const single = await startServer({ workers: 0, env: { SVC_LINE_TCP_NET_CONNECTION_LIMIT: '2', SVC_LINE_TCP_COMMIT_INTERVAL_DEFAULT: '60s' } });
  let restarted: TestServer | undefined;
  try {
    await waitUntilListening(single.ilpTcpPort);
    const first = await openRawIlpSocket(single.ilpTcpPort);
    const second = await openRawIlpSocket(single.ilpTcpPort);
    const third = await openRawIlpSocket(single.ilpTcpPort);
    t.true(await third.closed(5000), 'past the limit a connection is closed at once');
    first.write('tcp_limit,s=first v=1i 1000\n');
    first.end();
    t.true(await untilCount(single, 'tcp_limit', 1), 'a connection that ends commits what it sent');
    const fourth = await openRawIlpSocket(single.ilpTcpPort);
    fourth.write('tcp_limit,s=fourth v=4i 4000\n');
    fourth.end();
    t.true(await untilCount(single, 'tcp_limit', 2), 'a freed slot takes a new connection');
    second.write('tcp_limit,s=second v=2i 2000\ntcp_limit,s=cut v=');
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.is(await count(single, 'tcp_limit'), 2, 'the 60 s commit interval has not passed');
    t.is(await single.stop(), 0);
    t.true(await second.closed(1000));
    restarted = await startServer({ workers: 0, rootDir: single.rootDir });
    t.deepEqual(await rows(restarted.baseUrl, 'select s, v from tcp_limit order by v'), [['first', 1], ['second', 2], ['fourth', 4]]);
    t.true(/connection refused, 2 connections are open/.test(readLogFiles(single.rootDir)));
  } finally {
    await restarted?.stop();
    await single.stop();
    single.cleanup();
  }
});

test('a key file that cannot be read stops the start-up before anything listens (single-process mode too)', async (t) => {
  const rootDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  try {
    const error = await t.throwsAsync(startServer({ workers: 0, rootDir, env: { SVC_LINE_TCP_AUTH_DB_PATH: 'conf/missing.txt' } }));
    t.regex(error?.message ?? '', /svc exited during start-up[\s\S]*cannot read the ILP authentication file .*missing\.txt.*\[key=line\.tcp\.auth\.db\.path\]/);
  } finally {
    rmSync(rootDir, { recursive: true, force: true });
  }
});
