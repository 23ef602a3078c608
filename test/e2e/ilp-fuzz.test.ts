// /write fuzzing: 5,000 seeded mutations of valid ILP bodies (truncated lines, bad escapes, huge numbers,
// invalid UTF-8, binary garbage in protocol 2 fields, overlong lines, type conflicts, hostile names, byte edits,
// garbage), sent whole, chunked at random points or gzipped, over keep-alive connections. Every answer is 204,
// 400 or 413 with QuestDB's JSON error body; a refused request writing tables of its own leaves none of them
// behind, and unmutated ones are committed row for row; no unhandled error, no crash, and the server still
// writes and queries. Then 600 more go over ILP TCP (no replies): each connection is closed by the server, and
// the server keeps serving. ILP_FUZZ_SEED replays a run, ILP_FUZZ_CASES and ILP_FUZZ_TCP_CASES size it.
import test, { type ExecutionContext } from 'ava';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/ilp-tcp.js';
import { exec, rows } from '../helpers/http.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { chunksOf, ilpFuzzCase, ilpFuzzPoolBody, type IlpFuzzCase } from '../helpers/ilp-fuzz-cases.js';
import { ilpErrorBody, postIlp, type IlpResponse } from '../helpers/ilp-http.js';

const CASES = Number(process.env['ILP_FUZZ_CASES'] ?? 5000);
const SEED = Number(process.env['ILP_FUZZ_SEED'] || Math.floor(Math.random() * 2 ** 31));
const TCP_CASES = Number(process.env['ILP_FUZZ_TCP_CASES'] ?? 600);
/** Many requests in flight let the primary commit several per group, the run's bottleneck. */
const CONCURRENCY = 32;
/** A TCP connection the server has not closed this long after the client's half-close counts as hung. */
const TCP_CLOSE_WAIT_MS = 10_000;
const LINE_BYTES_MAX = 4096;
/** Unmutated bodies whose row counts are checked one by one at the end. */
const COUNTED_CASES_MAX = 60;

/**
 * 400s about the request rather than a line: a gzip body that does not decompress, and a column that a
 * concurrent request of the same group commit added with another type first (the primary finds the conflict
 * after the lines were parsed, so there is no line to name).
 */
function isLineless400(fuzzCase: IlpFuzzCase, message: string): boolean {
  if (fuzzCase.gzip && message.startsWith('cannot decompress the gzip body: ')) return true;
  return !fuzzCase.isolated && /^table: fz_pool\d+, column: .*; cast error from protocol type: [\w(),]+ to column type: [\w(),]+$/.test(message);
}

/** What is wrong with an answer, or undefined when it is one QuestDB's clients understand. */
function checkAnswer(fuzzCase: IlpFuzzCase, response: IlpResponse): string | undefined {
  if (response.status === 204) return response.text === '' ? undefined : `204 with a body: ${response.text.slice(0, 200)}`;
  if (response.status !== 400 && response.status !== 413) return `status ${response.status}: ${response.text.slice(0, 300)}`;
  let body;
  try {
    body = ilpErrorBody(response.text);
  } catch (error) {
    return `malformed error body (${error instanceof Error ? error.message : String(error)})`;
  }
  if (response.status === 413) return body.code === 'request too large' && body.line !== undefined ? undefined : `413 body ${response.text}`;
  if (body.code === 'not supported') return body.message === 'unsupported precision' ? undefined : `400 body ${response.text}`;
  if (body.code !== 'invalid') return `400 code ${body.code}`;
  if (body.line === undefined) return isLineless400(fuzzCase, body.message) ? undefined : `400 without a line: ${response.text}`;
  return body.message.startsWith(`failed to parse line protocol:errors encountered on line(s):\nerror in line ${body.line}: `) ? undefined : `400 message ${response.text.slice(0, 300)}`;
}

/** C records and the lines after them (the error and its stack), to show what an unhandled error was. */
function criticalRecords(rootDir: string): string[] {
  const dir = `${rootDir}/log`;
  const lines = readdirSync(dir).flatMap((name) => readFileSync(`${dir}/${name}`, 'utf8').split('\n'));
  return lines.flatMap((line, k) => (/^\S+Z C /.test(line) ? [lines.slice(k, k + 6).join('\n')] : []));
}

