// Connection rebalancing on :9000 against a real server with two workers. Every kept-alive connection is first
// placed on one worker: the other is held in a long synchronous request (/__test/block), so it cannot accept
// while they open. Under sustained ILP writes on those connections, rebalancing must move some of them to the
// idle worker (both workers then report busy connections) without failing a request; with it off, nothing is
// closed and the idle worker stays idle, which also shows the placement really is one-sided.
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
