// Lowers the CPU priority of the calling thread only, so the primary's shipping thread yields to the event
// loop that runs commits and to the worker processes on saturated cores. Linux applies setpriority(2) with
// pid 0 to the calling thread alone (each thread is a task with its own nice value); other systems apply it
// to the whole process, which would slow commits too, so there it is left alone.
import { constants, setPriority } from 'node:os';

/**
 * Sets the calling thread to the lowest priority; false where that would lower the whole process instead, or
 * where the system refused (a sandbox): shipping then runs at normal priority, which is slower for commits
 * on saturated cores but as correct.
 */
export function lowerCallingThreadPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(0, constants.priority.PRIORITY_LOW);
    return true;
  } catch {
    return false;
  }
}
