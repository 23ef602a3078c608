// A clock and a one-shot scheduler that a test moves by hand, for code that takes `nowMs` and `schedule`
// (core/idle-check.ts and its users) instead of the real timers.
export interface ManualClock {
  readonly nowMs: () => number;
  readonly schedule: (callback: () => void, delayMs: number) => void;
  /** Moves the clock and runs the callbacks that have come due. */
  readonly advance: (ms: number) => void;
  readonly pendingCount: () => number;
}

export function manualClock(): ManualClock {
  let nowMs = 0;
  let pending: { atMs: number; callback: () => void }[] = [];
  return {
    nowMs: () => nowMs,
    schedule: (callback, delayMs) => { pending.push({ atMs: nowMs + delayMs, callback }); },
    advance: (ms) => {
      nowMs += ms;
      const due = pending.filter((entry) => entry.atMs <= nowMs);
      pending = pending.filter((entry) => entry.atMs > nowMs);
      for (const entry of due) entry.callback();
    },
    pendingCount: () => pending.length,
  };
}
