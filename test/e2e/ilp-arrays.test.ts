// ILP protocol 2 double arrays, written by QuestDB's official Node client (@questdb/nodejs-client, unchanged)
// over HTTP and TCP: auto-created DOUBLE[] / DOUBLE[][] columns, values read back bit-exact (through /exec JSON
// and array_sum), NULL arrays, and a dimensionality conflict that is refused with nothing committed.
import test from 'ava';
import { Sender } from '@questdb/nodejs-client';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, rows } from '../helpers/http.js';

let server: TestServer;
const quiet = { log: (): void => undefined };

test.before(async () => {
  server = await startServer({ workers: 1 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

/** Doubles whose JSON text must come back unchanged: shortest round-trip forms, tiny and huge magnitudes. */
const VECTOR = [0.1, -2.5, 1e-300, 123456789.125, 5e-324];
const MATRIX = [[1, 2, 3], [4, 5, 6]];

async function writeArrays(sender: Sender, table: string): Promise<void> {
  await sender.table(table).symbol('s', 'a').arrayColumn('v', VECTOR).arrayColumn('m', MATRIX).at(1_700_000_000_000_000n, 'us');
  await sender.table(table).symbol('s', 'b').arrayColumn('v', []).at(1_700_000_001_000_000n, 'us');
  await sender.table(table).symbol('s', 'c').floatColumn('x', 1).at(1_700_000_002_000_000n, 'us');
  await sender.flush();
}

async function assertArrays(t: import('ava').ExecutionContext, table: string): Promise<void> {
  t.deepEqual(await rows(server.baseUrl, `select "column", type from table_columns('${table}') where "column" in ('v', 'm')`), [['v', 'DOUBLE[]'], ['m', 'DOUBLE[][]']]);
  const response = await exec(server.baseUrl, `select s, v, m, array_sum(v), m[2, 3] from ${table}`);
  t.is(response.status, 200, response.text);
  const body = response.json as { columns: unknown[]; dataset: unknown[][] };
  t.deepEqual(body.columns.slice(1, 3), [{ name: 'v', type: 'ARRAY', dim: 1, elemType: 'DOUBLE' }, { name: 'm', type: 'ARRAY', dim: 2, elemType: 'DOUBLE' }]);
  t.deepEqual(body.dataset, [
    ['a', VECTOR, MATRIX, VECTOR.reduce((sum, v) => sum + v, 0), 6],
    ['b', [], null, 0, null],
    ['c', null, null, 0, null],
  ]);
  t.true(response.text.includes('[[1.0,2.0,3.0],[4.0,5.0,6.0]]'), 'elements keep the .0 of QuestDB\'s double text');
}

test('HTTP transport, protocol_version=2: arrays create DOUBLE[] columns and read back exactly', async (t) => {
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off;protocol_version=2`);
  try {
    await writeArrays(sender, 'ilp_arrays_http');
  } finally {
    await sender.close();
  }
  await assertArrays(t, 'ilp_arrays_http');
});

test('HTTP transport, protocol_version=auto negotiates 3 through /settings and sends arrays', async (t) => {
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off`);
  try {
    await writeArrays(sender, 'ilp_arrays_auto');
  } finally {
    await sender.close();
  }
  await assertArrays(t, 'ilp_arrays_auto');
});

test('TCP transport, protocol_version=2', async (t) => {
  const sender = await Sender.fromConfig(`tcp::addr=127.0.0.1:${server.ilpTcpPort};protocol_version=2`, quiet);
  await sender.connect();
  try {
    await writeArrays(sender, 'ilp_arrays_tcp');
  } finally {
    await sender.close();
  }
  // TCP commits asynchronously: wait until the rows are visible.
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await exec(server.baseUrl, 'select count() from ilp_arrays_tcp');
    if (response.status === 200 && JSON.stringify((response.json as { dataset: unknown }).dataset) === '[[3]]') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await assertArrays(t, 'ilp_arrays_tcp');
});

test('an array of another dimensionality than its column is refused and nothing of the request is committed', async (t) => {
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${server.httpPort};auto_flush=off;protocol_version=2;retry_timeout=1000`);
  try {
    await sender.table('ilp_arrays_conflict').arrayColumn('v', [1, 2]).at(1_700_000_000_000_000n, 'us');
    await sender.flush();
    await sender.table('ilp_arrays_conflict').arrayColumn('v', [3]).at(1_700_000_001_000_000n, 'us');
    await sender.table('ilp_arrays_conflict').arrayColumn('v', [[4]]).at(1_700_000_002_000_000n, 'us');
    const error = await t.throwsAsync(() => sender.flush());
    t.regex(error?.message ?? '', /cast error from protocol type: DOUBLE\[\]\[\] to column type: DOUBLE\[\]/);
  } finally {
    await sender.close();
  }
  t.deepEqual(await rows(server.baseUrl, 'select v from ilp_arrays_conflict'), [[[1, 2]]]);
});
