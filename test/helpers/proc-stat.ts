// Fields of /proc/<task>/stat, for tests and benches that read a process's or a thread's CPU time or priority.
import { readFileSync } from 'node:fs';

/**
 * The fields of /proc/<task>/stat after the command name (which may hold spaces), or undefined once it is gone;
 * `task` is a pid, `<pid>/task/<tid>` or `self/task/<tid>` for one thread. Index k here is field k + 3 of proc(5).
 */
export function statFields(task: string): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${task}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The pids of a process's children (a server's workers), from /proc; empty once it is gone. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((text) => text !== '').map(Number);
  } catch {
    return [];
  }
}
