// Production lifecycle: one primary per root (lock file, stale-lock takeover), SIGTERM during inserts and
// during an import (exit 0, nothing acknowledged lost, the import rolled back), recovery that logs what it
// replayed, and SIGHUP reopening the log files after they were moved away.
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { freePort, mainScript, startServer } from '../helpers/server.js';
import { exec, execOk, rows } from '../helpers/http.js';
import { importCsv } from '../helpers/upload.js';

function logText(rootDir: string): string {
  const dir = join(rootDir, 'log');
  return existsSync(dir) ? readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('') : '';
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** Runs a second svc on `rootDir` to completion; it must not get far enough to listen. */
async function runToExit(rootDir: string): Promise<{ code: number | null; stderr: string }> {
  const env = {
    ...(process.env as Record<string, string>),
    SVC_HTTP_NET_BIND_TO: `127.0.0.1:${await freePort()}`, SVC_HTTP_MIN_NET_BIND_TO: `127.0.0.1:${await freePort()}`, SVC_HTTP_WORKER_COUNT: '1',
  };
  const child = spawn(process.execPath, [mainScript, '-d', rootDir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stderr };
}

test('a second start on the same root is refused; a stale lock is taken over and reported', async (t) => {
  const first = await startServer({ workers: 1 });
  const root = first.rootDir;
  try {
    await execOk(first.baseUrl, 'create table locked (x long)');
    await execOk(first.baseUrl, 'insert into locked values (1)');
    const logBefore = logText(root).length;
    const second = await runToExit(root);
    t.is(second.code, 1, 'the second start exits non-zero');
    t.regex(second.stderr, new RegExp(`root is locked by another svc process \\(pid ${first.process.pid ?? 0}\\)`));
    t.is(logText(root).length, logBefore, 'the refused start wrote nothing into the root');
    t.deepEqual(await rows(first.baseUrl, 'select x from locked'), [[1]], 'the running instance is unaffected');
    t.is(await first.stop(), 0);
    t.false(existsSync(join(root, 'svc.lock')), 'a clean stop removes the lock');

    // A lock left by a process that no longer exists (as after kill -9 or power loss) is stale.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(root, 'svc.lock'), `${JSON.stringify({ pid: Number(dead.stdout), host: hostname(), startTicks: 1 })}\n`);
    const third = await startServer({ workers: 1, rootDir: root });
    try {
      t.deepEqual(await rows(third.baseUrl, 'select x from locked'), [[1]]);
      t.true(await waitFor(() => / C server-main the previous run \(pid \d+\) did not shut down cleanly/.test(logText(root)), 5_000), 'the unclean end is logged');
      t.is(JSON.parse(readFileSync(join(root, 'svc.lock'), 'utf8')).pid, third.process.pid, 'the lock now names the new primary');
    } finally {
      t.is(await third.stop(), 0);
    }
  } finally {
    await first.stop();
    first.cleanup();
  }
});

test('SIGTERM during inserts exits 0 and the restart holds every acknowledged row', async (t) => {
  const first = await startServer({ workers: 2 });
  const root = first.rootDir;
  try {
    await execOk(first.baseUrl, 'create table drain (id long, ts timestamp) timestamp(ts) partition by DAY');
    const acknowledged: number[] = [];
    let nextId = 1;
    const writers = Array.from({ length: 3 }, async () => {
      for (;;) {
        const id = nextId++;
        try {
          const response = await exec(first.baseUrl, `insert into drain values (${id}, ${id})`);
          if (response.status === 200) acknowledged.push(id);
        } catch {
          return; // connection refused or reset: the server is going down
        }
      }
    });
    await waitFor(() => acknowledged.length > 50, 10_000);
    const code = await first.stop();
    await Promise.all(writers);
    t.is(code, 0, 'SIGTERM exits 0');
    t.true(acknowledged.length > 50);
    t.false(existsSync(join(root, 'svc.lock')));
    t.regex(logText(root), / I server-main stopped in \d+ ms; \d+ files flushed to disk/);

    const second = await startServer({ workers: 1, rootDir: root });
    try {
      const ids = (await rows(second.baseUrl, 'select id from drain')).map((row) => row[0] as number);
      t.is(new Set(ids).size, ids.length, 'no duplicates');
      const present = new Set(ids);
      t.deepEqual(acknowledged.filter((id) => !present.has(id)), [], 'every acknowledged row is present');
      t.false(logText(root).includes('did not shut down cleanly'), 'a drained stop is a clean one');
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
    first.cleanup();
  }
});

/** Starts an upload that streams rows until `stop()`; resolves `done` with the status (or 0 for a reset). */
function streamingUpload(baseUrl: string, table: string): { done: Promise<number>; sentRows: () => number; stop: () => void } {
  const boundary = '----svc-ops-boundary';
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const req: ClientRequest = request(`${baseUrl}/imp?name=${table}&fmt=json`, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } });
  const done = new Promise<number>((resolve) => {
    req.on('response', (response) => { response.resume(); response.on('end', () => resolve(response.statusCode ?? 0)); });
    req.on('error', () => resolve(0));
  });
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="${table}.csv"\r\nContent-Type: text/csv\r\n\r\nid,label\n`);
  timer = setInterval(() => {
    let chunk = '';
    for (let k = 0; k < 2000; k++) chunk += `${sent + k},row-${sent + k}\n`;
    sent += 2000;
    req.write(chunk);
  }, 20);
  return { done, sentRows: () => sent, stop: () => { clearInterval(timer); timer = undefined; req.destroy(); } };
}

test('SIGTERM during an import rolls the import back at once and keeps what was acknowledged', async (t) => {
  // A long drain bound: the import must not hold shutdown up to it.
  const first = await startServer({ workers: 1, env: { SVC_SHUTDOWN_DRAIN_TIMEOUT: '30s' } });
  const root = first.rootDir;
  const upload = streamingUpload(first.baseUrl, 'imp_ops');
  try {
    const kept = await importCsv(first.baseUrl, { name: 'imp_kept', fmt: 'json' }, [{ name: 'data', filename: 'k.csv', content: 'id,label\n1,a\n2,b\n' }]);
    t.is(kept.status, 200);
    // Large uploads are staged piece by piece (4 MB), so rows reach staging some time after they were sent.
    const stagingDir = join(root, 'db', '.staging');
    await waitFor(() => upload.sentRows() > 100_000 && existsSync(stagingDir) && readdirSync(stagingDir).length > 0, 20_000);
    t.true(existsSync(stagingDir) && readdirSync(stagingDir).length > 0, 'the upload is streaming into staging');
    const started = Date.now();
    const code = await first.stop();
    const stopMs = Date.now() - started;
    t.is(code, 0, 'SIGTERM exits 0');
    t.true(stopMs < 10_000, `shutdown took ${stopMs} ms, not the 30 s drain bound`);
    t.not(await Promise.race([upload.done, new Promise<number>((resolve) => setTimeout(() => resolve(200), 5_000))]), 200, 'the upload was not acknowledged');
    t.regex(logText(root), / I worker shutdown: rolled back 1 import\(s\) in progress/);

    const second = await startServer({ workers: 1, rootDir: root });
    try {
      t.deepEqual(await rows(second.baseUrl, 'select id, label from imp_kept'), [[1, 'a'], [2, 'b']]);
      t.is((await exec(second.baseUrl, 'select count(*) from imp_ops')).status, 400, 'the interrupted import created nothing');
      const staging = join(root, 'db', '.staging');
      t.deepEqual(existsSync(staging) ? readdirSync(staging) : [], []);
    } finally {
      await second.stop();
    }
  } finally {
    upload.stop();
    await first.stop();
    first.cleanup();
  }
});

test('start-up after an unclean end replays the WAL and logs what it replayed', async (t) => {
  const first = await startServer({ workers: 1 });
  const root = first.rootDir;
  try {
    await execOk(first.baseUrl, 'create table replayed (id long, ts timestamp) timestamp(ts) partition by DAY');
    await execOk(first.baseUrl, 'insert into replayed values (1, 1)');
    const txnPath = join(root, 'db', 'replayed', '_txn');
    copyFileSync(txnPath, `${txnPath}.early`);
    await execOk(first.baseUrl, 'insert into replayed values (2, 2)');
    await execOk(first.baseUrl, 'insert into replayed values (3, 3)');
    await first.kill9();
    // A crash between the WAL append and the _txn publish leaves _txn behind its WAL: put the early one back.
    renameSync(`${txnPath}.early`, txnPath);
    const second = await startServer({ workers: 1, rootDir: root });
    try {
      t.deepEqual(await rows(second.baseUrl, 'select id from replayed'), [[1], [2], [3]]);
      const text = logText(root);
      t.regex(text, / C server-main the previous run \(pid \d+\) did not shut down cleanly/);
      t.regex(text, / I server-main recovery: table replayed replayed 2 WAL record\(s\) \[seq \d+\.\.\d+, rows 2\]/);
      t.regex(text, / A server-main svc \S+ root=\S+ tables=1 replayed WAL records=2/);
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
    first.cleanup();
  }
});

test('SIGHUP reopens the log files after they were moved away', async (t) => {
  const server = await startServer({ workers: 1 });
  try {
    const dir = join(server.rootDir, 'log');
    const [original] = readdirSync(dir);
    t.truthy(original);
    renameSync(join(dir, original as string), join(dir, 'rotated.1'));
    server.process.kill('SIGHUP');
    t.true(await waitFor(() => existsSync(join(dir, original as string)), 5_000), 'the writer reopened its file at the configured path');
    await execOk(server.baseUrl, 'create table after_hup (x long)');
    t.true(await waitFor(() => readFileSync(join(dir, original as string), 'utf8').includes('SIGHUP received: log files reopened'), 5_000));
    t.true(readFileSync(join(dir, 'rotated.1'), 'utf8').length > 0, 'the moved file keeps the records written before');
  } finally {
    t.is(await server.stop(), 0);
    server.cleanup();
  }
});

test('during the drain health answers 503 and the drain is bounded by shutdown.drain.timeout', async (t) => {
  const server = await startServer({ workers: 1, env: { SVC_SHUTDOWN_DRAIN_TIMEOUT: '3s' } });
  try {
    // A query that would run far longer than the drain bound.
    const slow = exec(server.baseUrl, 'select sum(x) from long_sequence(100000000000)').then((response) => response.status, () => 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    t.is((await fetch(`${server.adminUrl}/`)).status, 200);
    const started = Date.now();
    const stopped = server.stop();
    let draining = 0;
    for (let k = 0; k < 20 && draining === 0; k++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const health = await fetch(`${server.adminUrl}/`).catch(() => undefined);
      if (health?.status === 503 && (await health.text()) === 'Status: Draining') draining++;
    }
    t.is(draining, 1, 'health reports the drain');
    t.is(await stopped, 0, 'exit 0 after the bound');
    const stopMs = Date.now() - started;
    t.true(stopMs >= 2_500 && stopMs < 12_000, `the in-flight query got the 3 s drain bound, not more (${stopMs} ms)`);
    t.not(await slow, 200, 'the query cut by the bound was not answered as a success');
  } finally {
    await server.stop();
    server.cleanup();
  }
});
