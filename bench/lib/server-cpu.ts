// CPU seconds of the processes a replication run puts on the shared cores, read from /proc, split the way the
// replication bench reports them: a server's primary process (writer, WAL, capture, encoder thread, uploads),
// its worker processes (HTTP, ILP parsing, reads), and the object store's daemons. The primary's CPU is split
// by thread: its main thread (the event loop that runs commits), the segment encoder thread (told apart by its
// lowest nice value: it lowers its own priority) and the rest (V8's GC and compiler threads, libuv's pool).
import { readFileSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '../../test/helpers/server.js';
import { threadNiceValues } from '../../test/helpers/thread-nice.js';
import { childPids } from '../../test/helpers/proc-stat.js';
import { processCpuSeconds } from './process-cpu.js';

export interface ServerCpu {
  readonly primary: number;
  /** Of `primary`, its main thread's (the event loop that runs commits). */
  readonly primaryMain: number;
  /** Of `primary`, its threads' at the lowest priority: the segment encoder thread, when it runs at low priority. */
  readonly primaryEncoder: number;
  readonly workers: number;
}

/**
 * CPU seconds of the threads of `pid` at the lowest priority (the replication encoder thread lowers its own:
 * thread-priority.ts). A thread that ended is no longer listed: the encoder thread lives as long as the
 * primary, so a difference of two readings holds.
 */
function lowestPriorityThreadsCpu(pid: string): number {
  let niceByThread: Map<number, number>;
  try {
    niceByThread = threadNiceValues(Number(pid));
  } catch {
    return 0;
  }
  let total = 0;
  for (const [tid, nice] of niceByThread) {
    if (nice === constants.priority.PRIORITY_LOW) total += processCpuSeconds(`${pid}/task/${tid}`);
  }
  return total;
}

/** CPU seconds so far of a server's primary process (and of its main thread) and of its workers (its child processes). */
export function serverCpu(server: TestServer): ServerCpu {
  const pid = String(server.process.pid ?? 0);
  return {
    primary: processCpuSeconds(pid), primaryMain: processCpuSeconds(`${pid}/task/${pid}`), primaryEncoder: lowestPriorityThreadsCpu(pid),
    workers: childPids(Number(pid)).reduce((sum, id) => sum + processCpuSeconds(String(id)), 0),
  };
}

/** The server's primary process and its workers. */
export function serverPids(server: TestServer): number[] {
  const pid = String(server.process.pid ?? 0);
  return [Number(pid), ...childPids(Number(pid))];
}

export function totalOf(cpu: ServerCpu): number {
  return cpu.primary + cpu.workers;
}

export function cpuSince(now: ServerCpu, before: ServerCpu): ServerCpu {
  return {
    primary: now.primary - before.primary, primaryMain: now.primaryMain - before.primaryMain,
    primaryEncoder: now.primaryEncoder - before.primaryEncoder, workers: now.workers - before.workers,
  };
}

/**
 * CPU seconds of the store's daemons so far (their pids are in its state dir's run/), NaN when unknown. The
 * store runs on the same cores: the bytes and requests the primary sends it cost ingest rate too. It may be
 * shared with other runs, so this is an upper bound of what this primary caused.
 */
export function storeCpuSeconds(): number {
  const pids = storePids();
  return pids.length === 0 ? Number.NaN : pids.reduce((sum, pid) => sum + processCpuSeconds(String(pid)), 0);
}

/** The store's daemons, from the pid files in its state dir's run/; none when unknown. */
export function storePids(): number[] {
  const runDir = join(process.env['S3_STATE_DIR'] ?? '/tmp/svc-s3', 'run');
  try {
    return readdirSync(runDir).filter((name) => name.endsWith('.pid')).map((name) => Number(readFileSync(join(runDir, name), 'utf8').trim()));
  } catch {
    return [];
  }
}
