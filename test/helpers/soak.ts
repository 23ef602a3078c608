// Chaos soak: writer clients insert rows with unique ids (single rows and multi-row batches), importers post
// CSV batches to /imp, readers check invariants while random workers are SIGKILLed and the primary is
// `kill -9`ed twice and restarted on the same root. At the end every acknowledged row is present exactly
// once, every unacknowledged batch is present wholly or not at all, and each worker kill has its C record.
// Used by test/e2e/soak.test.ts (short) and scripts/soak.ts (`npm run soak`, long).
import { readLogFiles, startServer, type TestServer } from './server.js';
import { multipartBody } from './upload.js';
import { childPids } from './proc-stat.js';

export interface SoakOptions {
  readonly seconds: number;
  readonly writers?: number;
  readonly importers?: number;
  readonly readers?: number;
  readonly log?: (line: string) => void;
}

export interface SoakReport {
  readonly violations: string[];
  readonly acknowledgedRows: number;
  readonly unacknowledgedBatches: number;
  readonly failedRequests: number;
  readonly workerKills: number;
  readonly primaryKills: number;
  readonly readerChecks: number;
  readonly finalRows: number;
}

interface Batch {
  readonly ids: number[];
  readonly source: string;
  acknowledged: boolean;
}

const TABLE = 'soak';
const REQUEST_TIMEOUT_MS = 15_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function timestampOf(id: number): string {
  // Spread over a few hours, not in id order, so commits append in place and merge out of order.
  return new Date(Date.UTC(2024, 0, 1) + (id % 5) * 3_600_000 + id * 1000).toISOString();
}

