// The primary's start waits until every worker it forked has said it is ready, and fails when one exits first.
// A worker that cannot listen (the port was taken between the configuration check and the bind, by another
// program or as the local port of an outgoing connection) otherwise died and was restarted in a loop while the
// primary went on to announce that it was listening: clients then reached whoever held the port. Later exits
// are the pool's business (it restarts the worker); only the first start of each slot is watched here.
import { SvcError } from '../core/errors.js';

export class WorkersStarting {
  private readonly waiting: Set<number>;
  private settled = false;
  private resolveDone: () => void = () => undefined;
  private rejectDone: (error: SvcError) => void = () => undefined;
  /** Resolves once every slot's first worker is ready; rejects when one exits before. */
  readonly done: Promise<void>;

  constructor(slots: readonly number[]) {
    this.waiting = new Set(slots);
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    if (this.waiting.size === 0) this.finish();
  }

  ready(slot: number): void {
    if (this.settled || !this.waiting.delete(slot)) return;
    if (this.waiting.size === 0) this.finish();
  }

  /** True when this exit fails the start. */
  exited(slot: number, pid: number | undefined): boolean {
    if (this.settled || !this.waiting.has(slot)) return false;
    this.settled = true;
    this.rejectDone(new SvcError('SVC_START', `worker ${slot}${pid === undefined ? '' : ` (pid ${pid})`} exited before it was ready; its start-up record above says why`, 500));
    return true;
  }

  private finish(): void {
    this.settled = true;
    this.resolveDone();
  }
}
