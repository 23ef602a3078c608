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
// the shared clock runs twice, with ILP's tables partitioned by DAY (the default) and by HOUR. (3) ILP over
// TCP from 8 connections that each send BENCH_O3_TCP_BATCH rows stamped with the current time every 50 ms for
// BENCH_O3_TCP_SECONDS, into a table whose day partition already holds BENCH_O3_TCP_PREFILL rows (fewer just
// after midnight UTC: the prefill ends 2 s before now and starts at midnight at the earliest); the reference is
// one connection sending the same rows per second. The figure is the primary's CPU time: what the merges cost.
// BENCH_O3_ONLY=insert|http|tcp runs one part; BENCH_O3_BASELINE=<main.js of another build> adds that build's
// 8 TCP connections beside this one's.
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { createKeepAliveClient, type KeepAliveClient } from './lib/keep-alive-client.js';
import { ilpBodies, standardIlpRow } from './lib/ilp-bodies.js';
import { processCpuSeconds, treeCpuMs } from './lib/process-cpu.js';
import { post, tableRowCount } from './lib/ingest-requests.js';
import { metricValue } from '../test/helpers/cold-partitions.js';

const sizes = (process.env['BENCH_O3_SIZES'] ?? '100000,1000000,5000000').split(',').map(Number);
const insertRuns = Number(process.env['BENCH_O3_RUNS'] ?? 9);
const ilpRows = Number(process.env['BENCH_O3_ILP_ROWS'] ?? 2_000_000);
const bodyRows = Number(process.env['BENCH_O3_BODY_ROWS'] ?? 10_000);
const senders = 8;
const tcpPrefill = Number(process.env['BENCH_O3_TCP_PREFILL'] ?? 2_000_000);
const tcpSeconds = Number(process.env['BENCH_O3_TCP_SECONDS'] ?? 10);
const tcpBatch = Number(process.env['BENCH_O3_TCP_BATCH'] ?? 250);
const TCP_SEND_EVERY_MS = 50;
/** BENCH_O3_ONLY: insert, http or tcp runs only that part. */
const only = process.env['BENCH_O3_ONLY'];
/** BENCH_O3_BASELINE: another build's main.js; the TCP part then also runs its 8 connections on it. */
const baseline = process.env['BENCH_O3_BASELINE'];
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

/** Each sender posts its own bodies in order; returns seconds until every one was answered. */
async function sendPerSender(server: TestServer, bodiesBySender: readonly (readonly Buffer[])[]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: senders });
  const started = process.hrtime.bigint();
  await Promise.all(bodiesBySender.map(async (bodies) => {
    for (const body of bodies) {
      const answer = await post(agent, server.httpPort, '/write', body);
      if (answer.status !== 204) throw new Error(`/write answered ${answer.status}: ${answer.text}`);
    }
  }));
  agent.destroy();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Rows/s and server CPU s per 1M rows of the rows sent as `bodiesBySender`, on a fresh server. */
async function ilpRun(bodiesBySender: readonly (readonly Buffer[])[], partitionBy = 'DAY'): Promise<{ rate: number; cpu: number; outOfOrder: number }> {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVC_LINE_DEFAULT_PARTITION_BY: partitionBy } });
  try {
    // Warm-up into a table of its own: the request path is compiled before the timed rows arrive.
    await sendPerSender(server, [ilpBodies(200_000, bodyRows, (i) => standardIlpRow(i, 'warm'))]);
    const cpuBefore = treeCpuMs(server.process.pid ?? -1);
    const mergesBefore = await metricValue(server.adminUrl, 'svc_o3_commits_total');
    const seconds = await sendPerSender(server, bodiesBySender);
    const cpu = (treeCpuMs(server.process.pid ?? -1) - cpuBefore) / 1000 / (ilpRows / 1e6);
    return { rate: ilpRows / seconds, cpu, outOfOrder: (await metricValue(server.adminUrl, 'svc_o3_commits_total')) - mergesBefore };
  } finally {
    await server.stop();
    server.cleanup();
  }
}

function narrowLine(sym: number, k: number, nanos: bigint): string {
  return `trades,sym=S${sym} price=${(k % 1000) / 10 + 1},amount=${k % 97}i ${nanos}\n`;
}

/** Rows of the day so far, up to 2 s before now, into `trades` over HTTP. */
async function prefillToday(server: TestServer, rows: number): Promise<void> {
  const nowMs = Date.now();
  const startMs = Math.max(Math.floor(nowMs / 86_400_000) * 86_400_000, nowMs - 2000 - 12 * 3_600_000);
  const startNs = BigInt(startMs) * 1_000_000n;
  const stepNs = BigInt(Math.max(1, Math.floor(((nowMs - 2000 - startMs) * 1e6) / rows)));
  const bodies: Buffer[] = [];
  for (let from = 0; from < rows; from += 50_000) {
    let text = '';
    for (let k = from; k < Math.min(rows, from + 50_000); k++) text += narrowLine(k % 100, k, startNs + BigInt(k) * stepNs);
    bodies.push(Buffer.from(text));
  }
  await sendPerSender(server, [bodies]);
}

