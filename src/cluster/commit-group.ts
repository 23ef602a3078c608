// Gathers the work items (ILP requests, INSERT statements) that arrive while the writer is busy, so that one
// turn of the writer's queue commits all of them together: the first item of a group schedules the turn, the
// ones arriving before it runs join, and each gets its own outcome from the group's commit.
import { SvcError } from '../core/errors.js';

interface Waiting<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

export class CommitGroup<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];

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

  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length === 1) this.schedule(() => this.commitWaiting());
    });
  }

  private commitWaiting(): void {
    const group = this.waiting;
    this.waiting = [];
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
