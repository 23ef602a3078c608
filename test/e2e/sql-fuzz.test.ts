// Grammar-aware SQL fuzzing over HTTP: random token sequences, type-aware generated statements and mutations
// of the .slt statements, sent with concurrency to /exec (one in ten to /exp as CSV or Parquet). Every case must answer 200 with a result or 400 with {query,error,position}: never a 5xx, a
// hang or a crash, and svc_unhandled_errors_total stays 0. SQL_FUZZ_SEED reproduces a run, SQL_FUZZ_CASES sizes it.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, get } from 'node:http';
import { startServer } from '../helpers/server.js';
import { sqlUrl } from '../helpers/http.js';
import { generateSelect, keepFixtures, mutateStatement, randomTokenSequence, sltRecords, type FuzzTable } from '../helpers/sql-fuzz-cases.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { repoRoot } from '../helpers/server.js';
import { generateTypedStatement, kindOfType, type TypedTable } from '../helpers/sql-fuzz-typed.js';

const CASES = Number(process.env['SQL_FUZZ_CASES'] ?? 20_000);
const SEED = Number(process.env['SQL_FUZZ_SEED'] || Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 24;
const CASE_TIMEOUT_MS = 20_000;

interface Finding {
  readonly sql: string;
  readonly problem: string;
}

function checkAnswer(sql: string, status: number, text: string): string | undefined {
  if (status === 200) return undefined;
  if (status !== 400) return `status ${status}: ${text.slice(0, 300)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `400 without JSON: ${text.slice(0, 200)}`;
  }
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record).join(',');
  if (keys !== 'query,error,position') return `400 body keys ${keys}`;
  // QuestDB's /exp answers a blank query with "No query text" and an empty `query`.
  if (record['query'] !== sql && !(sql.trim() === '' && record['query'] === '')) return '400 body does not echo the query';
  const position = record['position'];
  if (typeof position !== 'number' || position < 0 || position > sql.length) return `position ${String(position)} outside the text`;
  return undefined;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/**
 * node:http with a keep-alive agent: much cheaper per request than fetch, so the server does most of the work.
 * `cut`: the answer started (status sent) and the server then closed the connection, which is how a statement
 * that fails or times out while its rows are streaming ends (the status can no longer change).
 */
function httpGet(url: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; text: string; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), cut: false }));
      response.on('error', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), cut: true }));
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

/** C records and the lines after them (the error and its stack), to show what an unhandled error was. */
function criticalRecords(rootDir: string): string[] {
  const dir = `${rootDir}/log`;
  const lines = readdirSync(dir).flatMap((name) => readFileSync(`${dir}/${name}`, 'utf8').split('\n'));
  return lines.flatMap((line, k) => (/^\S+Z [CE] /.test(line) ? [lines.slice(k, k + 6).join('\n')] : []));
}

async function unhandledErrors(adminUrl: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const match = /^svc_unhandled_errors_total (\d+)/m.exec(text);
  return match === null ? -1 : Number(match[1]);
}

test(`SQL fuzz: ${CASES} cases answer 200 or 400, never 5xx, hang or crash`, async (t) => {
  t.timeout(170_000);
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVC_QUERY_TIMEOUT: '3s' } });
  const findings: Finding[] = [];
  try {
    const records = sltRecords(join(repoRoot, 'test', 'sql'));
    // The fixture tables of the .slt files, so that mutated statements reach binding and execution.
    for (const record of records) {
      if (record.kind === 'ok') await fetch(sqlUrl(server.baseUrl, '/exec', record.sql)).then((response) => response.text());
    }
    const tables: FuzzTable[] = [];
    const typedTables: TypedTable[] = [];
    const tableList = (await (await fetch(sqlUrl(server.baseUrl, '/exec', 'select table_name from tables()'))).json()) as { dataset: [string][] };
    for (const [name] of tableList.dataset) {
      const described = (await (await fetch(sqlUrl(server.baseUrl, '/exec', `select * from "${name}" limit 0`))).json()) as { columns: { name: string; type: string }[]; timestamp: number };
      tables.push({ name: `"${name}"`, columns: described.columns.map((column) => `"${column.name}"`) });
      const designated = described.columns[described.timestamp];
      typedTables.push({
        name: `"${name}"`,
        columns: described.columns.map((column) => ({ name: `"${column.name}"`, kind: kindOfType(column.type) })),
        ...(designated === undefined ? {} : { designatedTimestamp: `"${designated.name}"` }),
      });
    }
    const seeds = records.map((record) => record.sql).filter((sql) => sql.length < 4000);
    const random = seededRandom(SEED);
    const cases: string[] = [];
    for (let k = 0; k < CASES; k++) {
      const kind = random();
      if (kind < 0.25) cases.push(randomTokenSequence(random));
      else if (kind < 0.35 && tables.length > 0) cases.push(generateSelect(random, tables));
      else if (kind < 0.7 && typedTables.length > 0) cases.push(generateTypedStatement(random, typedTables));
      else cases.push(keepFixtures(mutateStatement(random, seeds[Math.floor(random() * seeds.length)] as string)));
    }
    const started = Date.now();
    let next = 0;
    let statusOk = 0;
    let status400 = 0;
    const slowest: { ms: number; sql: string }[] = [];
    let timeouts = 0;
    let cutOff = 0;
    const inFlight = new Map<number, { sql: string; started: number }>();
    const runner = async (): Promise<void> => {
      while (next < cases.length) {
        const index = next++;
        const sql = cases[index] as string;
        // One case in ten goes through /exp (CSV, or Parquet for half of them): same statements, another writer.
        // /exp takes its time limit from `timeout` (seconds; Parquet otherwise allows 300 s), not Statement-Timeout.
        const path = index % 10 === 9 ? (index % 20 === 19 ? '/exp?fmt=parquet&timeout=1&' : '/exp?timeout=1&') : '/exec?';
        const caseStarted = Date.now();
        inFlight.set(index, { sql, started: caseStarted });
        try {
          const response = await httpGet(`${server.baseUrl}${path}${new URLSearchParams({ query: sql }).toString()}`, { 'Statement-Timeout': '250' }, CASE_TIMEOUT_MS);
          const text = response.text;
          if (response.cut) {
            // Only an answer that had started as a 200 may be cut off; anything else is a finding.
            if (response.status !== 200) findings.push({ sql, problem: `status ${response.status} cut off: ${text.slice(0, 200)}` });
            cutOff++;
            continue;
          }
          if (response.status === 200) statusOk++;
          else if (response.status === 400) status400++;
          if (text.includes('timeout, query aborted')) timeouts++;
          const problem = checkAnswer(sql, response.status, text);
          if (problem !== undefined) findings.push({ sql, problem });
          slowest.push({ ms: Date.now() - caseStarted, sql });
          if (slowest.length > 20) slowest.sort((a, b) => b.ms - a.ms).length = 5;
        } catch (error) {
          // A case that blocks its worker makes the others on that worker wait too: name the oldest one in flight.
          const oldest = [...inFlight.values()].sort((a, b) => a.started - b.started)[0];
          const blocker = oldest === undefined || oldest.sql === sql ? '' : ` (oldest in flight, ${Date.now() - oldest.started} ms: ${JSON.stringify(oldest.sql).slice(0, 300)})`;
          findings.push({ sql, problem: `no answer: ${error instanceof Error ? error.message : String(error)}${blocker}` });
        } finally {
          inFlight.delete(index);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, runner));
    const seconds = (Date.now() - started) / 1000;
    t.log(`seed ${SEED}: ${cases.length} cases in ${seconds.toFixed(1)} s (${statusOk} results, ${status400} errors of which ${timeouts} timeouts, ${cutOff} cut off while streaming)`);
    for (const slow of slowest.sort((a, b) => b.ms - a.ms).slice(0, 5)) t.log(`slow: ${slow.ms} ms ${JSON.stringify(slow.sql).slice(0, 200)}`);
    for (const finding of findings.slice(0, 15)) t.log(`${finding.problem}\n    ${JSON.stringify(finding.sql).slice(0, 400)}`);
    if (findings.length > 0) for (const record of criticalRecords(server.rootDir).slice(0, 5)) t.log(record);
    t.is(findings.length, 0, `${findings.length} cases answered badly (seed ${SEED})`);
    const unhandled = await unhandledErrors(server.adminUrl);
    if (unhandled !== 0) for (const record of criticalRecords(server.rootDir).slice(0, 5)) t.log(record);
    t.is(unhandled, 0, 'no unhandled errors');
    t.is(server.process.exitCode, null, 'the server is still running');
  } finally {
    agent.destroy();
    await server.stop();
    server.cleanup();
  }
});