/** `connections` TCP senders stamping rows with the current time, the same rows per second in all; returns the primary's CPU s and the merges. */
async function tcpNowRun(connections: number, entryScript?: string): Promise<{ primaryCpu: number; outOfOrder: number; rows: number }> {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true' }, ...(entryScript === undefined ? {} : { entryScript }) });
  try {
    await prefillToday(server, tcpPrefill);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const pid = String(server.process.pid ?? -1);
    const cpuBefore = processCpuSeconds(pid);
    const mergesBefore = await metricValue(server.adminUrl, 'svc_o3_commits_total');
    const sockets = await Promise.all(Array.from({ length: connections }, () => new Promise<Socket>((resolve, reject) => {
      const socket = connect(server.ilpTcpPort, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    })));
    const perBatch = (tcpBatch * senders) / connections;
    const deadline = Date.now() + tcpSeconds * 1000;
    let sent = 0;
    await Promise.all(sockets.map(async (socket, c) => {
      for (let k = 0; Date.now() < deadline;) {
        const base = BigInt(Date.now()) * 1_000_000n;
        let text = '';
        for (let j = 0; j < perBatch; j++, k++) text += narrowLine(c * 10 + (j % 10), k, base + BigInt(j * 1000 + c));
        socket.write(text);
        sent += perBatch;
        await new Promise((resolve) => setTimeout(resolve, TCP_SEND_EVERY_MS));
      }
      await new Promise<void>((resolve) => socket.end(() => resolve()));
    }));
    while ((await tableRowCount(server, 'trades')) < tcpPrefill + sent) await new Promise((resolve) => setTimeout(resolve, 50));
    return { primaryCpu: processCpuSeconds(pid) - cpuBefore, outOfOrder: (await metricValue(server.adminUrl, 'svc_o3_commits_total')) - mergesBefore, rows: sent };
  } finally {
    await server.stop();
    server.cleanup();
  }
}

async function insertLines(): Promise<string[]> {
  const lines: string[] = [];
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
  return lines;
}

async function httpLines(): Promise<string[]> {
  const sharedClock = Array.from({ length: senders }, (_, sender) => ilpBodies(ilpRows / senders, bodyRows, (i) => standardIlpRow(i * senders + sender)));
  const ordered = ilpBodies(ilpRows, bodyRows, standardIlpRow);
  const slices = Array.from({ length: senders }, (_, sender) => ordered.filter((_, k) => k % senders === sender));
  const shared = await ilpRun(sharedClock);
  const inOrder = await ilpRun(slices);
  const sharedHourly = await ilpRun(sharedClock, 'HOUR');
  const ilpLine = (name: string, run: { rate: number; cpu: number; outOfOrder: number }, note: string): string => `| ILP HTTP, ${senders} senders, ${ilpRows.toLocaleString('en-US')} rows, ${name} | ${Math.round(run.rate).toLocaleString('en-US')} rows/s `
    + `| ${Math.round(inOrder.rate).toLocaleString('en-US')} rows/s | ${(run.rate / inOrder.rate).toFixed(2)} | ${note} ${run.cpu.toFixed(2)} CPU s per 1M rows, ${run.outOfOrder} out-of-order commits; the reference, consecutive slices: ${inOrder.cpu.toFixed(2)} CPU s, ${inOrder.outOfOrder} |`;
  return [
    ilpLine('one clock, DAY', shared, 'senders stamp rows with one clock (row i to sender i % 8), tables by DAY (the default):'),
    ilpLine('one clock, HOUR', sharedHourly, 'the same, tables by HOUR (line.default.partition.by):'),
  ];
}

async function tcpLines(): Promise<string[]> {
  const one = await tcpNowRun(1);
  const runs: [string, Awaited<ReturnType<typeof tcpNowRun>>][] = [];
  if (baseline !== undefined) runs.push(['baseline build', await tcpNowRun(senders, baseline)]);
  runs.push(['this build', await tcpNowRun(senders)]);
  return runs.map(([name, many]) => `| ILP TCP (${name}), ${senders} connections stamping the current time, ${Math.round(many.rows / tcpSeconds).toLocaleString('en-US')} rows/s for ${tcpSeconds} s into a day of ${tcpPrefill.toLocaleString('en-US')} rows `
    + `| ${many.primaryCpu.toFixed(2)} primary CPU s | ${one.primaryCpu.toFixed(2)} primary CPU s | ${(many.primaryCpu / one.primaryCpu).toFixed(2)} | ${many.outOfOrder} out-of-order commits; the reference, one connection with the same rows per second: ${one.outOfOrder} |`);
}

async function main(): Promise<void> {
  const lines = ['| measure | out of order | in order (reference) | ratio | note |', '|---|---:|---:|---:|---|'];
  if (only === undefined || only === 'insert') lines.push(...(await insertLines()));
  if (only === undefined || only === 'http') lines.push(...(await httpLines()));
  if (only === undefined || only === 'tcp') lines.push(...(await tcpLines()));
  process.stdout.write(`\nOut-of-order commits (ratio: out of order over in order; the copy of a partition's older rows makes it grow with the partition)\n${lines.join('\n')}\n`);
}

await main();
