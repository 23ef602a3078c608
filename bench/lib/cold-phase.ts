// The object-store part of the cold bench: every Parquet partition of the bench tables moved to the shared S3
// store (Swift on loopback) and off local disk (CONVERT PARTITION TO REMOTE, DROP LOCAL PARTITION), then each query run on a fresh server process twice over: on local Parquet and
// on cold partitions, so both first runs decode from nothing (and the cold one also fetches). Bytes fetched
// come from svc_cold_download_bytes_total; "without column pruning" is the size of the cold objects the
// query's partitions hold (every column of every row group), the bytes a reader fetching whole files would move.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { startServer, type TestServer } from '../../test/helpers/server.js';
import { exec } from '../../test/helpers/http.js';
import { metricValue } from '../../test/helpers/cold-partitions.js';
import { sharedS3 } from '../../test/helpers/s3-service.js';

export interface ColdQuery {
  readonly name: string;
  readonly sql: string;
  /** Tables whose cold partitions the query reads. */
  readonly tables: readonly string[];
  /** Only this partition of them (an interval query); undefined: all of them; null: none (active partition only). */
  readonly partition?: string | null;
}

export interface ColdFigures {
  readonly parquetFreshMs: number;
  readonly coldFreshMs: number;
  readonly coldWarmMs: number;
  readonly fetchedBytes: number;
  readonly wholeObjectBytes: number;
  readonly downloads: number;
  readonly missChunks: number;
  readonly sameRows: boolean;
  /** CPU time the server processes spent on the first run, local Parquet and cold (waiting is the rest). */
  readonly parquetCpuMs: number;
  readonly coldCpuMs: number;
}

/** User + system CPU of a process and its descendants (Linux /proc; clock ticks of 10 ms), 0 where unreadable. */
function processTreeCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    let ms = (Number(fields[11]) + Number(fields[12])) * 10;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter((text) => text !== '')) ms += processTreeCpuMs(Number(child));
    }
    return ms;
  } catch {
    return 0;
  }
}

