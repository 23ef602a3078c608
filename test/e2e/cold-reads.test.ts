// Cold partitions read from a real object store (fs:: and Swift's S3 API): a fixed query set answers the same
// rows on native, local Parquet and cold partitions; a scripted query sequence moves the svc_cold_chunk_*
// metrics exactly as predicted; with the store stopped a query that needs a cold partition fails at once naming
// the store and the partition while hot partitions still answer, and reads work again once the store is back.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { metricValue } from '../helpers/cold-partitions.js';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';
import { privateS3, restartS3, stopS3 } from '../helpers/s3-service.js';

const DAYS = 6;
const ROWS_PER_DAY = 12_000;
/** 12 000 rows a day in row groups of 5 000: three row groups per partition. */
const ROW_GROUP_ROWS = '5000';

const QUERIES = [
  'select count() from t',
  'select sum(qty), sum(price), min(price), max(price), avg(i) from t',
  'select sym, count(), sum(qty), round(avg(price), 9) from t order by sym',
  'select ts, count(), sum(qty), first(price), last(price) from t sample by 6h',
  'select sym, price, qty, note, flag, ts from t latest on ts partition by sym order by sym',
  "select count(), sum(qty) from t where sym = 'b' and price > 50",
  "select count(), sum(price) from t where ts in '2024-01-02'",
  "select * from t where ts between '2024-01-01T23:59:00' and '2024-01-02T00:01:00'",
  "select count(), max(ts) from t where ts > '2024-01-02T12:00:00' and ts < '2024-01-04T06:00:00' and qty % 7 = 0",
  'select count(), sum(qty), min(ts), max(ts) from t where i >= 30000 and i <= 30100',
  "select note, count() from t where note like 'n1%' order by note limit 5",
  'select * from t limit -3',
  'select t.ts, t.sym, t.price, q.bid from t asof join q on (sym) where t.qty = 17 order by t.ts limit 20',
  'select count(), sum(q.bid) from t asof join q on (sym)',
];

async function answers(server: TestServer): Promise<unknown[][][]> {
  const all: unknown[][][] = [];
  for (const query of QUERIES) all.push(await rows(server.baseUrl, query));
  return all;
}

function assertSameAnswers(t: import('ava').ExecutionContext, actual: unknown[][][], expected: unknown[][][], label: string): void {
  QUERIES.forEach((query, k) => t.deepEqual(actual[k], expected[k], `${label}: ${query}`));
}

async function createTables(server: TestServer): Promise<string[]> {
  const total = DAYS * ROWS_PER_DAY;
  const stepMicros = Math.floor((86_400_000_000 * DAYS) / total);
  await execOk(server.baseUrl, `create table t as (select rnd_symbol('a','b','c','d') sym, rnd_double() * 100 price, x % 1000 qty, `
    + `cast(x as int) i, rnd_str('n1','n2','n10',null) note, rnd_boolean() flag, timestamp_sequence('2024-01-01', ${stepMicros}L) ts `
    + `from long_sequence(${total})) timestamp(ts) partition by day`);
  await execOk(server.baseUrl, `create table q as (select rnd_symbol('a','b','c','d') sym, rnd_double() bid, timestamp_sequence('2024-01-01', 3600000000L) ts `
    + `from long_sequence(${24 * DAYS})) timestamp(ts) partition by day`);
  return ((await rows(server.baseUrl, "select name from table_partitions('t')")) as [string][]).map(([name]) => name);
}

function fsStore(dir: string): string {
  return `fs::root=${join(dir, 'final')};atomic_write_dir=${join(dir, 'scratch')};`;
}

/** A cold partition as table_cold_partitions() names it. */
interface ColdObjectRow {
  readonly name: string;
  readonly key: string;
}

/**
 * Native answers, then the first four partitions converted to Parquet, then the first three moved to the store
 * and off local disk (CONVERT PARTITION TO REMOTE, DROP LOCAL PARTITION): the same answers at every phase.
 */
