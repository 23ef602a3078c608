// PostgreSQL wire protocol bench, beside /exec in the same run: `select 1` round trips per second (PG one at a
// time with node-postgres, PG pipelined over a raw socket: one Parse, then Bind/Execute pairs and a single Sync;
// /exec one at a time over keep-alive HTTP), and a 100,000-row result (6 columns) fetched as PG text, PG binary
// (raw socket, so client-side parsing is not measured) and /exec JSON; a bulk load by COPY FROM STDIN and by
// batched INSERT with parameters beside /imp. Prints medians (loads run once); the machine is shared, so read
// the figures as rough.
import pg from 'pg';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { exec, execOk, sqlUrl } from '../test/helpers/http.js';
import { medianMs } from './lib/figures.js';
import {
  bindMessage, executeMessage, hasFrame, openRawPgSocket, parseMessage, passwordMessage, queryMessage, startupMessage, syncMessage, typedMessage, type RawPgSocket,
} from '../test/helpers/pg-messages.js';
import { importCsv } from '../test/helpers/upload.js';

const runs = Number(process.env['BENCH_RUNS'] ?? 5);
const roundTrips = Number(process.env['BENCH_PG_ROUND_TRIPS'] ?? 2000);
const resultRows = 100_000;

interface Row {
  readonly name: string;
  readonly pg: string;
  readonly exec: string;
  readonly ratio: string;
}

/** A logged-in raw connection that counts received bytes and spots the ReadyForQuery ending each answer. */
interface RawSession {
  exchange(bytes: Buffer): Promise<number>;
  close(): void;
}

async function rawSession(server: TestServer): Promise<RawSession> {
  const raw: RawPgSocket = await openRawPgSocket(server.pgPort);
  raw.socket.write(Buffer.concat([startupMessage({ user: 'admin', database: 'qdb' }), passwordMessage('quest')]));
  const login = await raw.until((bytes) => hasFrame(bytes, 'Z'), 10_000);
  if (login.closed || login.timedOut) throw new Error('raw PG login failed (the bench server uses cleartext passwords)');
  raw.socket.removeAllListeners('data');
  let received = 0;
  let tail = Buffer.alloc(0);
  let waiter: (() => void) | undefined;
  raw.socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    tail = Buffer.concat([tail, chunk.subarray(Math.max(0, chunk.length - 6))]).subarray(-6);
    // ReadyForQuery ends every answer: `Z`, length 5, status byte.
    if (tail.length === 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5) waiter?.();
  });
  return {
    exchange: (bytes) => new Promise((resolve) => {
      const before = received;
      waiter = () => {
        waiter = undefined;
        resolve(received - before);
      };
      raw.socket.write(bytes);
    }),
    close: () => raw.socket.destroy(),
  };
}

async function roundTripFigures(server: TestServer): Promise<Row[]> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest' });
  await client.connect();
  const sequentialMs = await medianMs(runs, async () => {
    for (let k = 0; k < roundTrips; k++) await client.query('select 1');
  });
  await client.end();
  const raw = await rawSession(server);
  await raw.exchange(Buffer.concat([parseMessage('one', 'select 1'), syncMessage()]));
  const pipeline = Buffer.concat([...Array.from({ length: roundTrips }, () => Buffer.concat([bindMessage('', 'one', []), executeMessage('')])), syncMessage()]);
  const pipelinedMs = await medianMs(runs, () => raw.exchange(pipeline));
  raw.close();
  const execMs = await medianMs(runs, async () => {
    for (let k = 0; k < roundTrips; k++) {
      const response = await exec(server.baseUrl, 'select 1');
      if (response.status !== 200) throw new Error(response.text);
    }
  });
  const perSecond = (ms: number): number => roundTrips / (ms / 1000);
  return [
    { name: 'select 1, one at a time (round trips/s)', pg: perSecond(sequentialMs).toFixed(0), exec: perSecond(execMs).toFixed(0), ratio: (perSecond(sequentialMs) / perSecond(execMs)).toFixed(2) },
    { name: `select 1, pipelined ${roundTrips} per Sync (round trips/s)`, pg: perSecond(pipelinedMs).toFixed(0), exec: perSecond(execMs).toFixed(0), ratio: (perSecond(pipelinedMs) / perSecond(execMs)).toFixed(2) },
  ];
}

async function resultFigures(server: TestServer): Promise<Row[]> {
  await execOk(server.baseUrl, 'create table r (ts timestamp, sym symbol, price double, qty long, flag boolean, note varchar) timestamp(ts) partition by day');
  await execOk(server.baseUrl, `insert into r select timestamp_sequence('2024-01-01', 1000000L), rnd_symbol('a','b','c'), rnd_double() * 100, rnd_long(1, 100000, 0), rnd_boolean(), rnd_varchar('alpha', 'beta', 'gamma') from long_sequence(${resultRows})`);
  const query = 'select * from r';
  const raw = await rawSession(server);
  const fetchAs = (format: number) => () => raw.exchange(Buffer.concat([parseMessage('', query), bindMessage('', '', [], format), executeMessage(''), syncMessage()]));
  const textBytes = await fetchAs(0)();
  const binaryBytes = await fetchAs(1)();
  const textMs = await medianMs(runs, fetchAs(0));
  const binaryMs = await medianMs(runs, fetchAs(1));
  raw.close();
  let jsonBytes = 0;
  // The body is read but not parsed, as the PG side reads bytes without decoding rows.
  const execMs = await medianMs(runs, async () => {
    const response = await fetch(sqlUrl(server.baseUrl, '/exec', query));
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(Buffer.from(body).toString('utf8', 0, 200));
    jsonBytes = body.byteLength;
  });
  const rowsPerSecond = (ms: number): string => (resultRows / (ms / 1000)).toFixed(0);
  return [
    { name: `100k rows, PG text (${(textBytes / 1e6).toFixed(1)} MB) vs /exec JSON (${(jsonBytes / 1e6).toFixed(1)} MB), rows/s`, pg: rowsPerSecond(textMs), exec: rowsPerSecond(execMs), ratio: (execMs / textMs).toFixed(2) },
    { name: `100k rows, PG binary (${(binaryBytes / 1e6).toFixed(1)} MB) vs /exec JSON, rows/s`, pg: rowsPerSecond(binaryMs), exec: rowsPerSecond(execMs), ratio: (execMs / binaryMs).toFixed(2) },
  ];
}

