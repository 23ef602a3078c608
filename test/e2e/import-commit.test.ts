// How an import's staged rows reach the table: partitions new to the table are adopted as staged (files
// moved in), partitions it has already are merged, and tables that deduplicate or need conversions go through
// the writer's insert. Each case checks the rows through SQL, over real HTTP.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

interface ImportReport {
  readonly status: string;
  readonly rowsImported: number;
  readonly rowsRejected: number;
}

async function importText(params: Record<string, string>, content: string): Promise<ImportReport> {
  const response = await importCsv(server.baseUrl, { fmt: 'json', ...params }, [{ name: 'data', filename: 'x.csv', content }]);
  return response.json as ImportReport;
}

/** Rows out of timestamp order in a table: 0 when every partition is sorted and partitions do not overlap. */
async function rowsOutOfOrder(table: string): Promise<unknown> {
  return (await rows(server.baseUrl, `select count(*) from (select ts, lag(ts) over () prev from ${table}) where ts < prev`))[0]?.[0];
}

test('an existing table: new days are adopted, an existing day is merged, SYMBOL keys come from the table', async (t) => {
  await execOk(server.baseUrl, 'create table imp_mix (ts timestamp, sym symbol, v long, note string) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into imp_mix values ('2024-01-02T12:00:00.000000Z', 'B', 1, 'kept'), ('2024-01-02T18:00:00.000000Z', 'A', 2, 'kept')");
  const csv = ['ts,sym,v',
    '2024-01-03T01:00:00.000000Z,C,30', '2024-01-01T05:00:00.000000Z,A,10', '2024-01-02T06:00:00.000000Z,C,20',
    '2024-01-03T00:30:00.000000Z,B,31', '2024-01-02T20:00:00.000000Z,A,21', '2024-01-01T01:00:00.000000Z,,11'].join('\n');
  const report = await importText({ name: 'imp_mix', timestamp: 'ts' }, `${csv}\n`);
  t.like(report, { status: 'OK', rowsImported: 6, rowsRejected: 0 });
  t.deepEqual(await rows(server.baseUrl, 'select ts, sym, v, note from imp_mix'), [
    ['2024-01-01T01:00:00.000000Z', null, 11, null], ['2024-01-01T05:00:00.000000Z', 'A', 10, null],
    ['2024-01-02T06:00:00.000000Z', 'C', 20, null], ['2024-01-02T12:00:00.000000Z', 'B', 1, 'kept'],
    ['2024-01-02T18:00:00.000000Z', 'A', 2, 'kept'], ['2024-01-02T20:00:00.000000Z', 'A', 21, null],
    ['2024-01-03T00:30:00.000000Z', 'B', 31, null], ['2024-01-03T01:00:00.000000Z', 'C', 30, null],
  ]);
  t.deepEqual(await rows(server.baseUrl, "select sym, count(*) from imp_mix where sym in ('A', 'B', 'C') order by sym"), [['A', 3], ['B', 2], ['C', 2]]);
  t.deepEqual(await rows(server.baseUrl, "select count(*) from table_partitions('imp_mix')"), [[3]]);
  await execOk(server.baseUrl, "insert into imp_mix values ('2024-01-04T00:00:00.000000Z', 'C', 40, 'after')");
  t.deepEqual(await rows(server.baseUrl, "select sym, v from imp_mix where ts in '2024-01-04'"), [['C', 40]], 'the table takes inserts after an adoption');
});

test('a file in reverse order spanning several batches and days ends up sorted', async (t) => {
  const lines = ['ts,sym,v'];
  const start = Date.UTC(2024, 0, 1) * 1000;
  const rowCount = 150_000;
  for (let i = rowCount - 1; i >= 0; i--) lines.push(`${new Date((start + i * 2_000_000) / 1000).toISOString().replace('Z', '000Z')},S${i % 7},${i}`);
  const report = await importText({ name: 'imp_reverse', timestamp: 'ts', partitionBy: 'DAY' }, `${lines.join('\n')}\n`);
  t.like(report, { status: 'OK', rowsImported: rowCount });
  t.is(await rowsOutOfOrder('imp_reverse'), 0);
  t.deepEqual(await rows(server.baseUrl, 'select count(*), min(v), max(v), sum(v) from imp_reverse'), [[rowCount, 0, rowCount - 1, (rowCount * (rowCount - 1)) / 2]]);
  t.deepEqual(await rows(server.baseUrl, 'select v from imp_reverse limit 2'), [[0], [1]]);
});

test('a deduplicating table keeps one row per key when the same file is imported twice', async (t) => {
  await execOk(server.baseUrl, 'create table imp_dedup (ts timestamp, sym symbol, v double) timestamp(ts) partition by DAY WAL DEDUP UPSERT KEYS(ts, sym)');
  const csv = 'ts,sym,v\n2024-01-01T00:00:00.000000Z,A,1\n2024-01-01T00:00:00.000000Z,B,2\n2024-01-02T00:00:00.000000Z,A,3\n';
  t.like(await importText({ name: 'imp_dedup', timestamp: 'ts' }, csv), { status: 'OK', rowsImported: 3 });
  t.like(await importText({ name: 'imp_dedup', timestamp: 'ts' }, csv.replace(',3\n', ',4\n')), { status: 'OK', rowsImported: 3 });
  t.deepEqual(await rows(server.baseUrl, 'select sym, v from imp_dedup'), [['A', 1], ['B', 2], ['A', 4]]);
});

test('UUID by a schema sent as a file part, quoted and non-ASCII text, a table without a designated timestamp', async (t) => {
  const schema = JSON.stringify([{ name: 'id', type: 'UUID' }, { name: 'label', type: 'STRING' }]);
  const csv = 'id,label,n\nC2593F82-B430-328D-84A0-9F29DF637E38,"a ""quoted"", text",1\n,ünïcödé,2\nnot-a-uuid,,3\n';
  const response = await importCsv(server.baseUrl, { name: 'imp_uuid', fmt: 'json' }, [
    { name: 'schema', filename: 'schema.json', content: schema }, { name: 'data', filename: 'u.csv', content: csv },
  ]);
  t.like(response.json, { status: 'OK', rowsImported: 3 });
  t.deepEqual(await rows(server.baseUrl, 'select id, label, n from imp_uuid'), [
    ['c2593f82-b430-328d-84a0-9f29df637e38', 'a "quoted", text', 1], [null, 'ünïcödé', 2], [null, null, 3],
  ]);
  const again = await importCsv(server.baseUrl, { name: 'imp_uuid', fmt: 'json' }, [{ name: 'data', filename: 'u.csv', content: csv }]);
  t.like(again.json, { status: 'OK', rowsImported: 3 });
  t.deepEqual(await rows(server.baseUrl, 'select count(*), count(id) from imp_uuid'), [[6, 2]], 'an appended file converts to the table types');
});

test('parts after the data part are drained: a second data part is not imported a second time', async (t) => {
  const response = await importCsv(server.baseUrl, { name: 'imp_two_parts', fmt: 'json' }, [
    { name: 'data', filename: 'a.csv', content: 'id,v\n1,a\n2,b\n' },
    { name: 'data', filename: 'b.csv', content: 'id,v\n3,c\n' },
    { name: 'other', filename: 'c.csv', content: 'id,v\n4,d\n' },
  ]);
  t.is(response.status, 200, response.text);
  t.is((response.json as ImportReport).rowsImported, 2);
  t.deepEqual(await rows(server.baseUrl, 'select id, v from imp_two_parts order by id'), [[1, 'a'], [2, 'b']]);
  // The connection answers the next request: the drained parts did not leave the body half read.
  t.is((await importText({ name: 'imp_two_parts' }, 'id,v\n5,e\n')).rowsImported, 1);
});
