// ILP protocol 3 DECIMAL fields, written by QuestDB's official Node client (@questdb/nodejs-client 4.2, unchanged)
// in its text form (`decimalColumnText`: `1.25d`) and binary form (`decimalColumn`: byte 23, scale, length,
// big-endian unscaled bytes) over HTTP and TCP, plus raw lines for the forms the client does not send (NaNd,
// a null binary value) and for the refusals: a value that loses digits in its column is rejected, nothing committed.
import test from 'ava';
import { Sender } from '@questdb/nodejs-client';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { postIlp } from '../helpers/ilp-http.js';
import { waitUntil } from '../helpers/ilp-tcp.js';

let server: TestServer;
const quiet = { log: (): void => undefined };

test.before(async () => {
  server = await startServer({ workers: 1 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

async function writeDecimals(sender: Sender, table: string): Promise<void> {
  await sender.table(table).symbol('s', 'a').decimalColumnText('t', '1.25').decimalColumn('b', 12345n, 2).at(1_700_000_000_000_000n, 'us');
  await sender.table(table).symbol('s', 'b').decimalColumnText('t', '-0.001').decimalColumn('b', -1n, 3).at(1_700_000_001_000_000n, 'us');
  await sender.table(table).symbol('s', 'c').decimalColumnText('t', 7).at(1_700_000_002_000_000n, 'us');
  await sender.flush();
}

async function assertDecimals(t: import('ava').ExecutionContext, table: string): Promise<void> {
  // New DECIMAL columns take QuestDB's default type, DECIMAL(18,3); values are rescaled exactly.
  t.deepEqual(await rows(server.baseUrl, `select "column", type from table_columns('${table}') where "column" in ('t', 'b')`), [['t', 'DECIMAL(18,3)'], ['b', 'DECIMAL(18,3)']]);
  t.deepEqual(await rows(server.baseUrl, `select s, t, b from ${table}`), [['a', '1.250', '123.450'], ['b', '-0.001', '-0.001'], ['c', '7.000', null]]);
}

test('/settings lists protocol versions 1, 2 and 3', async (t) => {
  const settings = await fetch(`${server.baseUrl}/settings`);
  t.deepEqual(((await settings.json()) as { config: Record<string, unknown> }).config['line.proto.support.versions'], [1, 2, 3]);
});

test('HTTP transport, protocol_version=auto negotiates 3: text and binary decimals create DECIMAL columns', async (t) => {
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off`);
  try {
    await writeDecimals(sender, 'ilp_dec_http');
  } finally {
    await sender.close();
  }
  await assertDecimals(t, 'ilp_dec_http');
});

test('TCP transport, protocol_version=3', async (t) => {
  const sender = await Sender.fromConfig(`tcp::addr=127.0.0.1:${server.ilpTcpPort};protocol_version=3`, quiet);
  await sender.connect();
  try {
    await writeDecimals(sender, 'ilp_dec_tcp');
  } finally {
    await sender.close();
  }
  // TCP commits asynchronously: the table appears with the first commit.
  t.true(await waitUntil(async () => JSON.stringify((await exec(server.baseUrl, 'select count() from ilp_dec_tcp')).json).includes('"dataset":[[3]]'), 10_000));
  await assertDecimals(t, 'ilp_dec_tcp');
});

test('existing DECIMAL columns of every width take decimals, integers, doubles and strings exactly', async (t) => {
  await execOk(server.baseUrl, 'create table ilp_dec_cols (d8 decimal(2,1), d64 decimal(18,2), d256 decimal(76,10), ts timestamp) timestamp(ts) partition by day');
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off;protocol_version=3`);
  try {
    await sender.table('ilp_dec_cols').decimalColumn('d8', -99n, 1).decimalColumnText('d64', '1e3').decimalColumn('d256', 10n ** 65n + 1n, 10).at(1_700_000_000_000_000n, 'us');
    await sender.table('ilp_dec_cols').intColumn('d8', 5).floatColumn('d64', 0.25).stringColumn('d256', '-3.5').at(1_700_000_001_000_000n, 'us');
    await sender.flush();
  } finally {
    await sender.close();
  }
  t.deepEqual(await rows(server.baseUrl, 'select d8, d64, d256 from ilp_dec_cols'), [
    ['-9.9', '1000.00', '10000000000000000000000000000000000000000000000000000000.0000000001'],
    ['5.0', '0.25', '-3.5000000000'],
  ]);
});

/** `name==` + byte 23 + scale + length + big-endian bytes, as QuestDB's format has it. */
function binaryDecimal(name: string, scale: number, bytes: readonly number[]): Buffer {
  return Buffer.concat([Buffer.from(`${name}==`), Buffer.from([23, scale, bytes.length, ...bytes])]);
}

test('raw lines: NaNd and a zero-length binary value are nulls; a value that loses digits rejects the request', async (t) => {
  const body = Buffer.concat([
    Buffer.from('ilp_dec_raw a=NaNd,'), binaryDecimal('b', 2, []), Buffer.from(',c=1.5d 1700000000000000000\n'),
    // Value bytes that spell a line feed and a comma are data, not delimiters.
    Buffer.from('ilp_dec_raw '), binaryDecimal('b', 0, [0xff, 0x85]), Buffer.from(','), binaryDecimal('a', 1, [0x0a, 0x2c]), Buffer.from(' 1700000000000000001\n'),
  ]);
  const ok = await postIlp(server.httpPort, body);
  t.is(ok.status, 204, ok.text);
  t.deepEqual(await rows(server.baseUrl, 'select a, b, c from ilp_dec_raw'), [[null, null, '1.500'], ['260.400', '-123.000', null]]);

  const lossy = await postIlp(server.httpPort, Buffer.from('ilp_dec_raw c=2.5d 1700000000000000002\nilp_dec_raw c=0.0001d 1700000000000000003\n'));
  t.is(lossy.status, 400);
  t.regex(lossy.text, /decimal value does not fit column type: DECIMAL\(18,3\)/);
  const bad = await postIlp(server.httpPort, Buffer.from('ilp_dec_raw c=1.2.3d 1700000000000000004\n'));
  t.is(bad.status, 400);
  t.regex(bad.text, /invalid decimal value: 1\.2\.3/);
  const wrongColumn = await postIlp(server.httpPort, Buffer.from('ilp_dec_raw s="x" 1700000000000000005\nilp_dec_raw s=1.5d 1700000000000000006\n'));
  t.is(wrongColumn.status, 400);
  t.regex(wrongColumn.text, /cast error from protocol type: DECIMAL to column type: VARCHAR/);
  t.deepEqual(await rows(server.baseUrl, 'select count() from ilp_dec_raw'), [[2]]);
});