const loadRows = Number(process.env['BENCH_PG_LOAD_ROWS'] ?? 1_000_000);
const insertRows = Number(process.env['BENCH_PG_INSERT_ROWS'] ?? 20_000);

function csvRows(count: number): string {
  const lines: string[] = [];
  const start = Date.UTC(2024, 0, 1);
  for (let k = 0; k < count; k++) lines.push(`${new Date(start + k * 100).toISOString()},s${k % 100},${(k % 1000) / 10},${k}`);
  return `${lines.join('\n')}\n`;
}

function copyDataMessages(csv: Buffer): Buffer[] {
  const messages: Buffer[] = [];
  for (let offset = 0; offset < csv.length; offset += 65536) messages.push(typedMessage('d', csv.subarray(offset, offset + 65536)));
  return messages;
}

/** Bulk load: COPY FROM STDIN (CSV) and batched INSERT with parameters over PG, beside /imp with the same CSV. */
async function loadFigures(server: TestServer): Promise<Row[]> {
  const schema = '(ts timestamp, sym symbol, price double, qty long) timestamp(ts) partition by day';
  for (const name of ['imp_t', 'copy_t', 'ins_t']) await execOk(server.baseUrl, `create table ${name} ${schema}`);
  const csv = csvRows(loadRows);
  const started = process.hrtime.bigint();
  const imported = await importCsv(server.baseUrl, { name: 'imp_t', timestamp: 'ts', partitionBy: 'DAY', fmt: 'json' }, [{ name: 'data', filename: 'load.csv', content: `ts,sym,price,qty\n${csv}` }]);
  if (imported.status !== 200) throw new Error(imported.text.slice(0, 300));
  const impMs = Number(process.hrtime.bigint() - started) / 1e6;
  const raw = await rawSession(server);
  const copyStarted = process.hrtime.bigint();
  await raw.exchange(Buffer.concat([queryMessage('copy copy_t from stdin with (format csv)'), ...copyDataMessages(Buffer.from(csv)), typedMessage('c', Buffer.alloc(0))]));
  const copyMs = Number(process.hrtime.bigint() - copyStarted) / 1e6;
  const [copied] = (await execOk(server.baseUrl, 'select count(*) from copy_t'))['dataset'] as number[][];
  if (copied?.[0] !== loadRows) throw new Error(`COPY loaded ${copied?.[0]} rows, expected ${loadRows}`);
  await raw.exchange(Buffer.concat([parseMessage('ins', 'insert into ins_t values ($1, $2, $3, $4)'), syncMessage()]));
  const lines = csvRows(insertRows).trimEnd().split('\n').map((line) => line.split(','));
  const insertStarted = process.hrtime.bigint();
  for (let first = 0; first < lines.length; first += 1000) {
    const batch = lines.slice(first, first + 1000).map((fields) => Buffer.concat([bindMessage('', 'ins', fields.map((field) => Buffer.from(field))), executeMessage('')]));
    await raw.exchange(Buffer.concat([...batch, syncMessage()]));
  }
  const insertMs = Number(process.hrtime.bigint() - insertStarted) / 1e6;
  raw.close();
  const rate = (rows: number, ms: number): number => rows / (ms / 1000);
  return [
    { name: `load ${loadRows} rows: COPY FROM STDIN (CSV) vs /imp, rows/s`, pg: rate(loadRows, copyMs).toFixed(0), exec: rate(loadRows, impMs).toFixed(0), ratio: (impMs / copyMs).toFixed(2) },
    { name: `load ${insertRows} rows: INSERT with parameters, 1000 per Sync, vs /imp, rows/s`, pg: rate(insertRows, insertMs).toFixed(0), exec: rate(loadRows, impMs).toFixed(0), ratio: (rate(insertRows, insertMs) / rate(loadRows, impMs)).toFixed(2) },
  ];
}

async function main(): Promise<void> {
  // Cleartext passwords, so the raw-socket client logs in without SCRAM.
  const server = await startServer({ workers: 2, env: { SVC_PG_AUTH_METHOD: 'cleartext' } });
  try {
    const rows = [...await roundTripFigures(server), ...await resultFigures(server), ...await loadFigures(server)];
    const lines = ['\nPostgreSQL wire protocol beside /exec and /imp (medians, loads once; shared machine, rough figures)', '| measure | PG | /exec or /imp | ratio PG/HTTP |', '|---|---:|---:|---:|'];
    for (const row of rows) lines.push(`| ${row.name} | ${row.pg} | ${row.exec} | ${row.ratio} |`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await server.stop();
    server.cleanup();
  }
}

await main();
