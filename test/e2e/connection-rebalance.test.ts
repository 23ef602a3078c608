// Connection rebalancing on :9000 against a real server with two workers. Every kept-alive connection is first
// placed on one worker: the other is held in a long synchronous request (/__test/block), so it cannot accept
// while they open. Under sustained ILP writes on those connections, rebalancing must move some of them to the
// idle worker (both workers then report busy connections) without failing a request; with it off, nothing is
// closed and the idle worker stays idle, which also shows the placement really is one-sided. With few long
// requests (slow bodies, as 17 MB ILP bodies are), the whole surplus must leave at the end of the first round,
// and only it: the connections then stay where they are.
import test from 'ava';
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { startServer, type TestServer } from '../helpers/server.js';
import { postIlp } from '../helpers/ilp-http.js';
import { seriesValue } from '../helpers/metrics-snapshots.js';

const CONNECTIONS = 4;
const BLOCK_MS = 2500;
const ROWS_PER_BODY = 5000;
const WORKERS = ['worker-1', 'worker-2'] as const;

function rowsBody(batch: number): Buffer {
  const lines: string[] = [];
  for (let row = 0; row < ROWS_PER_BODY; row++) lines.push(`balance,s=s${row % 10} v=${row}i ${(batch * ROWS_PER_BODY + row) * 1000}\n`);
  return Buffer.from(lines.join(''));
}

/** Starts a request that blocks the worker serving it for BLOCK_MS; resolves once it has begun, with its end. */
function blockOneWorker(server: TestServer): Promise<{ ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.httpPort, path: `/__test/block?ms=${BLOCK_MS}`, agent: new Agent({ keepAlive: false }) }, (res) => {
      resolve({ ended: new Promise((done) => res.on('end', () => done()).resume()) });
    });
    req.on('error', reject);
    req.end();
  });
}

async function busyByWorker(server: TestServer): Promise<number[]> {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  return WORKERS.map((process) => seriesValue(text, 'svc_http_connections_busy', { process }) ?? 0);
}

interface LoadOutcome {
  readonly statuses: readonly number[];
  readonly closes: number;
  readonly sockets: number;
  /** Busy connections per worker, sampled during the load. */
  readonly samples: readonly (readonly number[])[];
}

/**
 * Opens CONNECTIONS kept-alive connections while one worker is blocked, then writes on them until `until`
 * says so (given the samples so far) or `durationMs` ran out.
 */
async function loadFromOneWorker(server: TestServer, durationMs: number, until: (samples: readonly (readonly number[])[]) => boolean): Promise<LoadOutcome> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const sockets = new Set<Socket>();
  agent.on('free', (socket: Socket) => sockets.add(socket));
  const statuses: number[] = [];
  let closes = 0;
  let batch = 0;
  const post = async (): Promise<void> => {
    const answer = await postIlp(server.httpPort, rowsBody(batch++), { agent });
    statuses.push(answer.status);
    if (answer.headers.connection === 'close') closes++;
  };
  const block = await blockOneWorker(server);
  await Promise.all(Array.from({ length: CONNECTIONS }, post));
  await block.ended;
  const samples: number[][] = [];
  const deadline = Date.now() + durationMs;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      samples.push(await busyByWorker(server));
      if (until(samples) || Date.now() > deadline) done = true;
    }
  })();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (!done) await post();
  }));
  await sampling;
  agent.destroy();
  return { statuses, closes, sockets: sockets.size, samples };
}

/** Long requests: SLOW_CHUNKS chunks of SLOW_CHUNK_ROWS rows, SLOW_PAUSE_MS apart (about 2.4 s per request). */
const SLOW_CONNECTIONS = 8;
const SLOW_ROUNDS = 3;
const SLOW_CHUNKS = 12;
const SLOW_CHUNK_ROWS = 200;
const SLOW_PAUSE_MS = 200;

function slowBody(round: number, connection: number): Buffer[] {
  const first = (round * SLOW_CONNECTIONS + connection) * SLOW_CHUNKS * SLOW_CHUNK_ROWS;
  return Array.from({ length: SLOW_CHUNKS }, (_, chunk) => {
    const lines: string[] = [];
    for (let row = 0; row < SLOW_CHUNK_ROWS; row++) lines.push(`slow,c=c${connection} v=${row}i ${(first + chunk * SLOW_CHUNK_ROWS + row) * 1000}\n`);
    return Buffer.from(lines.join(''));
  });
}

/** Blocks the worker a kept-alive `pinned` agent's one connection is on; resolves once the block has begun. */
function blockPinned(server: TestServer, pinned: Agent, ms: number): Promise<{ closed: boolean; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.httpPort, path: `/__test/block?ms=${ms}`, agent: pinned }, (res) => {
      resolve({ closed: res.headers.connection === 'close', ended: new Promise((done) => res.on('end', () => done()).resume()) });
    });
    req.on('error', reject);
    req.end();
  });
}

const bothBusy = (sample: readonly number[]): boolean => sample.every((busy) => busy >= 1);

