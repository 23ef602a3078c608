// CPU time of a server process tree read from /proc: robust where wall time is noisy on a shared machine.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU ms used so far by a process and its children (the server's primary and workers, threads included). */
export function treeCpuMs(rootPid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    if (pid !== rootPid && Number(fields[1]) !== rootPid) continue;
    total += ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
  }
  return total;
}
