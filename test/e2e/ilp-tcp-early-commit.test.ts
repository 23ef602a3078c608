// ILP TCP early commits (ilpTcpEarlyCommitBytes): a connection whose parsed rows reach 2 MiB while no commit of
// its own is in flight commits them without waiting for the commit tick, so a loaded connection keeps the
// primary committing while it parses on. The server's commit interval is an hour, so the tick cannot be what
// makes the rows visible; the rest of the stream commits when the client closes, every row exactly once.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { openRawIlpSocket, waitUntil, waitUntilListening } from '../helpers/ilp-tcp.js';

const ROWS = 150_000;
/** Parsed bytes per row of this table: timestamp, SYMBOL id, DOUBLE and LONG. */
const PARSED_ROW_BYTES = 8 + 4 + 8 + 8;
const EARLY_COMMIT_BYTES = 2 * 1024 * 1024;
const BASE_NS = 1_700_000_000_000_000_000n;

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1, env: { SVC_LINE_TCP_COMMIT_INTERVAL_DEFAULT: '3600000ms' } });
  await waitUntilListening(server.ilpTcpPort);
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

async function tableCount(table: string): Promise<number> {
  const result = await rows(server.baseUrl, `select count() from ${table}`).catch(() => [[-1]]);
  return Number(result[0]?.[0] ?? -1);
}

test('a connection commits 2 MiB of parsed rows before the tick while it stays open; the rest when it closes', async (t) => {
  let body = '';
  for (let row = 0; row < ROWS; row++) body += `early,sym=s${row % 7} price=${row}.5,amount=${row}i ${BASE_NS + BigInt(row) * 1_000_000n}\n`;
  const socket = await openRawIlpSocket(server.ilpTcpPort);
  socket.write(body);
  const earlyRows = Math.floor(EARLY_COMMIT_BYTES / PARSED_ROW_BYTES);
  // The next hourly tick could fall in these seconds only once in several hundred runs; then every row shows.
  t.true(await waitUntil(async () => (await tableCount('early')) >= earlyRows, 15_000), `at least ${earlyRows} rows visible with the connection open`);
  t.false(socket.closedByServer());
  socket.end();
  t.true(await waitUntil(async () => (await tableCount('early')) === ROWS, 15_000));
  const [summary] = await rows(server.baseUrl, 'select count(), sum(amount), min(price), max(price), count_distinct(sym) from early');
  const expectedSum = (ROWS * (ROWS - 1)) / 2;
  t.deepEqual(summary, [ROWS, expectedSum, 0.5, ROWS - 0.5, 7]);
});