async function execute(server: TestServer, query: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server.baseUrl}/exec?${new URLSearchParams({ query }).toString()}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? ((): void => undefined);
  const violations: string[] = [];
  const batches: Batch[] = [];
  let nextId = 1;
  let server = await startServer({ workers: 2 });
  const rootDir = server.rootDir;
  let failedRequests = 0;
  const failureKinds = new Map<string, number>();
  const failed = (kind: string): void => {
    failedRequests++;
    failureKinds.set(kind, (failureKinds.get(kind) ?? 0) + 1);
  };
  let readerChecks = 0;
  const killedWorkerPids: number[] = [];
  let primaryKills = 0;
  let stopping = false;
  const deadline = Date.now() + options.seconds * 1000;

  const allocate = (count: number, source: string): Batch => {
    const ids = Array.from({ length: count }, () => nextId++);
    const batch: Batch = { ids, source, acknowledged: false };
    batches.push(batch);
    return batch;
  };
  const acknowledgedSnapshot = (): { count: number; sum: number } => {
    let count = 0;
    let sum = 0;
    for (const batch of batches) {
      if (!batch.acknowledged) continue;
      count += batch.ids.length;
      for (const id of batch.ids) sum += id;
    }
    return { count, sum };
  };

  const writer = async (index: number): Promise<void> => {
    while (!stopping) {
      const batch = allocate(Math.random() < 0.7 ? 1 : 2 + Math.floor(Math.random() * 20), `w${index}`);
      const values = batch.ids.map((id) => `(${id}, '${batch.source}', ${id}, '${timestampOf(id)}')`).join(', ');
      try {
        const response = await execute(server, `insert into ${TABLE} values ${values}`);
        if (response.status === 200) batch.acknowledged = true;
        else failed(`insert ${response.status} ${JSON.stringify((response.json as { error?: string } | undefined)?.error ?? '').slice(0, 60)}`);
      } catch (error) {
        failed(`insert ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message).slice(0, 40) : 'error'}`);
        await sleep(100);
      }
    }
  };

  const importer = async (index: number): Promise<void> => {
    while (!stopping) {
      const batch = allocate(10 + Math.floor(Math.random() * 90), `i${index}`);
      const csv = `id,src,v,ts\n${batch.ids.map((id) => `${id},${batch.source},${id},${timestampOf(id)}`).join('\n')}\n`;
      const { body, contentType } = multipartBody([{ name: 'data', filename: 'soak.csv', content: csv }]);
      try {
        const response = await fetch(`${server.baseUrl}/imp?name=${TABLE}&timestamp=ts&fmt=json`, { method: 'POST', body, headers: { 'Content-Type': contentType }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        const report = (await response.json().catch(() => undefined)) as { rowsImported?: number } | undefined;
        if (response.status === 200 && report?.rowsImported === batch.ids.length) batch.acknowledged = true;
        else if (response.status === 200) violations.push(`import of ${batch.ids.length} rows acknowledged with ${JSON.stringify(report)}`);
        else failed(`import ${response.status}`);
      } catch (error) {
        failed(`import ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message).slice(0, 40) : 'error'}`);
        await sleep(100);
      }
      await sleep(50);
    }
  };

  const reader = async (): Promise<void> => {
    // Per reader: two readers' answers may arrive in another order than their snapshots were taken.
    let lastCount = 0;
    while (!stopping) {
      const before = acknowledgedSnapshot();
      try {
        const response = await execute(server, `select count(), count_distinct(id), sum(v), max(id) from ${TABLE}`);
        if (response.status !== 200) {
          failed(`read ${response.status}`);
          await sleep(100);
          continue;
        }
        const [count, distinct, sum, maxId] = ((response.json as { dataset: number[][] }).dataset[0] ?? []) as number[];
        readerChecks++;
        const c = count ?? 0;
        if (c < lastCount) violations.push(`count went down from ${lastCount} to ${c}`);
        lastCount = Math.max(lastCount, c);
        if (distinct !== c) violations.push(`duplicate ids: count ${c}, distinct ${distinct ?? 'null'}`);
        if (c < before.count) violations.push(`count ${c} below the ${before.count} rows acknowledged before the read`);
        if ((sum ?? 0) < before.sum) violations.push(`sum ${sum ?? 'null'} below the ${before.sum} acknowledged before the read`);
        // Ids are 1..nextId-1 at most, each once: the sum of everything sent so far bounds the visible sum.
        const sentMax = nextId - 1;
        if ((maxId ?? 0) > sentMax) violations.push(`id ${maxId ?? 'null'} was never sent (last ${sentMax})`);
        if ((sum ?? 0) > (sentMax * (sentMax + 1)) / 2) violations.push(`sum ${sum ?? 'null'} exceeds the sum of every id sent`);
      } catch (error) {
        failed(`read ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message).slice(0, 40) : 'error'}`);
        await sleep(100);
      }
    }
  };

  const chaos = async (): Promise<void> => {
    const primaryKillTimes = [deadline - options.seconds * 1000 * (2 / 3), deadline - options.seconds * 1000 * (1 / 3)];
    // Both primary kills happen even when slow restarts push the second one past the deadline.
    while (!stopping && (Date.now() < deadline || primaryKillTimes.length > 0)) {
      await sleep(1500 + Math.random() * 2500);
      const nextPrimaryKill = primaryKillTimes[0];
      if (nextPrimaryKill !== undefined && Date.now() >= nextPrimaryKill) {
        primaryKillTimes.shift();
        log(`kill -9 of the primary (pid ${server.process.pid ?? '?'})`);
        await server.kill9();
        primaryKills++;
        server = await startServer({ workers: 2, rootDir });
        log(`primary restarted (pid ${server.process.pid ?? '?'})`);
        continue;
      }
      if (Date.now() >= deadline) continue;
      const workers = childPids(server.process.pid as number);
      const victim = workers[Math.floor(Math.random() * workers.length)];
      if (victim === undefined) continue;
      try {
        process.kill(victim, 'SIGKILL');
      } catch {
        continue;
      }
      killedWorkerPids.push(victim);
      log(`SIGKILL of worker pid ${victim}`);
      // The C record must be in the primary's log before the primary itself may be killed.
      const recorded = new RegExp(` C worker-pool worker \\d+ \\(pid ${victim}\\) died`);
      const until = Date.now() + 10_000;
      while (!recorded.test(readLogFiles(rootDir)) && Date.now() < until) await sleep(100);
    }
  };

  try {
    await execute(server, `create table ${TABLE} (id long, src symbol, v long, ts timestamp) timestamp(ts) partition by HOUR`);
    const clients = [
      ...Array.from({ length: options.writers ?? 4 }, (_, k) => writer(k)),
      ...Array.from({ length: options.importers ?? 1 }, (_, k) => importer(k)),
      ...Array.from({ length: options.readers ?? 2 }, () => reader()),
    ];
    await chaos();
    while (Date.now() < deadline) await sleep(100);
    stopping = true;
    await Promise.all(clients);
    log(`failures: ${[...failureKinds].sort((a, b) => b[1] - a[1]).map(([kind, count]) => `${count}× ${kind}`).join('; ')}`);
    return await verify(server, rootDir, batches, killedWorkerPids, violations, { failedRequests, primaryKills, readerChecks });
  } finally {
    stopping = true;
    await server.stop();
    server.cleanup();
  }
}

async function verify(server: TestServer, rootDir: string, batches: Batch[], killedWorkerPids: number[], violations: string[],
  counts: { failedRequests: number; primaryKills: number; readerChecks: number }): Promise<SoakReport> {
  const response = await execute(server, `select id, src, v, ts from ${TABLE}`);
  if (response.status !== 200) throw new Error(`final read failed: ${JSON.stringify(response.json)}`);
  const found = (response.json as { dataset: [number, string, number, string][] }).dataset;
  const seen = new Map<number, number>();
  for (const [id, src, v, ts] of found) {
    seen.set(id, (seen.get(id) ?? 0) + 1);
    if (v !== id || ts.slice(0, 23) !== timestampOf(id).slice(0, 23) || !/^[wi]\d+$/.test(src)) violations.push(`row ${id} is half-written (${src}, ${v}, ${ts})`);
  }
  for (const [id, times] of seen) if (times > 1) violations.push(`id ${id} is present ${times} times`);
  let acknowledgedRows = 0;
  let unacknowledgedBatches = 0;
  const sent = new Set<number>();
  for (const batch of batches) {
    for (const id of batch.ids) sent.add(id);
    const present = batch.ids.filter((id) => seen.has(id)).length;
    if (batch.acknowledged) {
      acknowledgedRows += batch.ids.length;
      if (present !== batch.ids.length) violations.push(`acknowledged batch ${batch.source} of ${batch.ids.length} rows has ${present} present`);
    } else {
      unacknowledgedBatches++;
      if (present !== 0 && present !== batch.ids.length) violations.push(`unacknowledged batch ${batch.source} is half-visible: ${present} of ${batch.ids.length}`);
    }
  }
  for (const id of seen.keys()) if (!sent.has(id)) violations.push(`id ${id} was never sent`);
  const text = readLogFiles(rootDir);
  const uncleanStarts = (text.match(/ C server-main the previous run \(pid \d+\) did not shut down cleanly/g) ?? []).length;
  if (uncleanStarts !== counts.primaryKills) violations.push(`${uncleanStarts} C records of unclean restarts for ${counts.primaryKills} primary kills`);
  for (const pid of killedWorkerPids) {
    if (!new RegExp(` C worker-pool worker \\d+ \\(pid ${pid}\\) died`).test(text)) violations.push(`no C record for the kill of worker ${pid}`);
  }
  return { violations, acknowledgedRows, unacknowledgedBatches, workerKills: killedWorkerPids.length, finalRows: found.length, ...counts };
}
