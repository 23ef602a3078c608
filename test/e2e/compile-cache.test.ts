// One worker gets 100,000 statements that differ only in their literals (numbers, strings with quotes and
// unicode, timestamps, IN lists): the compiled-expression count stays flat after the first of each shape, the
// worker's resident memory stays within 20 MB of where it settled, and sampled answers are right.
// Nine in ten go to /api/v1/sql/validate, which parses, binds and compiles every expression exactly as /exec does
// but skips the run and the result writer (a third of the worker's time per statement); every tenth runs on
// /exec. Requests go over a few keep-alive connections, several in flight.
import test from 'ava';
import http from 'node:http';
import { startServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { execOk } from '../helpers/http.js';
import { seriesValue } from '../helpers/metrics-snapshots.js';

const TABLE_ROWS = 100;
const QUERY_COUNT = 100_000;
const WARM_UP_COUNT = 10_000;
/** Statements between two readings of the worker's figures. */
const READING_EVERY = 4_000;
const CONNECTION_COUNT = 4;
const IN_FLIGHT_MAX = 16;
const RSS_GROWTH_BYTES_MAX = 20 * 1024 * 1024;
/** Every this many statements, the answer is parsed and compared with the value computed here. */
const CHECK_EVERY = 97;
/** Every this many statements runs on /exec; the others are compiled by /api/v1/sql/validate. */
const EXECUTE_EVERY = 10;
const HOUR_MICROS = 3_600_000_000;
const START_MICROS = Date.UTC(2024, 0, 1) * 1000;

interface LiteralQuery {
  readonly sql: string;
  /** The first cell of the answer's only row. */
  readonly expected: number;
}

/** Row k (1..TABLE_ROWS) has x = k, s = 's' || (k % 10), ts = 2024-01-01 + k hours. */
function rowsWhere(matches: (k: number) => boolean): number {
  let count = 0;
  for (let k = 1; k <= TABLE_ROWS; k++) if (matches(k)) count++;
  return count;
}

function isoMicros(micros: number): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, -1)}${String(micros % 1000).padStart(3, '0')}Z`;
}

/** Statement `n`: one of three shapes, with literals no other statement of the run has. */
function literalQuery(n: number): LiteralQuery {
  const threshold = (n % 10_007) / 100;
  const digit = n % 10;
  switch (n % 3) {
    case 0:
      return { sql: `select count() from t where x > ${threshold} and s = 's${digit}'`, expected: rowsWhere((k) => k > threshold && k % 10 === digit) };
    case 1: {
      const since = START_MICROS + (n % 100_003) * 3_600_017;
      return { sql: `select count() from t where ts >= '${isoMicros(since)}' and x * ${-n} <= 0.5`, expected: rowsWhere((k) => START_MICROS + k * HOUR_MICROS >= since) };
    }
    default: {
      const first = n % TABLE_ROWS;
      const list = [first, first + 0.5, -n, n + 1e9];
      return { sql: `select count() from t where x in (${list.join(', ')}) or s = 'it''s "ü" \\ ${n}'`, expected: rowsWhere((k) => k === first) };
    }
  }
}

async function scrape(server: TestServer): Promise<string> {
  const response = await fetch(`${server.adminUrl}/metrics`);
  return response.text();
}

interface WorkerFigures {
  readonly compiled: number;
  readonly rssBytes: number;
}

/** The compile count and the worker's resident set size, both from /metrics (one worker: the worker is worker-1). */
async function workerFigures(server: TestServer): Promise<WorkerFigures> {
  const text = await scrape(server);
  const compiled = seriesValue(text, 'svc_sql_compiled_functions_total', {});
  const rssBytes = seriesValue(text, 'svc_process_resident_memory_bytes', { process: 'worker-1' });
  if (compiled === undefined || rssBytes === undefined) throw new Error(`metrics lack the compile count or the worker's RSS:\n${text.slice(0, 2000)}`);
  return { compiled, rssBytes };
}

/**
 * The lowest resident size among readings: V8 collects garbage in a sawtooth, so single readings differ by tens
 * of MB; the floor over a stretch of the run is what a leak raises (the unbounded cache raised it by ~1.4 MB per
 * thousand statements) and what a flat worker keeps.
 */
