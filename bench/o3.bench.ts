// Out-of-order commits against partition size. An out-of-order commit writes a new version of the partition it
// lands in (storage/table-writer.ts, mergeIntoNewVersion): the rows after the first new timestamp are merged
// with the new ones, and the rows before it are copied to the new version. The copy follows the size of the
// partition, not of the commit, so late rows into a large partition cost a copy of most of it each time.
// (1) One-row INSERTs through /exec into a table whose only (day) partition holds BENCH_O3_SIZES rows: the
// reference is an in-order row (after the last one) into the same table in the same run, the ratio is the
// out-of-order row's median over it. (2) ILP over HTTP from 8 senders that stamp rows with one shared clock,
// as agents sending current data do (row i goes to sender i % 8, requests of BENCH_O3_BODY_ROWS rows): every
// request overlaps the others' time range, so most commits are out of order; the reference is the same rows
// sent in time order over the same 8 connections (each request a consecutive slice), on a fresh server each;
// the shared clock runs twice, with ILP's tables partitioned by DAY (the default) and by HOUR.
import { Agent, request } from 'node:http';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { createKeepAliveClient, type KeepAliveClient } from './lib/keep-alive-client.js';
import { ilpBodies, standardIlpRow } from './lib/ilp-bodies.js';
import { treeCpuMs } from './lib/process-cpu.js';

const sizes = (process.env['BENCH_O3_SIZES'] ?? '100000,1000000,5000000').split(',').map(Number);
const insertRuns = Number(process.env['BENCH_O3_RUNS'] ?? 9);
const ilpRows = Number(process.env['BENCH_O3_ILP_ROWS'] ?? 2_000_000);
const bodyRows = Number(process.env['BENCH_O3_BODY_ROWS'] ?? 10_000);
const senders = 8;
/** Rows 10 ms apart: a day partition holds up to 8.64M of them. */
const ROW_STEP_MICROS = 10_000;
const DAY_MICROS = Date.UTC(2024, 0, 1) * 1000;

function isoMicros(micros: number): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
}

async function execOk(client: KeepAliveClient, sql: string): Promise<number> {
  const started = process.hrtime.bigint();
  const answer = await client.exec(sql);
  if (answer.status !== 200) throw new Error(`${sql}: ${answer.status} ${answer.text}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? NaN;
}

/** Median ms of an in-order and of an out-of-order one-row INSERT into a day partition of `size` rows. */
async function insertLatencies(client: KeepAliveClient, size: number): Promise<{ inOrder: number; outOfOrder: number }> {
  const table = `o3_${size}`;
  await execOk(client, `create table ${table} (ts timestamp, v double) timestamp(ts) partition by DAY WAL`);
  await execOk(client, `insert into ${table} select timestamp_sequence('2024-01-01', ${ROW_STEP_MICROS}) ts, x::double v from long_sequence(${size})`);
  let last = DAY_MICROS + (size - 1) * ROW_STEP_MICROS;
  const inOrder: number[] = [];
  const outOfOrder: number[] = [];
  for (let k = 0; k < insertRuns; k++) {
    last += 2;
    inOrder.push(await execOk(client, `insert into ${table} values('${isoMicros(last)}', 1.0)`));
    // One µs before the last row: the merge rewrites two rows and copies the rest of the partition.
    outOfOrder.push(await execOk(client, `insert into ${table} values('${isoMicros(last - 1)}', 2.0)`));
  }
  return { inOrder: median(inOrder), outOfOrder: median(outOfOrder) };
}

function post(agent: Agent, port: number, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/write', method: 'POST', agent, headers: { 'Content-Length': String(body.length) } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
      res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`/write answered ${res.statusCode ?? 0}: ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each sender posts its own bodies in order; returns seconds until every one was answered. */
async function sendPerSender(server: TestServer, bodiesBySender: readonly (readonly Buffer[])[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: senders });
  const started = process.hrtime.bigint();
  await Promise.all(bodiesBySender.map(async (bodies) => {
    for (const body of bodies) await post(agent, server.httpPort, body);
  }));
  agent.destroy();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Rows/s and server CPU s per 1M rows of the rows sent as `bodiesBySender`, on a fresh server. */
async function ilpRun(bodiesBySender: readonly (readonly Buffer[])[], partitionBy = 'DAY'): Promise<{ rate: number; cpu: number; outOfOrder: string }> {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVC_LINE_DEFAULT_PARTITION_BY: partitionBy } });
  try {
    // Warm-up into a table of its own: the request path is compiled before the timed rows arrive.
    await sendPerSender(server, [ilpBodies(200_000, bodyRows, (i) => standardIlpRow(i, 'warm'))]);
    const cpuBefore = treeCpuMs(server.process.pid ?? -1);
    const seconds = await sendPerSender(server, bodiesBySender);
    const cpu = (treeCpuMs(server.process.pid ?? -1) - cpuBefore) / 1000 / (ilpRows / 1e6);
    const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
    const outOfOrder = /^svc_o3_commits_total\S* (\d+)/m.exec(metrics)?.[1] ?? '?';
    return { rate: ilpRows / seconds, cpu, outOfOrder };
  } finally {
    await server.stop();
    server.cleanup();
  }
}

async function main(): Promise<void> {
  const lines = ['| measure | out of order | in order (reference) | ratio | note |', '|---|---:|---:|---:|---|'];
  const server = await startServer({ workers: 1 });
  const client = createKeepAliveClient(server.baseUrl);
  try {
    for (const size of sizes) {
      const { inOrder, outOfOrder } = await insertLatencies(client, size);
      lines.push(`| one-row INSERT, day partition of ${size.toLocaleString('en-US')} rows | ${outOfOrder.toFixed(1)} ms | ${inOrder.toFixed(1)} ms | ${(outOfOrder / inOrder).toFixed(2)} | median of ${insertRuns} |`);
    }
  } finally {
    client.close();
    await server.stop();
    server.cleanup();
  }
  const sharedClock = Array.from({ length: senders }, (_, sender) => ilpBodies(ilpRows / senders, bodyRows, (i) => standardIlpRow(i * senders + sender)));
  const ordered = ilpBodies(ilpRows, bodyRows, standardIlpRow);
  const slices = Array.from({ length: senders }, (_, sender) => ordered.filter((_, k) => k % senders === sender));
  const shared = await ilpRun(sharedClock);
  const inOrder = await ilpRun(slices);
  const sharedHourly = await ilpRun(sharedClock, 'HOUR');
  const ilpLine = (name: string, run: { rate: number; cpu: number; outOfOrder: string }, note: string): string => `| ILP HTTP, ${senders} senders, ${ilpRows.toLocaleString('en-US')} rows, ${name} | ${Math.round(run.rate).toLocaleString('en-US')} rows/s `
    + `| ${Math.round(inOrder.rate).toLocaleString('en-US')} rows/s | ${(run.rate / inOrder.rate).toFixed(2)} | ${note} ${run.cpu.toFixed(2)} CPU s per 1M rows, ${run.outOfOrder} out-of-order commits; the reference, consecutive slices: ${inOrder.cpu.toFixed(2)} CPU s, ${inOrder.outOfOrder} |`;
  lines.push(ilpLine('one clock, DAY', shared, 'senders stamp rows with one clock (row i to sender i % 8), tables by DAY (the default):'));
  lines.push(ilpLine('one clock, HOUR', sharedHourly, 'the same, tables by HOUR (line.default.partition.by):'));
  process.stdout.write(`\nOut-of-order commits (ratio: out of order over in order; the copy of a partition's older rows makes it grow with the partition)\n${lines.join('\n')}\n`);
}

await main();
