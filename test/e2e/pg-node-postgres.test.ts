// The PostgreSQL wire protocol with node-postgres (`pg` and `pg-cursor`, unchanged) against a real server:
// parameterized queries over the extended protocol (types inferred from use and declared), text and binary
// results, pipelined queries, a cursor read in batches (Execute with a row limit, PortalSuspended), a
// CancelRequest stopping a long query, errors with SQLSTATE and position, and writes with parameters.
import test from 'ava';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { connect } from 'node:net';
import { startServer, type TestServer } from '../helpers/server.js';
import { connectionsHeldBy, connectionsPerChild, untilBothWorkersTakeConnections } from '../helpers/proc-sockets.js';

let server: TestServer;

/** What pg's own cancel does: a new connection carrying CancelRequest with the target's BackendKeyData. */
async function sendCancelRequest(target: pg.Client): Promise<void> {
  const key = target as unknown as { processID: number; secretKey: number };
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(80877102, 4);
  packet.writeInt32BE(key.processID, 8);
  packet.writeInt32BE(key.secretKey, 12);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(server.pgPort, '127.0.0.1', () => socket.write(packet));
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

function client(options: Partial<pg.ClientConfig> = {}): pg.Client {
  return new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb', ...options });
}

async function withClient<T>(run: (c: pg.Client) => Promise<T>, options: Partial<pg.ClientConfig> = {}): Promise<T> {
  const c = client(options);
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

test.before(async () => {
  server = await startServer({ env: { SVC_METRICS_ENABLED: 'true' } });
  await withClient(async (c) => {
    await c.query("create table trades (ts timestamp, sym symbol, price double, qty long, side char, ok boolean) timestamp(ts) partition by day");
    await c.query("insert into trades select timestamp_sequence('2024-01-01', 1000000L) ts, rnd_symbol('a','b','c') sym, x * 1.5 price, x qty, 'B' side, x % 2 = 0 ok from long_sequence(5000)");
  });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

// Serial: other tests' connections would be counted too.
test.serial('a pool of connections opened together is spread over the workers, none held by the primary', async (t) => {
  const primaryPid = server.process.pid as number;
  t.true(await untilBothWorkersTakeConnections(primaryPid, server.pgPort), 'both workers take connections');
  const pool = Array.from({ length: 8 }, () => client());
  try {
    await Promise.all(pool.map((c) => c.connect()));
    // Accepting on a shared socket, the workers split such a pool 1 and 7, or 2 and 6.
    t.deepEqual(connectionsPerChild(primaryPid, server.pgPort), [4, 4]);
    t.is(connectionsHeldBy(primaryPid, server.pgPort), 0);
    const answers = await Promise.all(pool.map((c) => c.query('select count() n from trades')));
    t.true(answers.every((answer) => answer.rows[0].n === '5000'));
  } finally {
    await Promise.all(pool.map((c) => c.end()));
  }
});

test('a simple query returns typed rows (int8 and float8 parsed by pg from their OIDs)', async (t) => {
  const result = await withClient((c) => c.query('select qty, price, sym, ok from trades limit 3'));
  t.is(result.command, 'SELECT');
  t.is(result.rowCount, 3);
  t.deepEqual(result.fields.map((f) => f.dataTypeID), [20, 701, 1043, 16]);
  t.deepEqual(result.rows[0], { qty: '1', price: 1.5, sym: result.rows[0].sym, ok: false });
});

test('parameters: types inferred from the compared column, from a cast, and declared by the client', async (t) => {
  await withClient(async (c) => {
    const byQty = await c.query('select qty from trades where qty > $1 and qty <= $2', [4995, '4997']);
    t.deepEqual(byQty.rows.map((r) => r.qty), ['4996', '4997']);
    const byTime = await c.query('select count(*) from trades where ts >= $1 and ts < $2', ['2024-01-01T00:00:10.000000Z', new Date(Date.UTC(2024, 0, 1, 0, 0, 20))]);
    t.is(byTime.rows[0].count, '10');
    const cast = await c.query({ text: 'select $1::timestamp t, $2 + 1 n, $3 s', values: ['2024-05-06T07:08:09.123456Z', 41, "it's"] });
    t.deepEqual(cast.rows[0], { t: cast.rows[0].t, n: 42, s: "it's" });
    t.is(cast.fields[0]?.dataTypeID, 1114);
    const limited = await c.query('select qty from trades order by qty limit $1', [2]);
    t.deepEqual(limited.rows.map((r) => r.qty), ['1', '2']);
    t.true(cast.rows[0].t instanceof Date);
  });
});

test('binary result columns: Bind result formats reach RowDescription and DataRow', async (t) => {
  // pg asks for binary results but hands every cell over as a UTF-8 decoded string (pg-protocol's DataRow
  // parser), so only values whose bytes are all below 0x80 survive: small integers, booleans, ASCII text.
  // Every type's binary form is checked exactly by the psycopg test, which decodes binary natively.
  const raw = { getTypeParser: (oid: number, format?: string) => (format === 'binary' ? (value: string) => Buffer.from(value, 'utf8') : pg.types.getTypeParser(oid, 'text')) };
  // pg reads `binary` from the client config (its defaults) though @types/pg does not declare it.
  const binaryResults: Partial<pg.ClientConfig> & { readonly binary: boolean } = { types: raw, binary: true };
  const query = 'select qty, cast(qty as int) q4, ok, sym from trades where qty <= $1 order by qty';
  const text = await withClient((c) => c.query(query, [3]));
  // `binary: true` on the client asks for binary result columns in every Bind.
  await withClient(async (c) => {
    const binary = await c.query(query, [3]);
    t.deepEqual(binary.fields.map((f) => [f.format, f.dataTypeID]), [['binary', 20], ['binary', 23], ['binary', 16], ['binary', 1043]]);
    const decoded = binary.rows.map((r) => [
      (r.qty as Buffer).readBigInt64BE(0).toString(),
      (r.q4 as Buffer).readInt32BE(0),
      (r.ok as Buffer)[0] === 1,
      (r.sym as Buffer).toString('utf8'),
    ]);
    t.deepEqual(decoded, text.rows.map((r) => [r.qty, r.q4, r.ok, r.sym]));
  }, binaryResults);
});

test('pipelined queries (several client.query without awaiting) answer in order', async (t) => {
  await withClient(async (c) => {
    const pending = Array.from({ length: 50 }, (_, k) => c.query('select $1::long + 0 v', [k]));
    const results = await Promise.all(pending);
    t.deepEqual(results.map((r) => r.rows[0].v), Array.from({ length: 50 }, (_, k) => String(k)));
  });
});

test('a cursor reads in batches through Execute row limits and PortalSuspended', async (t) => {
  await withClient(async (c) => {
    const cursor = c.query(new Cursor('select qty from trades where qty <= $1 order by qty', [1234]));
    const seen: string[] = [];
    let batches = 0;
    for (;;) {
      const batch = await cursor.read(100);
      if (batch.length === 0) break;
      batches++;
      for (const row of batch) seen.push(row.qty);
    }
    await cursor.close();
    t.is(batches, 13);
    t.is(seen.length, 1234);
    t.is(seen[1233], '1234');
    // The connection is usable afterwards.
    t.is((await c.query('select 7 x')).rows[0].x, 7);
  });
});

test('errors carry SQLSTATE and the 1-based position; the connection recovers', async (t) => {
  await withClient(async (c) => {
    const error = await t.throwsAsync(c.query('select nope from trades'));
    t.is((error as { code?: string }).code, '42703');
    t.is((error as { position?: string }).position, '8');
    const missing = await t.throwsAsync(c.query('select * from missing where x = $1', [1]));
    t.is((missing as { code?: string }).code, '42P01');
    // Bound at Bind over the extended protocol: the position still points into the statement.
    t.is((missing as { position?: string }).position, '15');
    t.is((await c.query('select 1 x')).rows[0].x, 1);
  });
});

test('writes with parameters: INSERT tag and rows, UPDATE count, DDL tags', async (t) => {
  await withClient(async (c) => {
    const created = await c.query('create table w (ts timestamp, v double, s varchar, n int) timestamp(ts) partition by day');
    t.is(created.command, 'CREATE');
    for (let k = 0; k < 3; k++) {
      const inserted = await c.query('insert into w values ($1, $2, $3, $4)', [new Date(Date.UTC(2024, 1, 1, k)), k + 0.5, `s${k}`, k === 1 ? null : k]);
      t.is(inserted.command, 'INSERT');
      t.is(inserted.rowCount, 1);
    }
    const updated = await c.query('update w set v = $1 where n = $2', [9.5, 2]);
    t.is(updated.command, 'UPDATE');
    t.is(updated.rowCount, 1);
    const back = await c.query('select ts, v, s, n from w order by ts');
    t.deepEqual(back.rows.map((r) => [r.ts.toISOString(), r.v, r.s, r.n]), [
      ['2024-02-01T00:00:00.000Z', 0.5, 's0', 0],
      ['2024-02-01T01:00:00.000Z', 1.5, 's1', null],
      ['2024-02-01T02:00:00.000Z', 9.5, 's2', 2],
    ]);
  }, { types: { getTypeParser: (oid: number, format?: string) => (oid === 1114 && format !== 'binary' ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`) : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text')) } });
});

test('a CancelRequest stops a long-running query, whichever worker receives it', async (t) => {
  // Six connections and six cancel connections land on the two workers at random: a cancel that reaches the
  // other worker is passed on through the primary (all but certainly exercised: 1 - 2^-6).
  const clients = Array.from({ length: 6 }, () => client());
  await Promise.all(clients.map((c) => c.connect()));
  try {
    const started = Date.now();
    // A streaming query: the cursor yields between batches, where a cancel is noticed.
    const running = clients.map((c) => c.query('select x from long_sequence(2000000000) where x % 1000000 = 0').then(() => 'finished', (error: { code?: string }) => error.code));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.all(clients.map((c) => sendCancelRequest(c)));
    t.deepEqual(await Promise.all(running), Array.from({ length: 6 }, () => '57014'));
    t.true(Date.now() - started < 20_000);
    for (const c of clients) t.is((await c.query('select 1 x')).rows[0].x, 1);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
});

test('options=-c statement_timeout=<ms> at start-up bounds each statement', async (t) => {
  await withClient(async (c) => {
    const started = Date.now();
    const error = await t.throwsAsync(c.query('select x from long_sequence(2000000000) where x % 1000000 = 0'));
    t.is((error as { code?: string }).code, '57014');
    t.regex(error?.message ?? '', /timeout, query aborted \[timeout=1000ms\]/);
    t.true(Date.now() - started < 15_000);
  }, { options: '-c statement_timeout=1000' });
});

test('metrics: svc_pg_connections counts open connections, svc_pg_queries_total counts statements by outcome', async (t) => {
  const metric = async (pattern: RegExp): Promise<number> => {
    const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
    return Number(pattern.exec(text)?.[1] ?? 'NaN');
  };
  await withClient(async (c) => {
    await c.query('select 1');
    await t.throwsAsync(c.query('select nope'));
    t.true(await metric(/^svc_pg_connections (\d+)/m) >= 1);
  });
  t.true(await metric(/^svc_pg_queries_total\{outcome="ok"\} (\d+)/m) >= 1);
  t.true(await metric(/^svc_pg_queries_total\{outcome="error"\} (\d+)/m) >= 1);
});