function floorOf(readings: readonly WorkerFigures[]): number {
  return Math.min(...readings.map((reading) => reading.rssBytes));
}

function get(agent: http.Agent, server: TestServer, route: string, sql: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const path = `${route}?${new URLSearchParams({ query: sql }).toString()}`;
    const request = http.get({ host: '127.0.0.1', port: server.httpPort, path, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Runs statements [from, to) with IN_FLIGHT_MAX in flight over the agent's connections; returns the failures. */
async function runQueries(agent: http.Agent, server: TestServer, from: number, to: number): Promise<string[]> {
  const failures: string[] = [];
  let next = from;
  const lane = async (): Promise<void> => {
    while (next < to && failures.length < 5) {
      const n = next++;
      const query = literalQuery(n);
      const executed = n % EXECUTE_EVERY === 0;
      const answer = await get(agent, server, executed ? '/exec' : '/api/v1/sql/validate', query.sql);
      if (answer.status !== 200) {
        failures.push(`${query.sql} → ${answer.status} ${answer.body.slice(0, 300)}`);
      } else if (executed && n % CHECK_EVERY === 0) {
        const dataset = (JSON.parse(answer.body) as { dataset: unknown[][] }).dataset;
        if (dataset[0]?.[0] !== query.expected) failures.push(`${query.sql} → ${JSON.stringify(dataset)}, expected ${query.expected}`);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT_MAX }, lane));
  return failures;
}

test('100,000 statements differing only in literals compile nothing new and leave the worker RSS flat', async (t) => {
  t.timeout(600_000);
  const server = await startServer({ workers: 1, env: { SVC_METRICS_ENABLED: 'true' } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTION_COUNT });
  try {
    await execOk(server.baseUrl, 'create table t (x double, s string, ts timestamp) timestamp(ts) partition by year');
    await execOk(server.baseUrl, `insert into t select x, 's' || (x % 10), timestamp '2024-01-01T00:00:00.000000Z' + x * ${HOUR_MICROS} from long_sequence(${TABLE_ROWS})`);
    t.deepEqual(await runQueries(agent, server, 0, WARM_UP_COUNT), []);
    const readings: WorkerFigures[] = [await workerFigures(server)];
    const started = performance.now();
    for (let from = WARM_UP_COUNT; from < WARM_UP_COUNT + QUERY_COUNT; from += READING_EVERY) {
      t.deepEqual(await runQueries(agent, server, from, Math.min(from + READING_EVERY, WARM_UP_COUNT + QUERY_COUNT)), []);
      readings.push(await workerFigures(server));
    }
    const seconds = (performance.now() - started) / 1000;
    // Where the worker settled is the floor of the run's second quarter: in the first, V8 may still be growing its
    // heap to the steady load (under a loaded suite the floor rose ~20 MB there and then stayed flat). A leak as
    // the unbounded cache had (~1.4 MB per thousand statements) still adds 40 MB or more between the two quarters (28,000 statements or more apart).
    const quarter = Math.ceil(readings.length / 4);
    const first = floorOf(readings.slice(quarter, 2 * quarter));
    const last = floorOf(readings.slice(-quarter));
    const megabytes = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
    const compiled = readings.map((reading) => reading.compiled);
    t.log(`${QUERY_COUNT} statements in ${seconds.toFixed(1)} s; compiled ${compiled[0]} → ${compiled[compiled.length - 1]}`);
    t.log(`worker RSS floor ${megabytes(first)} MB (second quarter) → ${megabytes(last)} MB (last quarter); readings ${readings.map((reading) => megabytes(reading.rssBytes)).join(' ')}`);
    t.true(compiled.every((count) => count === compiled[0]), `compiled functions during the run: ${compiled.join(' ')}`);
    t.true(last - first < RSS_GROWTH_BYTES_MAX, `worker RSS floor grew ${megabytes(last - first)} MB`);
  } finally {
    agent.destroy();
    await server.stop();
    server.cleanup();
  }
});