async function metric(adminUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

function describe(fuzzCase: IlpFuzzCase, index: number): string {
  return `#${index} ${fuzzCase.label}${fuzzCase.cuts.length > 0 ? ` cut at ${fuzzCase.cuts.join(',')}` : ''}: ${JSON.stringify(fuzzCase.body.toString('latin1').slice(0, 160))}`;
}

let server: TestServer;

test.before(async () => {
  server = await startServer({
    workers: 2,
    env: { SVC_METRICS_ENABLED: 'true', SVC_LINE_HTTP_MAX_LINE_SIZE: String(LINE_BYTES_MAX), SVC_LINE_TCP_MAX_LINE_SIZE: String(LINE_BYTES_MAX), SVC_LINE_TCP_COMMIT_INTERVAL_DEFAULT: '100ms' },
  });
  const pool = await postIlp(server.httpPort, ilpFuzzPoolBody());
  if (pool.status !== 204) throw new Error(`pool tables: ${pool.status} ${pool.text}`);
});

test.after.always(async () => {
  // The fuzz's tables need no orderly shutdown (which fsyncs every file under db/: seconds for hundreds of tables).
  await server?.kill9();
  server?.cleanup();
});

/** No process died, nothing was reported as a bug, and the server still writes over HTTP and answers queries. */
async function assertStillServing(t: ExecutionContext, table: string): Promise<void> {
  t.is(server.process.exitCode, null, 'the primary is alive');
  t.is(await metric(server.adminUrl, 'svc_worker_restarts_total'), 0, 'no worker died');
  const unhandled = await metric(server.adminUrl, 'svc_unhandled_errors_total');
  if (unhandled !== 0) for (const record of criticalRecords(server.rootDir).slice(0, 5)) t.log(record);
  t.is(unhandled, 0, 'no unhandled errors');
  t.deepEqual(server.output().split('\n').filter((line) => /^\S+Z C /.test(line)).slice(0, 5), [], 'no C record on the output');
  t.is((await postIlp(server.httpPort, Buffer.from(`${table},s=ok v=1i 1000t\n`))).status, 204, 'the server still writes');
  t.deepEqual(await rows(server.baseUrl, `select s, v from ${table}`), [['ok', 1]], 'and still queries');
}

test.serial(`ILP fuzz: ${CASES} mutated bodies to /write answer 204, 400 or 413 and commit all or nothing`, async (t) => {
  t.timeout(170_000);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const findings: string[] = [];
  const statuses = new Map<string, number>();
  const refused: IlpFuzzCase[] = [];
  const committedValid: IlpFuzzCase[] = [];
  try {
    const random = seededRandom(SEED);
    const started = Date.now();
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < CASES) {
        const index = next++;
        const fuzzCase = ilpFuzzCase(random, index, { lineBytesMax: LINE_BYTES_MAX });
        const headers: Record<string, string> = fuzzCase.gzip ? { 'Content-Encoding': 'gzip' } : {};
        const path = fuzzCase.precision === undefined ? '/write' : `/write?precision=${encodeURIComponent(fuzzCase.precision)}`;
        try {
          const response = await postIlp(server.httpPort, fuzzCase.cuts.length === 0 ? fuzzCase.body : chunksOf(fuzzCase), { agent, headers, path });
          statuses.set(`${response.status}`, (statuses.get(`${response.status}`) ?? 0) + 1);
          const problem = checkAnswer(fuzzCase, response);
          if (problem !== undefined) findings.push(`${describe(fuzzCase, index)} → ${problem}`);
          if (fuzzCase.isolated && response.status !== 204) refused.push(fuzzCase);
          else if (fuzzCase.isolated && fuzzCase.expectedRows !== undefined && committedValid.length < COUNTED_CASES_MAX) committedValid.push(fuzzCase);
          if (fuzzCase.label === 'valid' && response.status !== 204) findings.push(`${describe(fuzzCase, index)} → an unmutated body was refused: ${response.text.slice(0, 300)}`);
        } catch (error) {
          findings.push(`${describe(fuzzCase, index)} → no answer (${error instanceof Error ? error.message : String(error)})`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const seconds = (Date.now() - started) / 1000;
    t.log(`seed ${SEED} (replay with ILP_FUZZ_SEED=${SEED}): ${CASES} requests in ${seconds.toFixed(1)} s: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    for (const finding of findings.slice(0, 15)) t.log(finding);
    t.is(findings.length, 0, `${findings.length} requests answered badly (seed ${SEED})`);
  } finally {
    agent.destroy();
  }
  const existing = new Set((await rows(server.baseUrl, 'select table_name from tables()')).map((row) => String(row[0]).toLowerCase()));
  const leftovers = refused.flatMap((fuzzCase) => fuzzCase.tables.filter((table) => existing.has(table.toLowerCase())).map((table) => `${table} (${fuzzCase.label})`));
  t.deepEqual(leftovers.slice(0, 10), [], 'a refused request created none of its tables');
  for (const fuzzCase of committedValid) {
    for (const [table, expected] of fuzzCase.expectedRows ?? []) {
      t.deepEqual(await rows(server.baseUrl, `select count() from "${table}"`), [[expected]], `${table} holds every row of its request`);
    }
  }
  await assertStillServing(t, 'fz_final_http');
});

/** Writes the chunks on a fresh connection and half-closes it; resolves once the server has closed it too. */
function sendTcp(port: number, chunks: readonly Buffer[]): Promise<'closed' | 'hung'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('hung');
    }, TCP_CLOSE_WAIT_MS);
    socket.on('error', () => undefined); // a reset is one way the server closes after a bad line
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      socket.end();
    });
  });
}

test.serial(`ILP fuzz: ${TCP_CASES} mutated bodies over TCP never crash the server or stop it serving`, async (t) => {
  t.timeout(120_000);
  const random = seededRandom(SEED + 1);
  const started = Date.now();
  const hung: string[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < TCP_CASES) {
      const index = next++;
      const fuzzCase = ilpFuzzCase(random, CASES + index, { lineBytesMax: LINE_BYTES_MAX });
      if ((await sendTcp(server.ilpTcpPort, chunksOf(fuzzCase))) === 'hung' && hung.length < 10) hung.push(describe(fuzzCase, CASES + index));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  t.log(`seed ${SEED + 1}: ${TCP_CASES} connections in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(hung, [], 'the server closes every connection once the client has sent its body');
  const final = await sendTcp(server.ilpTcpPort, [Buffer.from('fz_final_tcp,s=ok v=2i 1000t\n')]);
  t.is(final, 'closed');
  // The table appears before its rows are committed: wait for the row itself.
  const committed = async (): Promise<boolean> => JSON.stringify((await exec(server.baseUrl, 'select s, v from fz_final_tcp')).json).includes('"dataset":[["ok",2]]');
  t.true(await waitUntil(committed, 10_000), 'a valid TCP write is committed');
  await assertStillServing(t, 'fz_final_after_tcp');
});