async function nativeParquetCold(t: import('ava').ExecutionContext, env: Record<string, string>, connection: string, workers: number): Promise<{ server: TestServer; names: string[]; made: ColdObjectRow[] }> {
  const server = await startServer({ workers, env: { ...env, SVC_COLD_STORAGE_OBJECT_STORE: connection, SVC_CAIRO_PARTITION_ENCODER_PARQUET_ROW_GROUP_SIZE: ROW_GROUP_ROWS } });
  const names = await createTables(server);
  t.is(names.length, DAYS);
  const native = await answers(server);
  const list = (count: number): string => names.slice(0, count).map((name) => `'${name}'`).join(',');
  await execOk(server.baseUrl, `alter table t convert partition to parquet list ${list(4)}`);
  assertSameAnswers(t, await answers(server), native, 'local parquet');
  await execOk(server.baseUrl, `alter table t convert partition to remote list ${list(3)}`);
  await execOk(server.baseUrl, `alter table t drop local partition list ${list(3)}`);
  const served = (await rows(server.baseUrl, "select name, isRemotelyServed from table_partitions('t')")) as [string, boolean][];
  t.deepEqual(served.map(([, remote]) => remote), [true, true, true, false, false, false], 'three partitions live only in the store');
  assertSameAnswers(t, await answers(server), native, 'cold');
  const made = ((await rows(server.baseUrl, "select partitionName, objectKey from table_cold_partitions('t') order by partitionName")) as [string, string][]).map(([name, key]) => ({ name, key }));
  return { server, names, made };
}

test('fs:: store: the query set answers the same on native, local Parquet and cold partitions', async (t) => {
  const storeDir = mkdtempSync(join(tmpdir(), 'svc-cold-fs-'));
  const { server } = await nativeParquetCold(t, { SVC_METRICS_ENABLED: 'true' }, fsStore(storeDir), 2);
  try {
    t.is(await metricValue(server.adminUrl, 'svc_cold_chunk_busy_leases'), 0, 'every lease is released once the queries end');
    t.is(await metricValue(server.adminUrl, 'svc_cold_chunk_pinned_bytes'), 0);
    t.true(await metricValue(server.adminUrl, 'svc_cold_chunk_download_finished_total') > 0);
    t.is(await metricValue(server.adminUrl, 'svc_cold_chunk_download_failed_total'), 0);
  } finally {
    await server.stop();
    server.cleanup();
    rmSync(storeDir, { recursive: true, force: true });
  }
});

const COLD_METRICS = [
  'acquire_full_hit_total', 'acquire_partial_hit_total', 'acquire_full_miss_total', 'acquire_hit_chunks_total', 'acquire_miss_chunks_total',
  'download_started_total', 'download_finished_total', 'download_failed_total', 'download_coalesced_total', 'release_evictions_total',
  'in_flight_downloads', 'pending_batches', 'busy_leases', 'ready_chunks', 'pinned_bytes',
] as const;

async function coldMetrics(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  const values: Record<string, number> = {};
  for (const name of COLD_METRICS) {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`svc_cold_chunk_${name} `));
    values[name] = line === undefined ? NaN : Number(line.split(' ')[1]);
  }
  return values;
}

function expectedMetrics(changes: Partial<Record<(typeof COLD_METRICS)[number], number>>): Record<string, number> {
  const values: Record<string, number> = {};
  for (const name of COLD_METRICS) values[name] = changes[name] ?? 0;
  return values;
}

