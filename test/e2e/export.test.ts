// GET /exp over real HTTP, read back by independent readers: CSV by DuckDB's read_csv and by line checks,
// Parquet by DuckDB (values of every type with nulls, codecs, row groups, statistics, bloom filters, format
// version, partitioned ZIP downloads), errors before any byte, and a memory bound for a large export.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';

let server: TestServer;
let reader: ParquetReader;

test.before(async () => {
  server = await startServer({ workers: 2 });
  reader = await ParquetReader.open();
  await execOk(server.baseUrl, `create table ex (b boolean, i int, l long, d double, f float, s symbol, v varchar, u uuid, ip ipv4, dt date, ts timestamp) timestamp(ts) partition by DAY`);
  await execOk(server.baseUrl, `insert into ex values
    (true, 1, 10, 1.5, 0.25, 'a', 'x', '11111111-2222-3333-4444-555555555555', '1.2.3.4', '2024-01-01T00:00:00.001Z', '2024-01-01T10:00:00.000001Z'),
    (false, null, null, null, null, null, null, null, null, null, '2024-01-02T10:00:00Z'),
    (true, 3, 30, 3.5, 0.75, 'c', 'say "hi"', null, '10.0.0.1', null, '2024-01-03T10:00:00Z')`);
});

test.after.always(async () => {
  reader?.close();
  await server?.stop();
  server?.cleanup();
});

function expUrl(params: Record<string, string>): string {
  return `${server.baseUrl}/exp?${new URLSearchParams(params).toString()}`;
}

async function download(params: Record<string, string>): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetch(expUrl(params));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

