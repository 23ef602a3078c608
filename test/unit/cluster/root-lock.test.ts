// The root lock's decisions: a live owner refuses, a dead or reused pid is stale, another host's lock is
// never taken over, a fresh empty file is a start in progress, an old empty one a crash's leftover.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireRootLock, processStartTicks, ROOT_LOCK_FILE } from '../../../src/cluster/root-lock.js';
import { SvcError } from '../../../src/core/errors.js';

function withRoot(run: (root: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  try {
    run(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const writeLock = (root: string, owner: object | string): void =>
  writeFileSync(join(root, ROOT_LOCK_FILE), typeof owner === 'string' ? owner : `${JSON.stringify(owner)}\n`);

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

test('a fresh root is locked with pid, host and start time; release removes only our own lock', (t) => withRoot((root) => {
  const lock = acquireRootLock(root);
  t.is(lock.staleOwner, undefined);
  t.deepEqual(JSON.parse(readFileSync(lock.path, 'utf8')), { pid: process.pid, host: hostname(), startTicks: processStartTicks(process.pid) });
  const error = t.throws(() => acquireRootLock(root), { instanceOf: SvcError });
  t.is(error?.code, 'SVC_ROOT_LOCKED');
  t.regex(error?.message ?? '', new RegExp(`\\(pid ${process.pid}\\); lock file `));
  lock.release();
  t.false(existsSync(lock.path));
  writeLock(root, { pid: 1, host: 'elsewhere', startTicks: 1 });
  lock.release();
  t.true(existsSync(lock.path), 'a lock that is no longer ours is left alone');
}));

test('a dead owner and a reused pid (same pid, other start time) are stale', (t) => withRoot((root) => {
  const dead = deadPid();
  writeLock(root, { pid: dead, host: hostname(), startTicks: 5 });
  const first = acquireRootLock(root);
  t.deepEqual(first.staleOwner, { pid: dead, host: hostname(), startTicks: 5 });
  first.release();
  const ticks = processStartTicks(process.pid);
  t.not(ticks, null, 'Linux exposes process start times in /proc');
  writeLock(root, { pid: process.pid, host: hostname(), startTicks: (ticks ?? 0) + 1 });
  const second = acquireRootLock(root);
  t.is(second.staleOwner?.pid, process.pid, 'the pid lives but belongs to another process now');
  second.release();
}));

test('a lock from another host is never taken over', (t) => withRoot((root) => {
  writeLock(root, { pid: deadPid(), host: `not-${hostname()}`, startTicks: 1 });
  const error = t.throws(() => acquireRootLock(root), { instanceOf: SvcError });
  t.regex(error?.message ?? '', /on host not-.*; remove the file if that process is gone/);
}));

test('an empty lock file: fresh means a start in progress, old means a crash between create and write', (t) => withRoot((root) => {
  writeLock(root, '');
  t.throws(() => acquireRootLock(root), { message: /another start is taking it/ });
  const old = (Date.now() - 60_000) / 1000;
  utimesSync(join(root, ROOT_LOCK_FILE), old, old);
  const lock = acquireRootLock(root);
  t.is(lock.staleOwner?.pid, 0);
  lock.release();
  writeLock(root, 'garbage');
  t.throws(() => acquireRootLock(root), { message: /unreadable lock file/ });
}));
