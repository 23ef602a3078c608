// The share of the machine's CPU time that went idle recently, read from the kernel's per-core counters
// (os.cpus()) when asked, at most once per sample window, so a caller can tell whether a core is free for work
// it could move to another thread. No timer: between calls nothing is sampled.
import { cpus } from 'node:os';
import { assert } from './assert.js';

/** Counters closer together than this say little (the kernel counts in 10 ms ticks). */
const SAMPLE_WINDOW_MS = 200;

interface CpuTotals {
  readonly idle: number;
  readonly total: number;
}

function readTotals(): CpuTotals {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const times = cpu.times;
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

let last: CpuTotals | undefined;
let lastAtMs = 0;
let share = 0;

/** Idle share (0..1) of all cores over the last window; 0 until two samples were taken. */
export function machineIdleShare(nowMs = Date.now()): number {
  if (last !== undefined && nowMs - lastAtMs < SAMPLE_WINDOW_MS) return share;
  const totals = readTotals();
  if (last !== undefined && totals.total > last.total) share = (totals.idle - last.idle) / (totals.total - last.total);
  last = totals;
  lastAtMs = nowMs;
  assert(share >= 0 && share <= 1, 'an idle share is a fraction of the time counted');
  return share;
}
