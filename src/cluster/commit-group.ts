// Gathers the work items (ILP requests, INSERT statements) that arrive while the writer is busy, so that one
// turn of the writer's queue commits all of them together: the first item of a group schedules the turn, the
// ones arriving before it runs join, and each gets its own outcome from the group's commit. A turn may first
// wait, for a bounded time, until as many items wait as the previous group held: concurrent clients answered
// by one commit send their next items at nearly the same time, and one commit for all of them costs one _txn
// publication, one WAL append and one reply message per worker instead of several.
import { SvcError } from '../core/errors.js';
import { assert } from '../core/assert.js';

interface Waiting<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

export class CommitGroup<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  /** Items of the last group committed: how many concurrent clients had an item in it. */
  private lastGroupSize = 0;
  /** Set while a turn waits in `filled`: told of every arrival. */
  private onArrival: (() => void) | undefined;

  /**
   * `schedule` queues one turn of the writer; `commit` commits a group and returns one outcome per item, in
   * order; `asFailure` maps a thrown or returned error to what the caller sees.
   */
  constructor(
    private readonly schedule: (turn: () => void) => void,
    private readonly commit: (items: Item[]) => (Result | Error)[],
    private readonly asFailure: (error: unknown) => unknown,
  ) {}

  /** Items waiting for the next turn. */
  get size(): number {
    return this.waiting.length;
  }

  /** The item that opened the group waiting for the next turn, if any. */
  get first(): Item | undefined {
    return this.waiting[0]?.item;
  }

  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length === 1) this.schedule(() => this.commitWaiting());
      this.onArrival?.();
    });
  }

  /**
   * Resolves once as many items wait as the last group held, or after `waitMsMax`. A lone client's group of
   * one never waits; after a group shrank (a client stopped) one turn waits the whole `waitMsMax`, and the
   * next expects the smaller size.
   */
  filled(waitMsMax: number): Promise<void> {
    if (this.waiting.length >= this.lastGroupSize || waitMsMax <= 0) return Promise.resolve();
    assert(this.onArrival === undefined, 'the writer queue runs one turn at a time, so one turn waits here at a time');
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.onArrival = undefined;
        resolve();
      };
      const timer = setTimeout(done, waitMsMax);
      this.onArrival = () => {
        if (this.waiting.length >= this.lastGroupSize) done();
      };
    });
  }

  private commitWaiting(): void {
    const group = this.waiting;
    this.waiting = [];
    this.lastGroupSize = group.length;
    let outcomes: (Result | Error)[];
    try {
      outcomes = this.commit(group.map((entry) => entry.item));
    } catch (error) {
      for (const entry of group) entry.reject(this.asFailure(error));
      return;
    }
    group.forEach((entry, k) => {
      const outcome = outcomes[k];
      if (outcome === undefined || outcome instanceof Error) entry.reject(this.asFailure(outcome ?? new SvcError('SVC_INTERNAL', 'a group commit gave no outcome for an item', 500)));
      else entry.resolve(outcome);
    });
  }
}
