// The nice value of every thread of a process, read from /proc/<pid>/task/<tid>/stat (field 19): Linux keeps
// one per thread, which is how the primary's shipping thread runs below its event loop.
import { readFileSync, readdirSync } from 'node:fs';

/** Nice value by thread id; threads that end while being read are left out. */
export function threadNiceValues(pid: number | 'self'): Map<number, number> {
  const values = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces) start at field 3; nice is field 19.
    values.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return values;
}
