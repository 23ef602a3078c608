// The root's lock file: one primary per root. Node has no flock(2), so the lock is a file created with
// O_EXCL (`wx`) holding the owner's pid, host and process start time. A lock whose owner is gone (crash,
// SIGKILL, power loss) is stale: it is replaced, and the caller learns the previous run ended uncleanly.
// The start time (from /proc) tells a reused pid from the original owner; a lock written on another host
// cannot be checked and is never taken over (a root on a shared file system).
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '../core/errors.js';

export const ROOT_LOCK_FILE = 'svc.lock';

export interface RootLockOwner {
  readonly pid: number;
  readonly host: string;
  /** Process start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null where /proc is absent. */
  readonly startTicks: number | null;
}

export interface RootLock {
  readonly path: string;
  /** The owner of a stale lock this start replaced: the previous run did not shut down cleanly. */
  readonly staleOwner: RootLockOwner | undefined;
  /** Removes the lock file if it is still ours. Safe to call more than once, and from an exit handler. */
  release(): void;
}

/** Start time of a process, or null when unknown (no /proc, or the process is gone). */
export function processStartTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the pid exists but belongs to another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): RootLockOwner | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    const pid = record['pid'];
    const host = record['host'];
    const startTicks = record['startTicks'];
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || typeof host !== 'string') return undefined;
    return { pid, host, startTicks: typeof startTicks === 'number' ? startTicks : null };
  } catch {
    return undefined;
  }
}

/** Whether the recorded owner still runs on this host; undefined when it cannot be known (another host). */
function ownerRuns(owner: RootLockOwner): boolean | undefined {
  if (owner.host !== hostname()) return undefined;
  if (!isAlive(owner.pid)) return false;
  if (owner.startTicks === null) return true;
  const ticks = processStartTicks(owner.pid);
  return ticks === null || ticks === owner.startTicks;
}

function lockedError(path: string, detail: string): SvcError {
  return new SvcError('SVC_ROOT_LOCKED', `root is locked by another svc process (${detail}); lock file ${path}`, 500);
}

/** Takes the root's lock or throws SVC_ROOT_LOCKED. */
export function acquireRootLock(rootDir: string): RootLock {
  const path = join(rootDir, ROOT_LOCK_FILE);
  const self: RootLockOwner = { pid: process.pid, host: hostname(), startTicks: processStartTicks(process.pid) };
  const text = `${JSON.stringify(self)}\n`;
  let staleOwner: RootLockOwner | undefined;
  // Two rounds: the second runs after removing a stale lock, and loses cleanly if another start won the race.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(path, text, { flag: 'wx', mode: 0o644 });
      return { path, staleOwner, release: () => releaseIfOurs(path, text) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const existing = readQuietly(path);
    const owner = existing === undefined ? undefined : parseOwner(existing);
    if (owner !== undefined) {
      const runs = ownerRuns(owner);
      if (runs === true) throw lockedError(path, `pid ${owner.pid}`);
      if (runs === undefined) throw lockedError(path, `pid ${owner.pid} on host ${owner.host}; remove the file if that process is gone`);
    } else if (existing !== undefined && (existing.trim() !== '' || ageMs(path) < emptyLockGraceMs)) {
      // A fresh empty file is another start between its create and its write.
      throw lockedError(path, existing.trim() === '' ? 'another start is taking it' : 'unreadable lock file; remove it if no svc process uses this root');
    }
    // The owner is gone (or a crash left the file empty between create and write): stale.
    staleOwner = owner ?? { pid: 0, host: hostname(), startTicks: null };
    fs.rmSync(path, { force: true });
  }
  throw lockedError(path, 'another process took the lock while a stale one was being replaced');
}

/** How long an empty lock file is taken for a start in progress rather than a crash's leftover. */
const emptyLockGraceMs = 5_000;

function ageMs(path: string): number {
  try {
    return Date.now() - fs.statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function readQuietly(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function releaseIfOurs(path: string, text: string): void {
  if (readQuietly(path) === text) fs.rmSync(path, { force: true });
}
