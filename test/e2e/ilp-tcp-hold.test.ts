// ILP TCP out-of-order hold (engine/tcp-row-hold.ts), end to end: two connections whose rows lag each other by a
// window commit one out-of-order merge while the primary learns the lag, then append; the rows it holds back
// become visible while the connections stay open (a commit interval after the last rows arrived) and are
// committed by a shutdown, never lost; every row reads back exactly once.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { openRawIlpSocket, waitUntil, type RawIlpSocket } from '../helpers/ilp-tcp.js';
import { metricValue } from '../helpers/cold-partitions.js';

/** The servers' commit interval: commit ticks are its multiples on the wall clock. */
const TICK_MS = 250;
const ROWS_PER_WINDOW = 50;
/** One window of data time, in ns: a connection's rows of window w span [w, w + 1) s after BASE_NS. */
const WINDOW_NS = 1_000_000_000n;
const BASE_NS = 1_700_000_000_000_000_000n;

function startHoldServer(rootDir?: string): Promise<TestServer> {
  return startServer({ workers: 2, ...(rootDir === undefined ? {} : { rootDir }), env: { SVC_LINE_TCP_COMMIT_INTERVAL_DEFAULT: `${TICK_MS}ms`, SVC_METRICS_ENABLED: 'true' } });
}

/** The lines of window `window` from connection `name`: v = window × 1000 + row. */
function windowLines(table: string, name: string, window: number): string {
  let text = '';
  for (let row = 0; row < ROWS_PER_WINDOW; row++) {
    const ts = BASE_NS + BigInt(window) * WINDOW_NS + (BigInt(row) * WINDOW_NS) / BigInt(ROWS_PER_WINDOW);
    text += `${table},c=${name} v=${window * 1000 + row}i ${ts}\n`;
  }
  return text;
}

async function tableCount(server: TestServer, table: string): Promise<number> {
  const result = await rows(server.baseUrl, `select count() from ${table}`).catch(() => [[-1]]);
  return Number(result[0]?.[0] ?? -1);
}

/**
 * `rounds` commit ticks: in each, connection a sends window r + 1 and b window r, just after a tick, so both land
 * in that tick's group. Every group from the second reaches a window below the newest row committed before it.
 */
async function sendLaggingWindows(table: string, a: RawIlpSocket, b: RawIlpSocket, rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    await new Promise((resolve) => setTimeout(resolve, TICK_MS - (Date.now() % TICK_MS) + 10));
    a.write(windowLines(table, 'a', round + 1));
    b.write(windowLines(table, 'b', round));
  }
}

/** What the rounds sent: a's windows 1..rounds, b's 0..rounds-1. */
function expectedSum(rounds: number): number {
  let sum = 0;
  for (let round = 0; round < rounds; round++) {
    for (const window of [round + 1, round]) sum += window * 1000 * ROWS_PER_WINDOW + (ROWS_PER_WINDOW * (ROWS_PER_WINDOW - 1)) / 2;
  }
  return sum;
}

test('connections lagging each other merge while the lag is learned, then append; held rows show while they stay open', async (t) => {
  const server = await startHoldServer();
  const [a, b] = await Promise.all([openRawIlpSocket(server.ilpTcpPort), openRawIlpSocket(server.ilpTcpPort)]);
  try {
    const rounds = 8;
    const mergesBefore = await metricValue(server.adminUrl, 'svc_o3_commits_total');
    await sendLaggingWindows('lagging', a, b, rounds);
    // The last group's newest rows wait, counted by the gauge, until the table has been quiet for 2 intervals.
    t.true(await waitUntil(async () => (await metricValue(server.adminUrl, 'svc_ilp_tcp_held_rows')) > 0, 5000), 'rows held after the last group');
    t.true(await waitUntil(async () => (await tableCount(server, 'lagging')) === 2 * rounds * ROWS_PER_WINDOW, 15_000), 'every row visible with both connections open');
    t.is(await metricValue(server.adminUrl, 'svc_ilp_tcp_held_rows'), 0);
    const merges = (await metricValue(server.adminUrl, 'svc_o3_commits_total')) - mergesBefore;
    // Committed as they came, 7 of the 8 groups would merge below the one before. Held, the second group merges
    // (the lag is not known before it) and the rest append; room for one more when a loaded machine's timers
    // let a round straddle a tick.
    t.true(merges <= 2, `${merges} out-of-order commits for ${rounds} lagging groups`);
    t.deepEqual(await rows(server.baseUrl, 'select count(), sum(v), count_distinct(v), min(timestamp), max(timestamp) from lagging'), [
      [2 * rounds * ROWS_PER_WINDOW, expectedSum(rounds), rounds * ROWS_PER_WINDOW + ROWS_PER_WINDOW, '2023-11-14T22:13:20.000000Z', '2023-11-14T22:13:28.980000Z'],
    ]);
    // Stored in timestamp order: each row's timestamp at or after the previous one's.
    const stamps = (await rows(server.baseUrl, 'select timestamp from lagging')).map((row) => String(row[0]));
    t.deepEqual(stamps, [...stamps].sort());
    t.false(a.closedByServer() || b.closedByServer());
  } finally {
    a.destroy();
    b.destroy();
    await server.stop();
    server.cleanup();
  }
});

test('rows held back are committed by a shutdown and read back after a restart', async (t) => {
  const server = await startHoldServer();
  let restarted: TestServer | undefined;
  const [a, b] = await Promise.all([openRawIlpSocket(server.ilpTcpPort), openRawIlpSocket(server.ilpTcpPort)]);
  try {
    const rounds = 4;
    await sendLaggingWindows('held_at_stop', a, b, rounds);
    // Stopped right after the last rows, connections open: the workers commit their units, the primary what it holds.
    t.is(await server.stop(), 0);
    restarted = await startHoldServer(server.rootDir);
    t.deepEqual(await rows(restarted.baseUrl, 'select count(), sum(v) from held_at_stop'), [[2 * rounds * ROWS_PER_WINDOW, expectedSum(rounds)]]);
  } finally {
    a.destroy();
    b.destroy();
    await restarted?.stop();
    server.cleanup();
  }
});