test('fs:: store: a scripted query sequence moves the cold chunk metrics as predicted', async (t) => {
  const storeDir = mkdtempSync(join(tmpdir(), 'svc-cold-metrics-'));
  const prepared = await nativeParquetCold(t, {}, fsStore(storeDir), 1);
  await prepared.server.stop();
  // The first process is gone; its sweep and uploads are finished (the moves returned when done).
  // A fresh process (one worker, so every query meets the same chunk table and decoded-column cache) that joins
  // only touching chunks into one request (no gap allowance), so the counts below follow from the file layout.
  const env = { SVC_METRICS_ENABLED: 'true', SVC_COLD_STORAGE_OBJECT_STORE: fsStore(storeDir) };
  let server = await startServer({ workers: 1, rootDir: prepared.server.rootDir, env: { ...env, SVC_COLD_STORAGE_COALESCE_GAP_BYTES: '0' } });
  try {
    const expected: Partial<Record<(typeof COLD_METRICS)[number], number>> = {};
    const add = (changes: Partial<Record<(typeof COLD_METRICS)[number], number>>): Record<string, number> => {
      for (const [name, value] of Object.entries(changes) as [(typeof COLD_METRICS)[number], number][]) expected[name] = (expected[name] ?? 0) + value;
      return expectedMetrics(expected);
    };
    t.deepEqual(await coldMetrics(server), expectedMetrics({}));
    // The scan reads qty, i and the designated timestamp ts (max(ts)): 3 row groups × 3 columns = 9 chunks. The
    // partition file keeps each column's chunks together (column after column), and qty and i are neighbours:
    // their 6 chunks are one request; ts stands apart: 2 requests.
    const sums = "select sum(qty), sum(i), max(ts) from t where ts in '2024-01-02'";
    const first = await rows(server.baseUrl, sums);
    t.deepEqual(await coldMetrics(server), add({ acquire_full_miss_total: 1, acquire_miss_chunks_total: 9, download_started_total: 2, download_finished_total: 2, release_evictions_total: 9 }));
    // Again: the process decoded those row groups already, so nothing is fetched.
    t.deepEqual(await rows(server.baseUrl, sums), first);
    t.deepEqual(await coldMetrics(server), add({}));
    // flag and ts: neighbours (the file's last two columns), so 6 chunks in 1 request.
    await rows(server.baseUrl, "select count(), min(ts) from t where ts in '2024-01-03' and flag");
    t.deepEqual(await coldMetrics(server), add({ acquire_full_miss_total: 1, acquire_miss_chunks_total: 6, download_started_total: 1, download_finished_total: 1, release_evictions_total: 6 }));
    // Four readers of price and ts at once (6 chunks; price's 3 together, ts's 3 together, the two columns apart:
    // 2 requests) share the downloads: each chunk is fetched and dropped exactly once.
    const before = await coldMetrics(server);
    const together = await Promise.all([0, 1, 2, 3].map(() => rows(server.baseUrl, "select sum(price), max(ts) from t where ts in '2024-01-01'")));
    for (const answer of together) t.deepEqual(answer, together[0]);
    const after = await coldMetrics(server);
    const change = (name: (typeof COLD_METRICS)[number]): number => (after[name] ?? NaN) - (before[name] ?? NaN);
    t.is(change('download_started_total'), 2);
    t.is(change('release_evictions_total'), 6);
    t.is(change('acquire_miss_chunks_total') - change('download_coalesced_total'), 6, 'misses beyond the 6 fetched chunks are readers that attached to a download');
    t.log(`concurrent readers: ${change('acquire_hit_chunks_total')} chunk hits, ${change('download_coalesced_total')} attached to downloads in flight`);
    t.is(after['busy_leases'], 0);
    t.is(after['pinned_bytes'], 0);
    t.is(after['ready_chunks'], 0);
    t.is(after['in_flight_downloads'], 0);
    t.is(after['pending_batches'], 0);
    // An interval that covers a whole partition leaves no filter on ts, and nothing else reads it: only qty's
    // 3 chunks are fetched, in 1 request.
    await rows(server.baseUrl, "select sum(qty) from t where ts in '2024-01-03'");
    const whole = await coldMetrics(server);
    const grown = (name: (typeof COLD_METRICS)[number]): number => (whole[name] ?? NaN) - (after[name] ?? NaN);
    t.deepEqual([grown('acquire_miss_chunks_total'), grown('download_started_total'), grown('release_evictions_total')], [3, 1, 3]);
    // A fresh process with a gap allowance larger than a whole partition file (under 0.5 MB here): the 9 chunks
    // of qty, i and ts come in one request that also carries the note and flag chunks between them.
    await server.stop();
    server = await startServer({ workers: 1, rootDir: prepared.server.rootDir, env: { ...env, SVC_COLD_STORAGE_COALESCE_GAP_BYTES: '1m' } });
    t.deepEqual(await rows(server.baseUrl, sums), first);
    t.deepEqual(await coldMetrics(server), expectedMetrics({ acquire_full_miss_total: 1, acquire_miss_chunks_total: 9, download_started_total: 1, download_finished_total: 1, release_evictions_total: 9 }));
  } finally {
    await server.stop();
    server.cleanup();
    rmSync(storeDir, { recursive: true, force: true });
  }
});

