// Lowest CPU priority for processes that a deployment runs on other machines (a replica, the object store):
// on this bench's shared cores they then take only the CPU the processes being measured leave idle, which
// models their own machines without hiding what they cost (their CPU seconds are still counted). Linux
// applies a priority to one thread, so every thread of each process is set, and set back afterwards, also
// when the bench is interrupted (the store's daemons are shared with other runs on this machine).
import { readdirSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/** The thread ids of a process (itself first among them), none once it is gone. */
function threadIds(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/** Restores not yet run: an interrupted bench runs them before it exits. */
const pendingRestores = new Set<() => void>();

function restorePendingAndExit(signal: NodeJS.Signals): void {
  for (const restore of pendingRestores) restore();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/**
 * Sets every thread of `pids` to the lowest priority and returns what restores each process's threads to the
 * priority its first thread had before (threads started meanwhile inherited the lowest one).
 */
export function lowerPriority(pids: readonly number[]): () => void {
  if (pendingRestores.size === 0) {
    process.once('SIGINT', restorePendingAndExit);
    process.once('SIGTERM', restorePendingAndExit);
  }
  const before = new Map<number, number>();
  for (const pid of pids) {
    const threads = threadIds(pid);
    if (threads.length === 0) continue;
    before.set(pid, getPriority(pid));
    for (const thread of threads) setPriorityIfAlive(thread, constants.priority.PRIORITY_LOW);
  }
  const restore = (): void => {
    pendingRestores.delete(restore);
    if (pendingRestores.size === 0) {
      process.off('SIGINT', restorePendingAndExit);
      process.off('SIGTERM', restorePendingAndExit);
    }
    for (const [pid, priority] of before) for (const thread of threadIds(pid)) setPriorityIfAlive(thread, priority);
  };
  pendingRestores.add(restore);
  return restore;
}

/** os.setPriority's error for a thread that is gone: ERR_SYSTEM_ERROR with the errno name in `info`. */
function isNoSuchThread(error: unknown): boolean {
  if (!(error instanceof Error) || !('info' in error)) return false;
  const info: unknown = error.info;
  return typeof info === 'object' && info !== null && 'code' in info && info.code === 'ESRCH';
}

/** A thread may end between listing and setting: that is no failure. */
function setPriorityIfAlive(thread: number, priority: number): void {
  try {
    setPriority(thread, priority);
  } catch (error) {
    if (!isNoSuchThread(error)) throw error;
  }
}
