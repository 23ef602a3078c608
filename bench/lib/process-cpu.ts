// CPU time of server processes read from /proc: robust where wall time is noisy on a shared machine.
import { readdirSync } from 'node:fs';
import { statFields } from '../../test/helpers/proc-stat.js';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime(14) + stime(15) of fields from statFields, in seconds. */
export function cpuSecondsOf(fields: readonly string[]): number {
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** utime + stime of one process (all its threads), in seconds; 0 once it is gone. */
export function processCpuSeconds(pid: string): number {
  const fields = statFields(pid);
  return fields === undefined ? 0 : cpuSecondsOf(fields);
}

/** CPU ms used so far by a process and its children (the server's primary and workers, threads included). */
export function treeCpuMs(rootPid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields === undefined) continue;
    // Field 4 (index 1 here) is the parent pid.
    if (Number(entry) !== rootPid && Number(fields[1]) !== rootPid) continue;
    total += cpuSecondsOf(fields) * 1000;
  }
  return total;
}