test('CSV: header, quoting, timestamps and nulls as QuestDB writes them', async (t) => {
  const response = await download({ query: 'select i, l, d, s, v, ts from ex' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.regex(response.headers.get('content-disposition') ?? '', /^attachment; filename="questdb-query-\d+\.csv"$/);
  t.is(Buffer.from(response.bytes).toString('utf8'),
    '"i","l","d","s","v","ts"\r\n'
    + '1,10,1.5,"a","x","2024-01-01T10:00:00.000001Z"\r\n'
    + ',,,,,"2024-01-02T10:00:00.000000Z"\r\n'
    + '3,30,3.5,"c","say ""hi""","2024-01-03T10:00:00.000000Z"\r\n');
  const path = reader.save('ex.csv', response.bytes);
  t.deepEqual(await reader.rows(`select count(*)::int n from read_csv('${path}')`), [{ n: 3 }]);
});

test('CSV: nm, delimiter, filename and the limit forms', async (t) => {
  const text = async (params: Record<string, string>): Promise<string> => Buffer.from((await download(params)).bytes).toString('utf8');
  t.is(await text({ query: 'select i from ex', nm: 'true', limit: '2' }), '1\r\n\r\n');
  t.is(await text({ query: 'select i from ex', nm: 'true', limit: '-1' }), '3\r\n');
  t.is(await text({ query: 'select i from ex', nm: 'true', limit: '1,3' }), '\r\n3\r\n');
  t.is(await text({ query: 'select i, l from ex', delimiter: '\t', limit: '1' }), '"i"\t"l"\r\n1\t10\r\n');
  const named = await download({ query: 'select 1', filename: 'mine' });
  t.is(named.headers.get('content-disposition'), 'attachment; filename="mine.csv"');
});

test('Parquet: every type and its nulls read back by DuckDB; default codec ZSTD', async (t) => {
  const response = await download({ query: 'select * from ex', fmt: 'parquet' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/vnd.apache.parquet');
  const path = reader.save('ex.parquet', response.bytes);
  const rows = await reader.rows(`select b, i, l, d, f, s, v, u::varchar u, dt::varchar dt, ts::varchar ts from read_parquet('${path}')`);
  t.deepEqual(rows, [
    { b: true, i: 1, l: '10', d: 1.5, f: 0.25, s: 'a', v: 'x', u: '11111111-2222-3333-4444-555555555555', dt: '2024-01-01 00:00:00.001+00', ts: '2024-01-01 10:00:00.000001+00' },
    { b: false, i: null, l: null, d: null, f: null, s: null, v: null, u: null, dt: null, ts: '2024-01-02 10:00:00+00' },
    { b: true, i: 3, l: '30', d: 3.5, f: 0.75, s: 'c', v: 'say "hi"', u: null, dt: null, ts: '2024-01-03 10:00:00+00' },
  ]);
  const codecs = await reader.rows(`select distinct compression from parquet_metadata('${path}')`);
  t.deepEqual(codecs, [{ compression: 'ZSTD' }]);
});

test('Parquet: codec, row groups, statistics, bloom filters and format version follow the parameters', async (t) => {
  const snappy = reader.save('snappy.parquet', (await download({ query: 'select * from ex', fmt: 'parquet', compression_codec: 'SNAPPY', row_group_size: '2', statistics_enabled: 'false', bloom_filter_columns: 'v', parquet_version: '1' })).bytes);
  t.deepEqual(await reader.rows(`select distinct compression from parquet_metadata('${snappy}')`), [{ compression: 'SNAPPY' }]);
  t.deepEqual(await reader.rows(`select row_group_id::int g, max(row_group_num_rows)::int n from parquet_metadata('${snappy}') group by 1 order by 1`), [{ g: 0, n: 2 }, { g: 1, n: 1 }]);
  t.deepEqual(await reader.rows(`select count(*)::int n from parquet_metadata('${snappy}') where stats_min_value is not null or stats_max_value is not null or stats_null_count is not null`), [{ n: 0 }]);
  t.deepEqual(await reader.rows(`select format_version::int v from parquet_file_metadata('${snappy}')`), [{ v: 1 }]);
  // Only a bloom filter can exclude a row group for 'x' (row group 1 has no statistics to go by).
  const probe = await reader.rows(`select row_group_id::int g, bloom_filter_excludes e from parquet_bloom_probe('${snappy}', 'v', 'x') order by 1`);
  t.deepEqual(probe, [{ g: 0, e: false }, { g: 1, e: true }]);
  const v2 = reader.save('v2.parquet', (await download({ query: 'select * from ex', fmt: 'parquet' })).bytes);
  t.deepEqual(await reader.rows(`select format_version::int v from parquet_file_metadata('${v2}')`), [{ v: 2 }]);
  // Statistics are on by default: every non-null column chunk of the default export carries min and max.
  t.deepEqual(await reader.rows(`select count(*)::int n from parquet_metadata('${v2}') where path_in_schema = 'd' and stats_min_value is not null and stats_max_value is not null`), [{ n: 1 }]);
});

test('Parquet: partition_by=DAY downloads a ZIP of one file per day', async (t) => {
  const response = await download({ query: 'select * from ex', fmt: 'parquet', partition_by: 'DAY' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/zip');
  const path = reader.save('parts.zip', response.bytes);
  const listing = execFileSync('python3', ['-c', `import zipfile,sys; print("\\n".join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))`, path], { encoding: 'utf8' }).trim().split('\n');
  t.deepEqual(listing, ['2024-01-01.parquet', '2024-01-02.parquet', '2024-01-03.parquet']);
});

test('bad parameters and bad SQL are 400 before any byte of a file', async (t) => {
  const bad = async (params: Record<string, string>): Promise<{ status: number; body: { error: string } }> => {
    const response = await fetch(expUrl(params));
    return { status: response.status, body: (await response.json()) as { error: string } };
  };
  t.deepEqual((await bad({ query: 'select * from nope' })), { status: 400, body: { query: 'select * from nope', error: 'table does not exist [table=nope]', position: 14 } as unknown as { error: string } });
  t.regex((await bad({ query: 'select 1', fmt: 'xml' })).body.error, /unrecognised format \[format=xml\]/);
  t.regex((await bad({ query: 'select * from ex', fmt: 'parquet', compression_codec: 'FOO' })).body.error, /invalid compression codec\[FOO\]/);
  t.regex((await bad({ query: 'select * from ex', fmt: 'parquet', parquet_version: '3' })).body.error, /invalid parquet version: 3/);
  t.regex((await bad({ query: 'select * from ex', fmt: 'parquet', bloom_filter_columns: 'zz' })).body.error, /bloom filter column/);
  t.is((await bad({ query: '' })).body.error, 'No query text');
});

test('a 2M-row export streams with bounded server memory', async (t) => {
  await execOk(server.baseUrl, "create table big_exp as (select cast(x * 100000 as timestamp) ts, 'S' || (x % 100) sym, x * 0.5 price, x amount from long_sequence(2000000)) timestamp(ts) partition by DAY");
  const response = await fetch(expUrl({ query: 'select * from big_exp' }));
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  t.true(bytes > 80_000_000, `${bytes} bytes`);
  const parquet = await fetch(expUrl({ query: 'select * from big_exp', fmt: 'parquet' }));
  t.is(parquet.status, 200);
  const chunks: Uint8Array[] = [];
  for await (const chunk of parquet.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  const parquetBytes = Buffer.concat(chunks);
  // Regular data compresses to little; what matters is that every row arrives.
  const saved = reader.save('big.parquet', parquetBytes);
  t.deepEqual(await reader.rows(`select count(*)::int n, sum(amount)::varchar s from read_parquet('${saved}')`), [{ n: 2_000_000, s: '2000001000000' }]);
  const children = execFileSync('pgrep', ['-P', String(server.process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
  for (const pid of children) {
    const peak = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    t.true(peak < 800 * 1024 * 1024, `worker ${pid} peaked at ${(peak / 1048576).toFixed(0)} MB (documented bound 800 MB)`);
  }
});
