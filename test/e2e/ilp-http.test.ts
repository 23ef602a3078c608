// ILP over HTTP against a real server, written by QuestDB's official Node client (@questdb/nodejs-client,
// unchanged): both of its transports, protocol versions 1 and 2, auto-created tables and columns of every field
// type read back exactly, a type conflict that commits nothing, authentication and read-only servers.
import test from 'ava';
import { Sender } from '@questdb/nodejs-client';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, rows } from '../helpers/http.js';
import { basicAuthorization } from '../helpers/raw-http.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 2 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

function config(extra = ''): string {
  return `http::addr=127.0.0.1:${server.httpPort};auto_flush=off;retry_timeout=1000${extra}`;
}

async function writeTypedRows(sender: Sender, table: string): Promise<void> {
  await sender.table(table).symbol('sym', 'AAPL').floatColumn('price', 1.25).intColumn('amount', 42)
    .stringColumn('note', 'tab\there "quoted" \\ back\nnew line').booleanColumn('ok', true)
    .timestampColumn('seen', 1_700_000_000_123_456n, 'us').at(1_700_000_000_000_000_000n, 'ns');
  await sender.table(table).symbol('sym', 'MSFT').floatColumn('price', -0.5).intColumn('amount', -9_007_199_254_740_991)
    .booleanColumn('ok', false).at(1_700_000_001_500_000n, 'us');
  await sender.flush();
}

const EXPECTED_COLUMNS = [
  ['sym', 'SYMBOL'], ['price', 'DOUBLE'], ['amount', 'LONG'], ['note', 'VARCHAR'], ['ok', 'BOOLEAN'], ['seen', 'TIMESTAMP'], ['timestamp', 'TIMESTAMP'],
];

async function assertTypedRows(t: import('ava').ExecutionContext, table: string): Promise<void> {
  t.deepEqual(await rows(server.baseUrl, `select "column", type, designated from table_columns('${table}')`),
    EXPECTED_COLUMNS.map(([name, type]) => [name, type, name === 'timestamp']));
  t.deepEqual(await rows(server.baseUrl, `select sym, price, amount::string, note, ok, seen, timestamp from ${table}`), [
    ['AAPL', 1.25, '42', 'tab\there "quoted" \\ back\nnew line', true, '2023-11-14T22:13:20.123456Z', '2023-11-14T22:13:20.000000Z'],
    ['MSFT', -0.5, '-9007199254740991', null, false, null, '2023-11-14T22:13:21.500000Z'],
  ]);
}

test('the official client (undici transport, protocol auto = 3) creates a table of every field type', async (t) => {
  const sender = await Sender.fromConfig(config());
  try {
    await writeTypedRows(sender, 'ilp_types_v1');
  } finally {
    await sender.close();
  }
  await assertTypedRows(t, 'ilp_types_v1');
});

test('the node:http transport (stdlib_http=on, chunked bodies) and protocol 2 (binary doubles)', async (t) => {
  const chunked = await Sender.fromConfig(config(';stdlib_http=on'));
  try {
    await writeTypedRows(chunked, 'ilp_types_chunked');
  } finally {
    await chunked.close();
  }
  await assertTypedRows(t, 'ilp_types_chunked');
  const v2 = await Sender.fromConfig(config(';protocol_version=2'));
  try {
    await writeTypedRows(v2, 'ilp_types_v2');
    await v2.table('ilp_doubles_v2').floatColumn('x', Math.PI).floatColumn('y', Number.NaN).floatColumn('z', -Number.MAX_VALUE).at(1_000_000n, 'us');
    await v2.flush();
  } finally {
    await v2.close();
  }
  await assertTypedRows(t, 'ilp_types_v2');
  t.deepEqual(await rows(server.baseUrl, 'select x, y, z from ilp_doubles_v2'), [[Math.PI, null, -Number.MAX_VALUE]]);
});

test('new columns are added to an existing table; values convert into wider existing types', async (t) => {
  await exec(server.baseUrl, 'create table ilp_existing (ts timestamp, small int, f float, s string, c char, d date) timestamp(ts) partition by DAY');
  const sender = await Sender.fromConfig(config());
  try {
    await sender.table('ilp_existing').intColumn('small', 7).floatColumn('f', 2.5).stringColumn('s', 'text').stringColumn('c', 'x')
      .intColumn('d', 86_400_000).floatColumn('extra', 1).at(86_400_000_000n, 'us');
    await sender.flush();
  } finally {
    await sender.close();
  }
  t.deepEqual(await rows(server.baseUrl, 'select ts, small, f, s, c, d, extra from ilp_existing'), [
    ['1970-01-02T00:00:00.000000Z', 7, 2.5, 'text', 'x', '1970-01-02T00:00:00.000Z', 1],
  ]);
  t.deepEqual(await rows(server.baseUrl, "select type from table_columns('ilp_existing') where \"column\" = 'extra'"), [['DOUBLE']]);
});