async function timed(server: TestServer, sql: string): Promise<{ ms: number; text: string }> {
  const started = process.hrtime.bigint();
  const response = await exec(server.baseUrl, sql);
  if (response.status !== 200) throw new Error(`${sql}: ${response.text}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, text: JSON.stringify((response.json as { dataset: unknown }).dataset) };
}

/** First run on a fresh one-worker process (nothing decoded), with the cold metrics it moved. */
async function freshRun(rootDir: string, env: Record<string, string>, sql: string): Promise<{ ms: number; text: string; cpuMs: number; bytes: number; downloads: number; misses: number; server: TestServer }> {
  const server = await startServer({ workers: 1, rootDir, env: { SVC_METRICS_ENABLED: 'true', ...env } });
  // Let start-up work that follows readiness (the cold store's SDK load and bucket check) finish, on both sides
  // alike: the first run measures a query with nothing decoded or fetched, not a process still starting.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const pid = server.process.pid ?? 0;
  const cpuBefore = processTreeCpuMs(pid);
  const run = await timed(server, sql);
  const cpuMs = processTreeCpuMs(pid) - cpuBefore;
  return {
    ...run, server, cpuMs,
    bytes: await metricValue(server.adminUrl, 'svc_cold_download_bytes_total'),
    downloads: await metricValue(server.adminUrl, 'svc_cold_chunk_download_started_total'),
    misses: await metricValue(server.adminUrl, 'svc_cold_chunk_acquire_miss_chunks_total'),
  };
}

/** Moves every Parquet partition of the tables to the store and off local disk; the cold objects' names and sizes. */
async function moveToStore(rootDir: string, tables: Iterable<string>, connection: string): Promise<Map<string, { name: string; bytes: number }[]>> {
  const server = await startServer({ workers: 1, rootDir, env: { SVC_COLD_STORAGE_OBJECT_STORE: connection } });
  const moved = new Map<string, { name: string; bytes: number }[]>();
  try {
    for (const table of tables) {
      for (const sql of [`alter table ${table} convert partition to remote where ts < '2100-01-01'`, `alter table ${table} drop local partition where ts < '2100-01-01'`]) {
        const response = await exec(server.baseUrl, sql, {}, { signal: AbortSignal.timeout(3_600_000), headers: { 'Statement-Timeout': '3600000' } });
        if (response.status !== 200) throw new Error(`${sql}: ${response.text}`);
      }
      const listed = await exec(server.baseUrl, `select name, parquetFileSize from table_partitions('${table}') where isRemotelyServed`);
      moved.set(table, ((listed.json as { dataset: [string, number][] }).dataset).map(([name, bytes]) => ({ name, bytes })));
    }
  } finally {
    await server.stop();
  }
  return moved;
}

export async function measureCold(rootDir: string, queries: readonly ColdQuery[], runs: number, median: (runs: number, action: () => Promise<unknown>) => Promise<number>): Promise<Map<string, ColdFigures>> {
  const parquet = new Map<string, { ms: number; text: string; cpuMs: number }>();
  for (const query of queries) {
    const run = await freshRun(rootDir, {}, query.sql);
    await run.server.stop();
    parquet.set(query.name, run);
  }
  const s3 = await sharedS3();
  const connection = `s3::bucket=svc-bench-cold-${randomBytes(4).toString('hex')};root=bench;region=${s3.region};endpoint=${s3.endpoint};access_key_id=${s3.accessKey};secret_access_key=${s3.secretKey};`;
  const cold = await moveToStore(rootDir, new Set(queries.flatMap((query) => query.tables)), connection);
  const figures = new Map<string, ColdFigures>();
  for (const query of queries) {
    const run = await freshRun(rootDir, { SVC_COLD_STORAGE_OBJECT_STORE: connection }, query.sql);
    try {
      const warm = await median(runs, () => timed(run.server, query.sql));
      const objects = query.tables.flatMap((table) => cold.get(table) ?? []).filter((object) => query.partition === undefined || object.name === query.partition);
      const base = parquet.get(query.name) as { ms: number; text: string; cpuMs: number };
      figures.set(query.name, {
        parquetFreshMs: base.ms, coldFreshMs: run.ms, coldWarmMs: warm, fetchedBytes: run.bytes,
        wholeObjectBytes: query.partition === null ? 0 : objects.reduce((sum, object) => sum + object.bytes, 0),
        downloads: run.downloads, missChunks: run.misses, sameRows: run.text === base.text, parquetCpuMs: base.cpuMs, coldCpuMs: run.cpuMs,
      });
    } finally {
      await run.server.stop();
    }
  }
  return figures;
}

export function coldLines(queries: readonly ColdQuery[], figures: ReadonlyMap<string, ColdFigures>): string[] {
  const lines = [
    '\nCold partitions (S3 API of Swift on loopback): first run on a fresh one-worker process, local Parquet vs cold; shared CPU, noisy',
    '| query | Parquet fresh | cold fresh | cold/Parquet | CPU Parquet / cold | cold warm (decoded) | fetched | whole objects | requests / chunks | same rows |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  let downloads = 0;
  let misses = 0;
  for (const query of queries) {
    const figure = figures.get(query.name);
    if (figure === undefined) continue;
    downloads += figure.downloads;
    misses += figure.missChunks;
    lines.push(`| ${query.name} | ${figure.parquetFreshMs.toFixed(1)} ms | ${figure.coldFreshMs.toFixed(1)} ms | ${(figure.coldFreshMs / figure.parquetFreshMs).toFixed(2)} | ${figure.parquetCpuMs} / ${figure.coldCpuMs} ms | ${figure.coldWarmMs.toFixed(1)} ms | `
      + `${(figure.fetchedBytes / 1e6).toFixed(2)} MB | ${(figure.wholeObjectBytes / 1e6).toFixed(2)} MB | ${figure.downloads} / ${figure.missChunks} | ${figure.sameRows ? 'yes' : 'NO'} |`);
  }
  lines.push(`coalescing factor (download_started / acquire_miss_chunks, all queries): ${downloads} / ${misses} = ${(misses === 0 ? NaN : downloads / misses).toFixed(2)}`);
  return lines;
}
