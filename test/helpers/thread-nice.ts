// The nice value of every thread of a process, read from /proc/<pid>/task/<tid>/stat (field 19): Linux keeps
// one per thread, which is how the primary's shipping thread runs below its event loop.
import { readdirSync } from 'node:fs';
import { statFields } from './proc-stat.js';

/** Nice value by thread id; threads that end while being read are left out. */
export function threadNiceValues(pid: number | 'self'): Map<number, number> {
  const values = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const fields = statFields(`${pid}/task/${tid}`);
    if (fields !== undefined) values.set(Number(tid), Number(fields[16]));
  }
  return values;
}
