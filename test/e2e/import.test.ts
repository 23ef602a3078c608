// POST /imp over real HTTP: delimiters, headers, type detection, atomicity modes, appending, create=false,
// overwrite, bad input, concurrent imports into one table, and a client that disconnects mid-upload.
import test from 'ava';
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { startServer, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { importCsv, multipartBody } from '../helpers/upload.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const CSV = 'ts,sym,price,amount\n2024-01-01T00:00:00.100000Z,S1,1.5,10\n2024-01-01T00:00:00.200000Z,S2,2.5,20\n2024-01-02T00:00:00.300000Z,S1,3.5,30\n';

test('a CSV with a header becomes a partitioned table; the JSON report lists detected types', async (t) => {
  const response = await importCsv(server.baseUrl, { name: 'imp_basic', timestamp: 'ts', partitionBy: 'DAY', fmt: 'json' }, [{ name: 'data', filename: 'x.csv', content: CSV }]);
  t.is(response.status, 200);
  t.deepEqual(response.json, {
    status: 'OK', location: 'imp_basic', rowsRejected: 0, rowsImported: 3, header: true, partitionBy: 'DAY', timestamp: 'ts',
    columns: [
      { name: 'ts', type: 'TIMESTAMP', size: 8, errors: 0 }, { name: 'sym', type: 'VARCHAR', size: 0, errors: 0 },
      { name: 'price', type: 'DOUBLE', size: 8, errors: 0 }, { name: 'amount', type: 'INT', size: 4, errors: 0 },
    ],
  });
  t.deepEqual(await rows(server.baseUrl, 'select sym, price, amount from imp_basic'), [['S1', 1.5, 10], ['S2', 2.5, 20], ['S1', 3.5, 30]]);
  t.deepEqual(await rows(server.baseUrl, "select count(*) from table_partitions('imp_basic')"), [[2]]);
});

test('tab and pipe delimiters, and a file without a header', async (t) => {
  const tsv = await importCsv(server.baseUrl, { name: 'imp_tsv', fmt: 'json' }, [{ name: 'data', filename: 'a.tsv', content: 'a\tb\n1\tx\n2\ty\n' }]);
  t.is((tsv.json as { rowsImported: number }).rowsImported, 2);
  const psv = await importCsv(server.baseUrl, { name: 'imp_psv', fmt: 'json' }, [{ name: 'data', filename: 'a.psv', content: 'a|b\n1|x\n2|y\n' }]);
  t.is((psv.json as { rowsImported: number }).rowsImported, 2);
  const headless = await importCsv(server.baseUrl, { name: 'imp_headless', fmt: 'json' }, [{ name: 'data', filename: 'h.csv', content: '1,x\n2,y\n3,z\n' }]);
  const body = headless.json as { header: boolean; rowsImported: number };
  t.false(body.header);
  t.is(body.rowsImported, 3);
});

test('the default response is the tabular text report', async (t) => {
  const response = await importCsv(server.baseUrl, { name: 'imp_text' }, [{ name: 'data', filename: 't.csv', content: 'col_a,ts\r\n1000,1000\r\n2000,2000\r\n3000,3000\r\n' }]);
  t.is(response.status, 200);
  t.true(response.text.startsWith(`+${'-'.repeat(113)}+\r\n`));
  t.regex(response.text, /\|\s+Rows imported\s+\|\s+3\s+\|/);
});

test('atomicity: skipCol nulls bad values, skipRow drops rows, abort imports nothing', async (t) => {
  await importCsv(server.baseUrl, { name: 'imp_atom', fmt: 'json' }, [{ name: 'data', filename: 'a.csv', content: 'v,s\n1,a\n2,b\n' }]);
  // A bad value makes the file's own type detection see `v` as text, so the header must be forced.
  const bad = 'v,s\n3,c\nnot-a-number,d\n5,e\n';
  const skipCol = (await importCsv(server.baseUrl, { name: 'imp_atom', fmt: 'json', forceHeader: 'true' }, [{ name: 'data', filename: 'a.csv', content: bad }])).json as { rowsImported: number; columns: { errors: number }[] };
  t.is(skipCol.rowsImported, 3);
  t.is(skipCol.columns[0]?.errors, 1);
  const skipRow = (await importCsv(server.baseUrl, { name: 'imp_atom', fmt: 'json', atomicity: 'skipRow', forceHeader: 'true' }, [{ name: 'data', filename: 'a.csv', content: bad }])).json as { rowsImported: number; rowsRejected: number };
  t.is(skipRow.rowsImported, 2);
  t.is(skipRow.rowsRejected, 1);
  const before = await rows(server.baseUrl, 'select count(*) from imp_atom');
  const abort = await importCsv(server.baseUrl, { name: 'imp_atom', fmt: 'json', atomicity: 'abort', forceHeader: 'true' }, [{ name: 'data', filename: 'a.csv', content: bad }]);
  t.not((abort.json as { status: string }).status, 'OK');
  t.deepEqual(await rows(server.baseUrl, 'select count(*) from imp_atom'), before);
});

test('create=false without a table fails; overwrite replaces data and structure', async (t) => {
  const missing = await importCsv(server.baseUrl, { name: 'imp_absent', create: 'false', fmt: 'json' }, [{ name: 'data', filename: 'a.csv', content: 'a\n1\n2\n' }]);
  t.regex((missing.json as { status: string }).status, /does not exist/);
  t.deepEqual(await rows(server.baseUrl, "select count(*) from tables() where table_name = 'imp_absent'"), [[0]]);
  await importCsv(server.baseUrl, { name: 'imp_over', fmt: 'json' }, [{ name: 'data', filename: 'a.csv', content: 'a,b\n1,2\n3,4\n' }]);
  await importCsv(server.baseUrl, { name: 'imp_over', overwrite: 'true', fmt: 'json', forceHeader: 'true' }, [{ name: 'data', filename: 'a.csv', content: 'c\nx\ny\nz\n' }]);
  const body = await rows(server.baseUrl, 'select * from imp_over');
  t.deepEqual(body, [['x'], ['y'], ['z']]);
});

test('the table name defaults to the sanitised file name', async (t) => {
  await importCsv(server.baseUrl, { fmt: 'json' }, [{ name: 'data', filename: 'my data.csv', content: 'a\n1\n2\n' }]);
  const names = (await rows(server.baseUrl, 'select table_name from tables()')).map((row) => row[0] as string);
  t.true(names.some((name) => name.startsWith('mydata')), names.join(','));
});

test('an empty file and a request without data are clear errors that create nothing', async (t) => {
  const empty = await importCsv(server.baseUrl, { name: 'imp_empty', fmt: 'json' }, [{ name: 'data', filename: 'e.csv', content: '' }]);
  t.not((empty.json as { status: string }).status, 'OK');
  const none = await importCsv(server.baseUrl, { name: 'imp_none', fmt: 'json' }, [{ name: 'other', content: 'x' }]);
  t.not(none.status, 200);
  t.deepEqual(await rows(server.baseUrl, "select count(*) from tables() where table_name in ('imp_empty', 'imp_none')"), [[0]]);
});

test('two concurrent imports into one table both land', async (t) => {
  await importCsv(server.baseUrl, { name: 'imp_conc', fmt: 'json' }, [{ name: 'data', filename: 'c.csv', content: 'id\n0\n' }]);
  const file = (start: number): string => `id\n${Array.from({ length: 5000 }, (_, k) => start + k).join('\n')}\n`;
  const [a, b] = await Promise.all([
    importCsv(server.baseUrl, { name: 'imp_conc', fmt: 'json' }, [{ name: 'data', filename: 'c.csv', content: file(1) }]),
    importCsv(server.baseUrl, { name: 'imp_conc', fmt: 'json' }, [{ name: 'data', filename: 'c.csv', content: file(5001) }]),
  ]);
  t.is((a.json as { rowsImported: number }).rowsImported, 5000);
  t.is((b.json as { rowsImported: number }).rowsImported, 5000);
  t.deepEqual(await rows(server.baseUrl, 'select count(*), sum(id) from imp_conc'), [[10001, 10001 * 10000 / 2]]);
});

// Serial: it asserts that no staging segment exists at all, which an import of another test could create.
test.serial('a client that disconnects mid-upload leaves the table unchanged and no staging behind', async (t) => {
  await importCsv(server.baseUrl, { name: 'imp_cut', fmt: 'json' }, [{ name: 'data', filename: 'c.csv', content: 'id\n1\n' }]);
  const { body, contentType } = multipartBody([{ name: 'data', filename: 'c.csv', content: `id\n${'7\n'.repeat(200_000)}` }]);
  await new Promise<void>((resolve) => {
    const req = request(`${server.baseUrl}/imp?name=imp_cut`, { method: 'POST', headers: { 'Content-Type': contentType, 'Content-Length': String(body.length) } });
    req.on('error', () => resolve());
    req.write(body.subarray(0, Math.floor(body.length / 2)));
    setTimeout(() => { req.destroy(); resolve(); }, 300);
  });
  // The server notices the reset asynchronously; on a loaded machine that can take a while.
  const staging = join(server.rootDir, 'db', '.staging');
  const leftovers = (): string[] => (existsSync(staging) ? readdirSync(staging) : []);
  for (let waited = 0; waited < 10_000 && leftovers().length > 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  t.deepEqual(await rows(server.baseUrl, 'select count(*) from imp_cut'), [[1]]);
  t.deepEqual(leftovers(), []);
});

test('a multipart body that ends inside the data part is a 400 and the worker keeps serving', async (t) => {
  const { body, contentType } = multipartBody([{ name: 'data', filename: 'cut.csv', content: `id\n${'1\n'.repeat(1000)}` }]);
  const truncated = body.subarray(0, body.length - 200);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.baseUrl}/imp?name=imp_truncated`, { method: 'POST', headers: { 'Content-Type': contentType, 'Content-Length': String(truncated.length) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(truncated);
  });
  t.is(status, 400);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const logDir = join(server.rootDir, 'log');
  const critical = readdirSync(logDir).flatMap((name) => readFileSync(join(logDir, name), 'utf8').split('\n')).filter((line) => / C /.test(line));
  t.deepEqual(critical, [], 'no unhandled error, no worker died');
  t.deepEqual(await rows(server.baseUrl, 'select 1'), [[1]]);
  t.is((await rows(server.baseUrl, "select count(*) from tables() where table_name = 'imp_truncated'"))[0]?.[0], 0);
});
