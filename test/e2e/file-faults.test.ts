// Storage faults through the fault-injecting FilesFacade (SVCTEST_FILE_FAULTS=@<control file>): the Nth write,
// fsync or rename of a statement fails, or the disk is full. Each failure is a 500 JSON error for the client
// whose write failed and a C record; the table keeps exactly its committed rows, reads keep working, writes
// succeed once the fault is cleared, and a restart replays nothing that failed.
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';

function criticalRecords(rootDir: string): number {
  const dir = join(rootDir, 'log');
  const text = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('');
  return text.split('\n').filter((line) => /^\S+Z C /.test(line)).length;
}

async function waitForRecords(rootDir: string, atLeast: number): Promise<number> {
  const deadline = Date.now() + 5_000;
  let seen = criticalRecords(rootDir);
  while (seen < atLeast && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = criticalRecords(rootDir);
  }
  return seen;
}

/** One insert touching every file kind: WAL, a new symbol, a string column, a new partition or an out-of-order merge. */
function insertStatement(id: number, outOfOrder: boolean): string {
  const day = outOfOrder ? 1 : 2 + id;
  const ts = new Date(Date.UTC(2024, 0, day, 12) + id).toISOString();
  return `insert into f (id, sym, s, ts) values (${id}, 'sym-${id}', 'text-${id}', '${ts}')`;
}

async function expectCommitted(t: import('ava').ExecutionContext, server: TestServer, acknowledged: readonly number[], label: string): Promise<void> {
  const found = (await rows(server.baseUrl, 'select id, sym, s from f order by id')) as [number, string, string][];
  t.deepEqual(found.map((row) => row[0]), [...acknowledged].sort((a, b) => a - b), `${label}: exactly the committed rows`);
  for (const [id, sym, text] of found) {
    if (sym !== `sym-${id}` || text !== `text-${id}`) t.fail(`${label}: row ${id} is half-written (${sym}, ${text})`);
  }
}

const FAULTS = [
  ...[1, 2, 3, 4, 5, 6].map((n) => `write:${n}`),
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => `fsync:${n}`),
  'rename:1',
  'enospc',
];

test('injected write, fsync, rename and disk-full failures are reported, rolled back and recovered from', async (t) => {
  const controlDir = mkdtempSync(join(tmpdir(), 'svc-faults-'));
  const control = join(controlDir, 'faults');
  writeFileSync(control, '');
  const env = { SVCTEST_FILE_FAULTS: `@${control}`, SVC_CAIRO_COMMIT_MODE: 'sync' };
  const server = await startServer({ workers: 1, env });
  let restarted: TestServer | undefined;
  try {
    await execOk(server.baseUrl, 'create table f (id long, sym symbol, s string, ts timestamp) timestamp(ts) partition by DAY');
    const acknowledged: number[] = [];
    for (let id = 1; id <= 5; id++) {
      await execOk(server.baseUrl, insertStatement(id, false));
      acknowledged.push(id);
    }
    let id = 100;
    let records = criticalRecords(server.rootDir);
    for (const fault of FAULTS) {
      for (const outOfOrder of [false, true]) {
        id++;
        writeFileSync(control, fault);
        const failed = await exec(server.baseUrl, insertStatement(id, outOfOrder));
        t.is(failed.status, 500, `${fault} (o3=${outOfOrder}) fails the insert: ${failed.text}`);
        const body = failed.json as { error?: string; query?: string };
        t.regex(body.error ?? '', /storage failure, nothing was committed \[(EIO|ENOSPC)/, `${fault}: the client gets the cause`);
        records = await waitForRecords(server.rootDir, records + 1);
        await expectCommitted(t, server, acknowledged, `${fault} (o3=${outOfOrder}) while failing`);
        writeFileSync(control, '');
        id++;
        await execOk(server.baseUrl, insertStatement(id, outOfOrder));
        acknowledged.push(id);
        await expectCommitted(t, server, acknowledged, `${fault} (o3=${outOfOrder}) after clearing`);
      }
    }
    t.true(records >= FAULTS.length * 2, `one C record per failed write (${records})`);

    // ALTER writes _meta, then _txn: a failure at either step leaves the table readable at its old structure.
    for (const [k, fault] of ['write:1', 'write:2', 'fsync:1', 'fsync:3', 'rename:1', 'rename:2', 'enospc'].entries()) {
      writeFileSync(control, fault);
      const failed = await exec(server.baseUrl, `alter table f add column extra${k} int`);
      t.is(failed.status, 500, `ALTER under ${fault} fails: ${failed.text}`);
      await expectCommitted(t, server, acknowledged, `ALTER under ${fault}`);
      writeFileSync(control, '');
      await execOk(server.baseUrl, `alter table f add column extra${k} int`);
      id++;
      await execOk(server.baseUrl, insertStatement(id, false));
      acknowledged.push(id);
      await expectCommitted(t, server, acknowledged, `after ALTER under ${fault}`);
    }

    // UPDATE rewrites partitions into new versions; TRUNCATE and DROP replace _txn or rename the table away.
    for (const [statement, fault] of [['update f set s = \'changed\' where id = 3', 'write:2'], ['update f set s = \'changed\'', 'rename:1'],
      ['update f set s = \'changed\' where id > 100', 'enospc'], ['truncate table f', 'rename:1'], ['truncate table f', 'fsync:1'], ['drop table f', 'rename:1']] as const) {
      writeFileSync(control, fault);
      const failed = await exec(server.baseUrl, statement);
      t.is(failed.status, 500, `${statement} under ${fault} fails: ${failed.text}`);
      writeFileSync(control, '');
      await expectCommitted(t, server, acknowledged, `${statement} under ${fault}`);
      id++;
      await execOk(server.baseUrl, insertStatement(id, true));
      acknowledged.push(id);
    }

    writeFileSync(control, 'enospc');
    const csv = `id,sym,s,ts\n${[1, 2, 3].map((k) => `${9000 + k},sym-${9000 + k},text-${9000 + k},2024-03-0${k}T00:00:00.000000Z`).join('\n')}\n`;
    const upload = await importCsv(server.baseUrl, { name: 'f', fmt: 'json' }, [{ name: 'data', filename: 'f.csv', content: csv }]);
    t.is(upload.status, 500, `an import on a full disk fails: ${upload.text}`);
    t.regex(upload.text, /storage failure, nothing was committed \[ENOSPC/, 'the import report names the cause');
    await expectCommitted(t, server, acknowledged, 'import on a full disk');
    writeFileSync(control, '');

    await server.stop();
    restarted = await startServer({ workers: 1, env, rootDir: server.rootDir });
    await expectCommitted(t, restarted, acknowledged, 'after a restart');
  } finally {
    await restarted?.stop();
    await server.stop();
    server.cleanup();
    rmSync(controlDir, { recursive: true, force: true });
  }
});