test.serial('busy kept-alive connections opened on one worker move until both workers serve them', async (t) => {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVCTEST_INJECT_FAULTS: '1' } });
  t.teardown(async () => { await server.stop(); server.cleanup(); });
  const outcome = await loadFromOneWorker(server, 15_000, (samples) => samples.length >= 3 && bothBusy(samples[samples.length - 1] ?? []));
  t.log(JSON.stringify(outcome.samples), outcome.closes, outcome.sockets, outcome.statuses.length);
  t.true(outcome.statuses.length > CONNECTIONS);
  t.deepEqual(outcome.statuses.filter((status) => status !== 204), [], 'no request fails');
  t.true(bothBusy(outcome.samples[outcome.samples.length - 1] ?? []), `both workers hold busy connections: ${JSON.stringify(outcome.samples)}`);
  t.true(outcome.closes >= 1, 'a response carried Connection: close');
  t.true(outcome.sockets > CONNECTIONS, `the client reconnected (${outcome.sockets} sockets)`);
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  t.true((seriesValue(text, 'svc_http_connections_rebalanced_total') ?? 0) >= outcome.closes);
  const count = await (await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent('select count() from balance')}`)).json() as { dataset: number[][] };
  t.is(count.dataset[0]?.[0], outcome.statuses.length * ROWS_PER_BODY, 'every acknowledged row was committed');
});

test.serial('with rebalancing off no connection is closed and the idle worker stays idle', async (t) => {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVCTEST_INJECT_FAULTS: '1', SVC_HTTP_CONNECTION_REBALANCE_ENABLED: 'false' } });
  t.teardown(async () => { await server.stop(); server.cleanup(); });
  const outcome = await loadFromOneWorker(server, 3000, () => false);
  t.deepEqual(outcome.statuses.filter((status) => status !== 204), []);
  t.is(outcome.closes, 0);
  t.is(outcome.sockets, CONNECTIONS);
  t.true(outcome.samples.length >= 3);
  // Every connection stays where it was opened: one worker holds them all, the other none (the first sample may
  // still count the blocking request's connection, closed just before).
  for (const sample of outcome.samples.slice(1)) t.deepEqual([...sample].sort((a, b) => a - b), [0, CONNECTIONS], JSON.stringify(outcome.samples));
});

test.serial('few long requests: the whole surplus leaves at the end of the first round, and the split then holds', async (t) => {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVCTEST_INJECT_FAULTS: '1' } });
  t.teardown(async () => { await server.stop(); server.cleanup(); });
  const agent = new Agent({ keepAlive: true, maxSockets: SLOW_CONNECTIONS });
  // One more kept-alive connection on the loaded worker, to block it at each round's end: the connections that
  // reconnect then land on the other worker, which takes the kernel's accept race out of the test.
  const pinned = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => { agent.destroy(); pinned.destroy(); });
  const block = await blockOneWorker(server);
  await Promise.all([...Array.from({ length: SLOW_CONNECTIONS }, () => postIlp(server.httpPort, Buffer.from('slow,c=x v=0i 0\n'), { agent })),
    postIlp(server.httpPort, Buffer.from('slow,c=x v=0i 0\n'), { agent: pinned })]);
  await block.ended;
  const closes: number[] = [];
  const samples: number[][] = [];
  const statuses: number[] = [];
  for (let round = 0; round < SLOW_ROUNDS; round++) {
    const answers = Promise.all(Array.from({ length: SLOW_CONNECTIONS }, (_, connection) => postIlp(server.httpPort, slowBody(round, connection), { agent, pauseMs: SLOW_PAUSE_MS })));
    await new Promise((resolve) => setTimeout(resolve, SLOW_CHUNKS * SLOW_PAUSE_MS / 2));
    samples.push(await busyByWorker(server));
    const responses = await answers;
    statuses.push(...responses.map((response) => response.status));
    closes.push(responses.filter((response) => response.headers.connection === 'close').length);
    if (round === SLOW_ROUNDS - 1) break;
    const blocked = await blockPinned(server, pinned, 400);
    t.false(blocked.closed, 'the pinned connection is not shed: no order is held between rounds');
    void blocked.ended;
  }
  t.log(JSON.stringify({ closes, samples }));
  t.deepEqual(statuses.filter((status) => status !== 204), [], 'no request fails');
  // Mid-round the connections told to leave are counted as leaving, not busy: the other worker still has none.
  t.is(Math.min(...(samples[0] ?? [])), 0, 'the first round runs on one worker');
  t.deepEqual(closes, [SLOW_CONNECTIONS / 2, 0, 0], 'the surplus leaves after the first round, then nothing moves');
  // Half each; the pinned connection, busy within the last second, may add one to its worker.
  for (const sample of samples.slice(1)) {
    t.true(Math.min(...sample) === SLOW_CONNECTIONS / 2 && Math.max(...sample) <= SLOW_CONNECTIONS / 2 + 1, `an even split from the second round on: ${JSON.stringify(samples)}`);
  }
  const count = await (await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent("select count() from slow where c != 'x'")}`)).json() as { dataset: number[][] };
  t.is(count.dataset[0]?.[0], SLOW_ROUNDS * SLOW_CONNECTIONS * SLOW_CHUNKS * SLOW_CHUNK_ROWS, 'every acknowledged row was committed once');
});
