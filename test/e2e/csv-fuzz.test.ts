// /imp fuzzing: mutated and hostile CSV uploads (random bytes, broken quotes, huge fields, mixed delimiters,
// binary, invalid UTF-8, odd parameters, malformed schema and multipart bodies). Every upload gets a clean
// answer (2xx or 4xx): never a 5xx, a hang or a crash, and svc_unhandled_errors_total stays 0.
// CSV_FUZZ_SEED reproduces a run, CSV_FUZZ_CASES sizes it.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { startServer } from '../helpers/server.js';
import { multipartBody } from '../helpers/upload.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { csvFuzzCase } from '../helpers/csv-fuzz-cases.js';
import { rows } from '../helpers/http.js';

const CASES = Number(process.env['CSV_FUZZ_CASES'] ?? 1000);
const SEED = Number(process.env['CSV_FUZZ_SEED'] || Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 8;
const CASE_TIMEOUT_MS = 30_000;

interface RawUpload {
  readonly label: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Bodies a multipart parser must refuse cleanly. */
function malformedBodies(): RawUpload[] {
  const good = multipartBody([{ name: 'data', filename: 'x.csv', content: 'a,b\n1,2\n' }]);
  return [
    { label: 'no boundary', contentType: 'multipart/form-data', body: good.body },
    { label: 'wrong boundary', contentType: 'multipart/form-data; boundary=zzz', body: good.body },
    { label: 'truncated', contentType: good.contentType, body: good.body.subarray(0, good.body.length - 20) },
    { label: 'not multipart', contentType: 'text/csv', body: Buffer.from('a,b\n1,2\n') },
    { label: 'no content type', contentType: '', body: Buffer.from('a,b\n1,2\n') },
    { label: 'empty', contentType: good.contentType, body: Buffer.alloc(0) },
    { label: 'headers only', contentType: good.contentType, body: Buffer.from('------svc-test-boundary\r\nContent-Disposition: form-data; name="data"\r\n') },
  ];
}

function checkAnswer(status: number, text: string): string | undefined {
  if (status >= 500 || status < 200) return `status ${status}: ${text.slice(0, 300)}`;
  if (status >= 300 && status < 400) return `status ${status}`;
  return undefined;
}

/** C records and the lines after them (the error and its stack), to show what an unhandled error was. */
function criticalRecords(rootDir: string): string[] {
  const dir = `${rootDir}/log`;
  const lines = readdirSync(dir).flatMap((name) => readFileSync(`${dir}/${name}`, 'utf8').split('\n'));
  return lines.flatMap((line, k) => (/^\S+Z C /.test(line) ? [lines.slice(k, k + 6).join('\n')] : []));
}

async function unhandledErrors(adminUrl: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const match = /^svc_unhandled_errors_total (\d+)/m.exec(text);
  return match === null ? -1 : Number(match[1]);
}

test(`CSV fuzz: ${CASES} hostile uploads to /imp answer cleanly`, async (t) => {
  t.timeout(170_000);
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true' } });
  const findings: string[] = [];
  const labels = new Map<string, number>();
  try {
    const random = seededRandom(SEED);
    const started = Date.now();
    let next = 0;
    let accepted = 0;
    const runner = async (): Promise<void> => {
      while (next < CASES) {
        const index = next++;
        const fuzzCase = csvFuzzCase(random, index);
        labels.set(fuzzCase.label, (labels.get(fuzzCase.label) ?? 0) + 1);
        const { body, contentType } = multipartBody(fuzzCase.parts);
        try {
          const response = await fetch(`${server.baseUrl}/imp?${new URLSearchParams(fuzzCase.params).toString()}`, {
            method: 'POST', body, headers: { 'Content-Type': contentType }, signal: AbortSignal.timeout(CASE_TIMEOUT_MS),
          });
          const text = await response.text();
          if (response.status === 200) accepted++;
          const problem = checkAnswer(response.status, text);
          if (problem !== undefined) findings.push(`${fuzzCase.label} ${JSON.stringify(fuzzCase.params)}: ${problem}`);
        } catch (error) {
          findings.push(`${fuzzCase.label} ${JSON.stringify(fuzzCase.params)}: no answer (${describeFailure(error)})`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, runner));
    for (const upload of malformedBodies()) {
      const headers: Record<string, string> = upload.contentType === '' ? {} : { 'Content-Type': upload.contentType };
      try {
        const response = await fetch(`${server.baseUrl}/imp?name=fz_raw`, { method: 'POST', body: upload.body, headers, signal: AbortSignal.timeout(CASE_TIMEOUT_MS) });
        const problem = checkAnswer(response.status, await response.text());
        if (problem !== undefined) findings.push(`${upload.label}: ${problem}`);
      } catch (error) {
        findings.push(`${upload.label}: no answer (${describeFailure(error)})`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    t.log(`seed ${SEED}: ${CASES} uploads + ${malformedBodies().length} malformed bodies in ${seconds.toFixed(1)} s, ${accepted} accepted; ${[...labels].map(([label, count]) => `${label} ${count}`).join(', ')}`);
    for (const finding of findings.slice(0, 15)) t.log(finding);
    t.is(findings.length, 0, `${findings.length} uploads answered badly (seed ${SEED})`);
    const unhandled = await unhandledErrors(server.adminUrl);
    if (unhandled !== 0) for (const record of criticalRecords(server.rootDir).slice(0, 5)) t.log(record);
    t.is(unhandled, 0, 'no unhandled errors');
    t.true((await rows(server.baseUrl, 'select 1')).length === 1, 'the server still answers');
  } finally {
    await server.stop();
    server.cleanup();
  }
});

/** fetch's own message ("fetch failed") says nothing; its cause (reset, refused, timeout) is what to look at. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
