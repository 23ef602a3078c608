// /write bodies parsed on the worker's parse threads answer exactly as those parsed on the request's thread:
// the same bodies (several 512 KiB pieces long, so lines are cut by piece ends) go to a server with parse threads
// and to one without, whole, chunked at odd sizes and gzipped; statuses, error bodies (line numbers past the
// first piece, the 413 of an overlong line, an unterminated last line) and the committed rows must be equal.
import test from 'ava';
import { gzipSync } from 'node:zlib';
import { startServers, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { ilpErrorBody, postIlp, type IlpResponse } from '../helpers/ilp-http.js';

const LINE_BYTES_MAX = 4096;
/** Enough lines for several pieces of ilpPieceBytes (512 KiB): about 60 bytes each. */
const LINES = 30_000;
let threaded: TestServer;
let inline: TestServer;

test.before(async () => {
  const env = { SVC_LINE_HTTP_MAX_LINE_SIZE: String(LINE_BYTES_MAX) };
  [threaded, inline] = await startServers([
    { workers: 1, env: { ...env, SVC_LINE_HTTP_PARSE_THREAD_COUNT: '2', SVC_LINE_HTTP_PARSE_THREAD_POLICY: 'always' } },
    { workers: 1, env: { ...env, SVC_LINE_HTTP_PARSE_THREAD_COUNT: '0' } },
  ]);
});

test.after.always(async () => {
  await Promise.all([threaded?.stop(), inline?.stop()]);
  threaded?.cleanup();
  inline?.cleanup();
});

/**
 * Lines of two tables, interleaved: tags, integers, doubles, strings with escapes and UTF-8; a column appears
 * only from the middle of the body on. `replace` swaps in other text for the line numbered by its key (1-based).
 */
function ilpLines(table: string, replace: ReadonlyMap<number, string> = new Map()): string[] {
  const lines: string[] = [];
  for (let line = 1; line <= LINES; line++) {
    const late = line > LINES / 2 ? `,late=${line}i` : '';
    const other = line % 7 === 0 ? `${table}_b,host=h${line % 3} load=${line / 8} ${1_700_000_000_000_000_000 + line}` : undefined;
    lines.push(replace.get(line) ?? other ?? `${table},sym=s${line % 11},host=h\\ ${line % 5} v=${line}i,d=${line}.25,s="é\\"${line}"${late} ${1_700_000_000_000_000_000 + line * 1000}`);
  }
  return lines;
}

function body(lines: readonly string[], finalNewline = true): Buffer {
  return Buffer.from(lines.join('\n') + (finalNewline ? '\n' : ''));
}

/** Cuts a body into chunks of an odd size, so network chunks and pieces end in different places. */
function oddChunks(bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 100_003) chunks.push(bytes.subarray(at, at + 100_003));
  return chunks;
}

/** Status and error body without its id (which differs per request), as one comparable value. */
function answerOf(response: IlpResponse): { status: number; error: unknown } {
  if (response.status === 204) return { status: 204, error: undefined };
  return { status: response.status, error: { ...ilpErrorBody(response.text), errorId: '' } };
}

async function tableRows(target: TestServer, table: string): Promise<unknown[][]> {
  const listed = await rows(target.baseUrl, `select count() from tables() where table_name = '${table}'`);
  if (listed[0]?.[0] !== 1) return [];
  return rows(target.baseUrl, `select * from "${table}" order by timestamp`);
}

/** Sends `send`'s body to both servers; returns the threaded server's answer after checking they agree. */
async function sendBoth(t: import('ava').ExecutionContext, tables: readonly string[], send: (port: number) => Promise<IlpResponse>): Promise<{ status: number; error: unknown }> {
  const [fromThreads, fromInline] = await Promise.all([send(threaded.httpPort), send(inline.httpPort)]);
  const answer = answerOf(fromThreads);
  t.deepEqual(answer, answerOf(fromInline));
  for (const table of tables) t.deepEqual(await tableRows(threaded, table), await tableRows(inline, table), table);
  return answer;
}

test('a multi-piece body is committed the same whole, chunked and gzipped', async (t) => {
  const whole = body(ilpLines('th_whole'));
  t.is((await sendBoth(t, ['th_whole', 'th_whole_b'], (port) => postIlp(port, whole))).status, 204);
  t.is((await tableRows(threaded, 'th_whole')).length, LINES - Math.floor(LINES / 7));
  const chunked = body(ilpLines('th_chunked'));
  t.is((await sendBoth(t, ['th_chunked', 'th_chunked_b'], (port) => postIlp(port, oddChunks(chunked)))).status, 204);
  const gzipped = gzipSync(body(ilpLines('th_gzip')));
  t.is((await sendBoth(t, ['th_gzip', 'th_gzip_b'], (port) => postIlp(port, gzipped, { headers: { 'Content-Encoding': 'gzip' } }))).status, 204);
});

test('a bad line past the first piece is a 400 on its line number, and nothing is committed', async (t) => {
  const bad = body(ilpLines('th_bad', new Map([[25_001, 'th_bad,sym=x v=12i,d=oops 1000']])));
  const answer = await sendBoth(t, ['th_bad', 'th_bad_b'], (port) => postIlp(port, oddChunks(bad)));
  t.is(answer.status, 400);
  t.like(answer.error, { code: 'invalid', line: 25_001 });
  t.deepEqual(await tableRows(threaded, 'th_bad'), []);
});

test('an overlong line past the first piece is a 413 on its line', async (t) => {
  const long = body(ilpLines('th_long', new Map([[20_000, `th_long s="${'x'.repeat(LINE_BYTES_MAX)}"`]])));
  const answer = await sendBoth(t, ['th_long', 'th_long_b'], (port) => postIlp(port, long));
  t.is(answer.status, 413);
  t.like(answer.error, { code: 'request too large', line: 20_000 });
});

test('an unterminated string on the last line, without a final newline, is a 400 on that line', async (t) => {
  const cut = body(ilpLines('th_cut', new Map([[LINES, 'th_cut s="never closed']])), false);
  const answer = await sendBoth(t, ['th_cut', 'th_cut_b'], (port) => postIlp(port, cut));
  t.is(answer.status, 400);
  t.like(answer.error, { line: LINES });
});
