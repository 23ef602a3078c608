// Large uploads are converted on parse threads while they contain no quotes, and on the request's thread from
// the first quote on. Both must give exactly what the single-threaded path gives: the same report (rows,
// rejections, per-column errors, the line of an abort) and the same table. Compared against a server whose
// parse threads are off (http.text.parse.thread.count=0), over real HTTP.
import test from 'ava';
import { startServers, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';

let threaded: TestServer;
let single: TestServer;

test.before(async () => {
  [threaded, single] = await startServers([
    { workers: 1, env: { SVC_HTTP_TEXT_PARSE_THREAD_COUNT: '2' } },
    { workers: 1, env: { SVC_HTTP_TEXT_PARSE_THREAD_COUNT: '0' } },
  ]);
});

test.after.always(async () => {
  for (const server of [threaded, single]) {
    await server?.stop();
    server?.cleanup();
  }
});

const ROW_COUNT = 320_000;
/** Lines (1-based, header = 1) whose `v` does not parse; they fall into different 4 MB pieces. */
const BAD_LINES = new Set([5_000, 150_001, 260_000]);

/** About 13 MB: several pieces. `quotedLine` puts a quoted field with a comma in that line. */
function csv(quotedLine: number, badLines: ReadonlySet<number> = BAD_LINES): string {
  const lines = ['ts,sym,v,note'];
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < ROW_COUNT; i++) {
    const line = i + 2;
    const ts = new Date(start + i * 1000).toISOString();
    const v = badLines.has(line) ? 'x' : String(i);
    const note = line === quotedLine ? '"a, ""quoted"" note"' : `n${i % 97}`;
    lines.push(`${ts},S${i % 13},${v},${note}`);
  }
  return `${lines.join('\n')}\n`;
}

async function importBoth(name: string, atomicity: string, content: string): Promise<[unknown, unknown]> {
  const params = { name, timestamp: 'ts', partitionBy: 'DAY', atomicity, fmt: 'json' };
  const schema = { name: 'schema', content: JSON.stringify([{ name: 'v', type: 'INT' }]) };
  const part = { name: 'data', filename: `${name}.csv`, content };
  const [a, b] = await Promise.all([importCsv(threaded.baseUrl, params, [schema, part]), importCsv(single.baseUrl, params, [schema, part])]);
  return [a.json, b.json];
}

const DIGEST = (table: string): string =>
  `select count(*), count(v), sum(v), min(ts), max(ts), count_distinct(sym), sum(length(note)) from ${table}`;

for (const [label, quotedLine] of [['without quotes (all pieces on threads)', -1], ['with a quote in the middle (threads, then this thread)', 120_000]] as const) {
  const content = csv(quotedLine);
  for (const atomicity of ['skipCol', 'skipRow']) {
    test(`${label}, ${atomicity}: same report and same rows as single-threaded`, async (t) => {
      const table = `par_${atomicity}_${quotedLine < 0 ? 'plain' : 'quoted'}`;
      const [withThreads, without] = await importBoth(table, atomicity, content);
      t.like(without, { status: 'OK' });
      t.deepEqual(withThreads, without);
      const expectedRows = atomicity === 'skipRow' ? ROW_COUNT - BAD_LINES.size : ROW_COUNT;
      t.like(withThreads, { rowsImported: expectedRows, rowsRejected: ROW_COUNT - expectedRows });
      t.deepEqual(await rows(threaded.baseUrl, DIGEST(table)), await rows(single.baseUrl, DIGEST(table)));
      t.is((await rows(threaded.baseUrl, `select count(*) from ${table} where note like 'a, %'`))[0]?.[0], quotedLine < 0 ? 0 : 1);
    });
  }
  test(`${label}, abort: the same first bad line, in a late piece, nothing imported`, async (t) => {
    const table = `par_abort_${quotedLine < 0 ? 'plain' : 'quoted'}`;
    const [withThreads, without] = await importBoth(table, 'abort', csv(quotedLine, new Set([260_000, 300_000])));
    t.deepEqual(withThreads, without);
    t.regex(JSON.stringify(withThreads), /bad syntax \[line=260000, col=2\]/);
    t.is((await rows(threaded.baseUrl, `select count(*) from tables() where table_name = '${table}'`))[0]?.[0], 0);
  });
}
