// The documented backup procedure: SNAPSHOT PREPARE, copy db/, SNAPSHOT COMPLETE. Writes wait in the primary
// between the two (reads do not), the copy starts as a root of its own and holds exactly the data committed
// before PREPARE; a PREPARE left open past snapshot.prepare.timeout lets writes resume and COMPLETE says so.
import test from 'ava';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';

const settle = <T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

test('a copy of db/ taken between SNAPSHOT PREPARE and COMPLETE starts and holds the data', async (t) => {
  const server = await startServer({ workers: 1 });
  const copyRoot = mkdtempSync(join(tmpdir(), 'svc-backup-'));
  let before: unknown[][] = [];
  try {
    await execOk(server.baseUrl, 'create table trades (ts timestamp, sym symbol, price double) timestamp(ts) partition by DAY');
    await execOk(server.baseUrl, "insert into trades select timestamp_sequence('2024-01-01', 3600000000L), rnd_symbol('A','B','C'), x * 1.5 from long_sequence(100)");
    // An out-of-order insert rewrites a partition version, so the copy also covers superseded versions.
    await execOk(server.baseUrl, "insert into trades values ('2024-01-01T00:30:00Z', 'A', -1)");
    await execOk(server.baseUrl, 'create table notes (id long)');
    await execOk(server.baseUrl, 'insert into notes values (1)');
    before = await rows(server.baseUrl, 'select sym, count(*), sum(price) from trades order by sym');

    t.deepEqual(await execOk(server.baseUrl, 'snapshot prepare'), { ddl: 'OK' });
    const second = await exec(server.baseUrl, 'checkpoint create');
    t.is(second.status, 400, 'a second PREPARE is refused while one is open');
    t.regex(second.text, /snapshot already prepared/);

    const heldInsert = exec(server.baseUrl, 'insert into notes values (2)');
    t.is(await settle(heldInsert, 700), 'pending', 'writes wait while the snapshot is prepared');
    t.deepEqual(await rows(server.baseUrl, 'select id from notes'), [[1]], 'reads go on');

    mkdirSync(join(copyRoot, 'db'), { recursive: true });
    cpSync(join(server.rootDir, 'db'), join(copyRoot, 'db'), { recursive: true });

    t.deepEqual(await execOk(server.baseUrl, 'snapshot complete'), { ddl: 'OK' });
    const released = await settle(heldInsert, 5_000);
    t.not(released, 'pending');
    if (released !== 'pending') t.is(released.status, 200, 'the held insert commits after COMPLETE');
    t.deepEqual(await rows(server.baseUrl, 'select id from notes'), [[1], [2]]);
    t.deepEqual(await execOk(server.baseUrl, 'snapshot complete'), { ddl: 'OK' }, 'COMPLETE without PREPARE is a no-op');
  } finally {
    await server.stop();
    server.cleanup();
  }

  const restored = await startServer({ workers: 1, rootDir: copyRoot });
  try {
    t.deepEqual(await rows(restored.baseUrl, 'select id from notes'), [[1]], 'the copy holds what was committed before PREPARE, nothing after');
    t.deepEqual(await rows(restored.baseUrl, 'select count(*) from trades'), [[101]]);
    t.deepEqual(await rows(restored.baseUrl, 'select sym, count(*), sum(price) from trades order by sym'), before, 'the copy holds the same rows, per symbol');
    t.deepEqual(await rows(restored.baseUrl, "select price from trades where ts = '2024-01-01T00:30:00Z'"), [[-1]]);
    await execOk(restored.baseUrl, 'insert into notes values (3)');
    t.deepEqual(await rows(restored.baseUrl, 'select id from notes'), [[1], [3]], 'the restored root takes writes');
  } finally {
    await restored.stop();
    rmSync(copyRoot, { recursive: true, force: true });
  }
});

test('a PREPARE left open past snapshot.prepare.timeout lets writes resume, and COMPLETE reports it', async (t) => {
  const server = await startServer({ workers: 0, env: { SVC_SNAPSHOT_PREPARE_TIMEOUT: '1s' } });
  try {
    await execOk(server.baseUrl, 'create table expiring (id long)');
    await execOk(server.baseUrl, 'snapshot prepare');
    const held = exec(server.baseUrl, 'insert into expiring values (1)');
    t.is(await settle(held, 300), 'pending');
    const resumed = await settle(held, 5_000);
    t.not(resumed, 'pending', 'the expired snapshot released the write');
    const completed = await exec(server.baseUrl, 'snapshot complete');
    t.is(completed.status, 400);
    t.regex(completed.text, /snapshot expired before SNAPSHOT COMPLETE \[timeout=1000ms\]/);
    t.deepEqual(await rows(server.baseUrl, 'select id from expiring'), [[1]]);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
