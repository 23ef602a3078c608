// Every column type round-trips through INSERT and SELECT over HTTP, with nulls; out-of-order inserts land in
// timestamp order across partitions.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk, rows } from '../helpers/http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

const CREATE = `create table all_types (
  b boolean, by byte, sh short, ch char, i int, l long, f float, d double, dt date, ts timestamp,
  sym symbol, s string, v varchar, u uuid, ip ipv4, bin binary, k timestamp
) timestamp(k) partition by DAY`;

test('every type round-trips with its null form', async (t) => {
  await execOk(server.baseUrl, CREATE);
  await execOk(server.baseUrl, `insert into all_types values (
    true, 12, 1234, 'x', 42, 9007199254740993, 1.5, 0.1, '2024-01-02T03:04:05.678Z', '2024-01-02T03:04:05.123456Z',
    'abc', 'hello', 'wörld', '11111111-2222-3333-4444-555555555555', '1.2.3.4', null, '2024-01-01T00:00:00Z')`);
  await execOk(server.baseUrl, `insert into all_types values (
    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, '2024-01-01T00:00:01Z')`);
  const body = await execOk(server.baseUrl, 'select * from all_types');
  t.deepEqual(body['columns'], [
    { name: 'b', type: 'BOOLEAN' }, { name: 'by', type: 'BYTE' }, { name: 'sh', type: 'SHORT' }, { name: 'ch', type: 'CHAR' },
    { name: 'i', type: 'INT' }, { name: 'l', type: 'LONG' }, { name: 'f', type: 'FLOAT' }, { name: 'd', type: 'DOUBLE' },
    { name: 'dt', type: 'DATE' }, { name: 'ts', type: 'TIMESTAMP' }, { name: 'sym', type: 'SYMBOL' }, { name: 's', type: 'STRING' },
    { name: 'v', type: 'VARCHAR' }, { name: 'u', type: 'UUID' }, { name: 'ip', type: 'IPv4' }, { name: 'bin', type: 'BINARY' },
    { name: 'k', type: 'TIMESTAMP' },
  ]);
  t.is(body['timestamp'], 16);
  const raw = await (await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent('select l from all_types')}`)).text();
  t.true(raw.includes('[[9007199254740993],[null]]'), `LONG beyond 2^53 keeps every digit: ${raw}`);
  t.deepEqual(body['dataset'], [
    [true, 12, 1234, 'x', 42, 9007199254740992, 1.5, 0.1, '2024-01-02T03:04:05.678Z', '2024-01-02T03:04:05.123456Z',
      'abc', 'hello', 'wörld', '11111111-2222-3333-4444-555555555555', '1.2.3.4', [], '2024-01-01T00:00:00.000000Z'],
    [false, 0, 0, '', null, null, null, null, null, null, null, null, null, null, null, [], '2024-01-01T00:00:01.000000Z'],
  ]);
});

test('out-of-order inserts come back in timestamp order, across partitions', async (t) => {
  await execOk(server.baseUrl, 'create table ooo (id int, ts timestamp) timestamp(ts) partition by DAY');
  await execOk(server.baseUrl, "insert into ooo values (3, '2024-01-03T10:00:00Z'), (1, '2024-01-01T10:00:00Z')");
  await execOk(server.baseUrl, "insert into ooo values (2, '2024-01-02T10:00:00Z'), (4, '2024-01-03T09:00:00Z')");
  await execOk(server.baseUrl, "insert into ooo values (5, '2024-01-01T09:00:00Z'), (6, '2024-01-04T00:00:00Z')");
  t.deepEqual(await rows(server.baseUrl, 'select id from ooo'), [[5], [1], [2], [4], [3], [6]]);
  const partitions = await rows(server.baseUrl, "select name, numRows from table_partitions('ooo')");
  t.deepEqual(partitions, [['2024-01-01', 2], ['2024-01-02', 1], ['2024-01-03', 2], ['2024-01-04', 1]]);
  t.deepEqual(await rows(server.baseUrl, "select id from ooo where ts in '2024-01-03'"), [[4], [3]]);
});

test('designated timestamp rules', async (t) => {
  await execOk(server.baseUrl, 'create table tsrules (v int, ts timestamp) timestamp(ts)');
  const nullTs = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent('insert into tsrules values (1, null)')}`);
  t.is(nullTs.status, 400);
  t.regex(await nullTs.text(), /designated timestamp column cannot be NULL/);
  const bad = await fetch(`${server.baseUrl}/exec?query=${encodeURIComponent("insert into tsrules values ('abc', '2024-01-01')")}`);
  t.is(bad.status, 400);
  t.regex(await bad.text(), /inconvertible value: `abc` \[STRING -> INT\]/);
  t.deepEqual(await rows(server.baseUrl, 'select count(*) from tsrules'), [[0]]);
});