test('S3 store: same answers; the store stopped fails cold queries naming store and partition, hot ones answer, reads return with it', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'svc-cold-s3-'));
  const s3 = await privateS3(join(base, 's3'));
  const connection = `s3::bucket=coldread;root=svc;region=${s3.region};endpoint=${s3.endpoint};access_key_id=${s3.accessKey};secret_access_key=${s3.secretKey};`;
  const env = { SVC_METRICS_ENABLED: 'true', SVC_COLD_STORAGE_OBJECT_STORE: connection };
  const prepared = await nativeParquetCold(t, { SVC_METRICS_ENABLED: 'true' }, connection, 2);
  let server = prepared.server;
  const silent = createServer((socket) => { socket.on('error', () => undefined); });
  try {
    const coldQuery = "select sum(qty), count() from t where ts in '2024-01-02'";
    const hotQuery = "select sum(qty), count() from t where ts in '2024-01-05'";
    const coldAnswer = await rows(server.baseUrl, coldQuery);
    const hotAnswer = await rows(server.baseUrl, hotQuery);
    // Fresh processes (nothing decoded), then the store goes away.
    await server.stop();
    await stopS3(s3);
    server = await startServer({ workers: 2, rootDir: server.rootDir, env });
    const startedAt = performance.now();
    const failed = await exec(server.baseUrl, coldQuery);
    const failedMs = performance.now() - startedAt;
    t.is(failed.status, 503, failed.text);
    const error = String((failed.json as { error?: unknown }).error);
    t.regex(error, /could not read cold partition \[table=t, partition=2024-01-02, key=t~\d+\/year=2024\/month=01\/day=02\/data\.\d+\.parquet\]/);
    t.true(error.includes(`endpoint=${s3.endpoint}`) && error.includes('bucket=coldread'), error);
    t.true(failedMs < 15_000, `failed after ${Math.round(failedMs)} ms`);
    t.deepEqual(await rows(server.baseUrl, hotQuery), hotAnswer, 'hot partitions answer while the store is down');
    t.is((await fetch(`${server.adminUrl}/`)).status, 200, 'health stays 200');
    t.true(await metricValue(server.adminUrl, 'svc_cold_chunk_download_failed_total') >= 1);
    t.is(await metricValue(server.adminUrl, 'svc_cold_chunk_busy_leases'), 0);
    t.is(await metricValue(server.adminUrl, 'svc_unhandled_errors_total'), 0);

    await restartS3(s3);
    t.deepEqual(await rows(server.baseUrl, coldQuery), coldAnswer, 'reads work again once the store is back');

    // The object replaced behind the manifest's back: the read is pinned to the ETag in _txn and fails.
    const replaced = prepared.made.find((partition) => partition.name === '2024-01-01');
    if (replaced === undefined) throw new Error('2024-01-01 was made cold');
    const store = await openObjectStore(connection);
    const original = await store.get(replaced.key);
    await store.put(replaced.key, Buffer.alloc(original.length, 7));
    await store.close();
    const changed = await exec(server.baseUrl, "select sum(qty), sum(i) from t where ts in '2024-01-01'");
    t.is(changed.status, 503, changed.text);
    t.regex(String((changed.json as { error?: unknown }).error), /partition=2024-01-01.*(412|not the pinned)/);

    // A store that accepts connections and never answers: the query ends at its own timeout, not the store's.
    await server.stop();
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const blackHole = connection.replace(s3.endpoint, `http://127.0.0.1:${port}`);
    server = await startServer({ workers: 1, rootDir: server.rootDir, env: { ...env, SVC_COLD_STORAGE_OBJECT_STORE: blackHole } });
    const hangStart = performance.now();
    const timedOut = await exec(server.baseUrl, coldQuery, {}, { headers: { 'Statement-Timeout': '2000' } });
    const hangMs = performance.now() - hangStart;
    t.is(timedOut.status, 503, timedOut.text);
    t.regex(String((timedOut.json as { error?: unknown }).error), /partition=2024-01-02.*gave up waiting for the object store/);
    t.true(hangMs < 8_000, `answered after ${Math.round(hangMs)} ms`);
  } finally {
    silent.close();
    await server.stop();
    server.cleanup();
    await stopS3(s3, true).catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  }
});
