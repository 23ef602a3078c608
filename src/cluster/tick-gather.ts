// How long the primary holds an ILP group opened by a TCP unit of a commit tick (ilp/commit-tick.ts): until
// every process serving ILP TCP connections has sent its units of that tick, or `waitMsMax` after the tick.
// A fixed 20 ms after the tick was too short under load: each worker stages its connections' units one after
// another before sending them, and with both cores parsing, the second worker's units arrived 100-200 ms after
// the tick. The group then committed one worker's units and the next group merged the other's into the same
// time range: a second out-of-order merge per tick, rewriting what the first had just written.
// A process serving connections none of which hold rows at a tick sends nothing: the group then waits out
// `waitMsMax` (only visibility is delayed: TCP senders get no answers).
import { assert } from '../core/assert.js';

/** Ticks whose arrivals are remembered: units of older ticks are late anyway and wait for nobody. */
const TICKS_KEPT = 4;

/** Runs `callback` once after `delayMs` (tests pass their own clock). */
export type GatherSchedule = (callback: () => void, delayMs: number) => void;

const realSchedule: GatherSchedule = (callback, delayMs) => {
  setTimeout(callback, delayMs);
};

export class TickGather {
  /** Owners that sent a unit, by tick. */
  private readonly arrivals = new Map<number, Set<string>>();
  private waiting: { readonly tick: number; readonly release: () => void } | undefined;

  /** `expectedOwners`: the owners (writer-service owner names) serving ILP TCP connections now. */
  constructor(
    private readonly expectedOwners: () => ReadonlySet<string>, private readonly waitMsMax: number, private readonly schedule: GatherSchedule = realSchedule,
  ) {}

  /** A unit of `tick` from `owner` arrived (before it joins a group). */
  noteArrival(owner: string, tick: number): void {
    let owners = this.arrivals.get(tick);
    if (owners === undefined) {
      owners = new Set();
      this.arrivals.set(tick, owners);
      if (this.arrivals.size > TICKS_KEPT) this.arrivals.delete(Math.min(...this.arrivals.keys()));
    }
    owners.add(owner);
    if (this.waiting?.tick === tick && this.complete(tick)) this.waiting.release();
  }

  /** Resolves when every expected owner has sent a unit of `tick`, or `waitMsMax` after the tick. */
  wait(tick: number, nowMs: number): Promise<void> {
    // Never longer than waitMsMax, even were this clock behind the one that stamped the tick.
    const delayMs = Math.min(this.waitMsMax, tick + this.waitMsMax - nowMs);
    if (delayMs <= 0 || this.complete(tick)) return Promise.resolve();
    assert(this.waiting === undefined, 'one ILP group gathers at a time (the next forms once this one is taken)');
    return new Promise((resolve) => {
      // Released by the last expected unit or by the bound, whichever comes first; the other finds it done.
      const waiting = {
        tick,
        release: (): void => {
          if (this.waiting !== waiting) return;
          this.waiting = undefined;
          resolve();
        },
      };
      this.waiting = waiting;
      this.schedule(waiting.release, delayMs);
    });
  }

  private complete(tick: number): boolean {
    const arrived = this.arrivals.get(tick);
    if (arrived === undefined) return false;
    for (const owner of this.expectedOwners()) {
      if (!arrived.has(owner)) return false;
    }
    return true;
  }
}