test('a type conflict fails the flush with the line number and commits nothing of the request', async (t) => {
  await exec(server.baseUrl, 'create table ilp_conflict (timestamp timestamp, v long) timestamp(timestamp) partition by DAY');
  const sender = await Sender.fromConfig(config());
  try {
    await sender.table('ilp_conflict_other').floatColumn('v', 1).at(1_000_000n, 'us');
    await sender.table('ilp_conflict').intColumn('v', 1).at(1_000_000n, 'us');
    await sender.table('ilp_conflict').floatColumn('v', 1.5).at(2_000_000n, 'us');
    const error = await t.throwsAsync(() => sender.flush());
    t.regex(error?.message ?? '', /statusCode=400/);
    t.regex(error?.message ?? '', /error in line 3: table: ilp_conflict, column: v; cast error from protocol type: FLOAT to column type: LONG/);
    t.regex(error?.message ?? '', /"line":3/);
  } finally {
    await sender.close();
  }
  t.deepEqual(await rows(server.baseUrl, 'select count() from ilp_conflict'), [[0]]);
  t.deepEqual(await rows(server.baseUrl, "select count() from tables() where table_name = 'ilp_conflict_other'"), [[0]]);
});

test('a DEDUP UPSERT KEYS table absorbs a request sent twice', async (t) => {
  await exec(server.baseUrl, 'create table ilp_dedup (timestamp timestamp, sym symbol, v double) timestamp(timestamp) partition by DAY WAL DEDUP UPSERT KEYS(timestamp, sym)');
  for (let attempt = 0; attempt < 2; attempt++) {
    const sender = await Sender.fromConfig(config());
    try {
      await sender.table('ilp_dedup').symbol('sym', 'A').floatColumn('v', 1).at(1_000_000n, 'us');
      await sender.table('ilp_dedup').symbol('sym', 'B').floatColumn('v', 2).at(1_000_000n, 'us');
      await sender.flush();
    } finally {
      await sender.close();
    }
  }
  t.deepEqual(await rows(server.baseUrl, 'select sym, v from ilp_dedup order by sym'), [['A', 1], ['B', 2]]);
});

test('basic auth and bearer tokens, as on every other path; /settings answers without credentials', async (t) => {
  const secured = await startServer({ workers: 1, env: { SVC_HTTP_USER: 'admin', SVC_HTTP_PASSWORD: 'quest' } });
  try {
    const settings = await fetch(`${secured.baseUrl}/settings`);
    t.is(settings.status, 200);
    t.deepEqual(((await settings.json()) as { config: Record<string, unknown> }).config['line.proto.support.versions'], [1, 2, 3]);
    const base = `http::addr=127.0.0.1:${secured.httpPort};auto_flush=off;retry_timeout=1000`;
    const denied = await Sender.fromConfig(`${base};username=admin;password=wrong`);
    try {
      await denied.table('ilp_auth').floatColumn('v', 1).atNow();
      const error = await t.throwsAsync(() => denied.flush());
      t.regex(error?.message ?? '', /statusCode=401/);
    } finally {
      await denied.close();
    }
    const admin = basicAuthorization('admin', 'quest');
    const user = await Sender.fromConfig(`${base};username=admin;password=quest`);
    try {
      await user.table('ilp_auth').floatColumn('v', 1).atNow();
      await user.flush();
    } finally {
      await user.close();
    }
    await exec(secured.baseUrl, 'CREATE SERVICE ACCOUNT ilp_writer', {}, { headers: { Authorization: admin } });
    const created = await exec(secured.baseUrl, 'ALTER SERVICE ACCOUNT ilp_writer CREATE TOKEN TYPE REST', {}, { headers: { Authorization: admin } });
    const token = ((created.json as { dataset: string[][] }).dataset[0] ?? [])[1] ?? '';
    const bearer = await Sender.fromConfig(`${base};token=${token}`);
    try {
      await bearer.table('ilp_auth').floatColumn('v', 2).atNow();
      await bearer.flush();
    } finally {
      await bearer.close();
    }
    const count = await exec(secured.baseUrl, 'select sum(v) from ilp_auth', {}, { headers: { Authorization: admin } });
    t.deepEqual((count.json as { dataset: unknown[][] }).dataset, [[3]]);
  } finally {
    await secured.stop();
    secured.cleanup();
  }
});

test('a read-only server answers 403 unauthorised and /settings says it accepts no writes', async (t) => {
  const readOnly = await startServer({ workers: 1, env: { SVC_HTTP_SECURITY_READONLY: 'true' } });
  try {
    const settings = (await (await fetch(`${readOnly.baseUrl}/settings`)).json()) as { config: Record<string, unknown> };
    t.is(settings.config['http.settings.readonly'], true);
    t.deepEqual(settings.config['accepting.writes'], []);
    const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${readOnly.httpPort};auto_flush=off;retry_timeout=1000`);
    try {
      await sender.table('ilp_ro').floatColumn('v', 1).atNow();
      const error = await t.throwsAsync(() => sender.flush());
      t.regex(error?.message ?? '', /statusCode=403/);
      t.regex(error?.message ?? '', /"code":"unauthorised"/);
    } finally {
      await sender.close();
    }
  } finally {
    await readOnly.stop();
    readOnly.cleanup();
  }
});
