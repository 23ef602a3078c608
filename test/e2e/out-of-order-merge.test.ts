// Out-of-order rows into the middle of a large partition: the new version keeps the rows before the first new
// timestamp as copied bytes and rewrites only the rest, so every column kind (fixed, SYMBOL keys, STRING,
// VARCHAR, BINARY, a column added after the partition was written) must come back exactly, in timestamp order,
// with deduplication meeting twins across the copied/rewritten boundary.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows } from '../helpers/http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const BASE = Date.UTC(2024, 0, 1);
const iso = (second: number): string => new Date(BASE + second * 1000).toISOString();

/** INSERTs of at most 100 rows each (a GET request's URL stays short). */
async function insertAll(prefix: string, values: readonly string[]): Promise<void> {
  for (let at = 0; at < values.length; at += 100) await execOk(server.baseUrl, `${prefix} ${values.slice(at, at + 100).join(',')}`);
}

function valuesRow(second: number, tag: string): string {
  return `('${iso(second)}', 's${second % 7}', 'str-${tag}-${second}', 'vär-${tag}-${second}', ${second}, ${second * 1.5})`;
}

test('rows merged into the middle of a partition keep every column of the rows before and after them', async (t) => {
  await execOk(server.baseUrl, 'create table m (ts timestamp, sym symbol, s string, v varchar, l long, d double) timestamp(ts) partition by DAY');
  const even: string[] = [];
  for (let second = 0; second < 2000; second += 2) even.push(valuesRow(second, 'a'));
  await insertAll('insert into m values', even);
  await execOk(server.baseUrl, 'alter table m add column extra int');
  // Odd seconds from the middle on: out of order, the first half of the partition stays as it was.
  const odd: string[] = [];
  for (let second = 1001; second < 1600; second += 2) odd.push(valuesRow(second, 'b'));
  await insertAll('insert into m (ts, sym, s, v, l, d) values', odd);
  await execOk(server.baseUrl, `insert into m values ('${iso(500)}', 's9', null, null, null, null, 7)`);
  const got = await rows(server.baseUrl, 'select ts, sym, s, v, l, d, extra from m');
  const expected: unknown[][] = [];
  for (let second = 0; second < 2000; second++) {
    const even = second % 2 === 0;
    if (!even && (second < 1001 || second >= 1600)) continue;
    const tag = even ? 'a' : 'b';
    expected.push([iso(second).replace('Z', '000Z'), `s${second % 7}`, `str-${tag}-${second}`, `vär-${tag}-${second}`, second, second * 1.5, null]);
    if (second === 500) expected.push([iso(500).replace('Z', '000Z'), 's9', null, null, null, null, 7]);
  }
  t.is(got.length, expected.length);
  t.deepEqual(got, expected);
});

test('deduplication meets twins on both sides of where the rewrite starts', async (t) => {
  await execOk(server.baseUrl, 'create table dd (ts timestamp, k symbol, v varchar) timestamp(ts) partition by DAY WAL dedup upsert keys(ts, k)');
  const first: string[] = [];
  for (let second = 0; second < 1000; second++) first.push(`('${iso(second)}', 'k${second % 3}', 'old-${second}')`);
  await insertAll('insert into dd values', first);
  // Twins of rows 600..609 (same ts and key) and new keys at the same timestamps.
  const again: string[] = [];
  for (let second = 600; second < 610; second++) again.push(`('${iso(second)}', 'k${second % 3}', 'new-${second}')`, `('${iso(second)}', 'z', 'z-${second}')`);
  await insertAll('insert into dd values', again);
  const got = await rows(server.baseUrl, `select ts, k, v from dd where ts between '${iso(598)}' and '${iso(611)}'`);
  const expected: unknown[][] = [];
  for (let second = 598; second <= 611; second++) {
    const twin = second >= 600 && second < 610;
    expected.push([iso(second).replace('Z', '000Z'), `k${second % 3}`, twin ? `new-${second}` : `old-${second}`]);
    if (twin) expected.push([iso(second).replace('Z', '000Z'), 'z', `z-${second}`]);
  }
  t.deepEqual(got, expected);
  t.deepEqual(await rows(server.baseUrl, 'select count() from dd'), [[1010]]);
});

test('a superseded partition of a dropped or renamed table is never removed from the table that takes its name', async (t) => {
  const day = (second: number, value: number): string => `('${iso(86_400 + second)}', ${value})`;
  for (const name of ['gone', 'moved']) {
    await execOk(server.baseUrl, `create table ${name} (ts timestamp, v int) timestamp(ts) partition by DAY`);
    await execOk(server.baseUrl, `insert into ${name} values ${day(10, 1)}, ${day(20, 2)}`);
    // Out of order: the day's first version is superseded and its removal scheduled after the grace period.
    await execOk(server.baseUrl, `insert into ${name} values ${day(15, 3)}`);
  }
  await execOk(server.baseUrl, 'drop table gone');
  await execOk(server.baseUrl, 'rename table moved to moved_away');
  for (const name of ['gone', 'moved']) {
    await execOk(server.baseUrl, `create table ${name} (ts timestamp, v int) timestamp(ts) partition by DAY`);
    await execOk(server.baseUrl, `insert into ${name} values ${day(1, 7)}`);
  }
  // Past the 10 s grace period of the superseded versions.
  await new Promise((resolve) => setTimeout(resolve, 11_500));
  for (const name of ['gone', 'moved']) t.deepEqual(await rows(server.baseUrl, `select v from ${name}`), [[7]], name);
  t.deepEqual(await rows(server.baseUrl, 'select v from moved_away'), [[1], [3], [2]]);
});
