// Replies to the workers' requests, gathered per worker: the requests one group commit settles are answered
// with one IPC message per worker instead of one per request, so a group of N inserts costs each side one
// serialization, one write and one wake-up per worker rather than N.
import type { WorkerSlot } from './worker-pool.js';
import type { PrimaryToWorker, WriteReply } from './ipc.js';
import { ipcBatchEntriesMax } from '../core/limits.js';
import { assert } from '../core/assert.js';

export class ReplyBatcher {
  private readonly pending = new Map<WorkerSlot, WriteReply[]>();
  private flushScheduled = false;

  constructor(private readonly send: (slot: WorkerSlot, message: PrimaryToWorker) => void) {}

  /**
   * Queues a reply. The flush runs as a next-tick callback, which Node runs once the microtask queue is empty:
   * after every promise callback of the group commit that settled this request, so the whole group goes together.
   */
  reply(slot: WorkerSlot, reply: WriteReply): void {
    const replies = this.pending.get(slot);
    if (replies === undefined) this.pending.set(slot, [reply]);
    else replies.push(reply);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    process.nextTick(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    for (const [slot, replies] of this.pending) {
      assert(replies.length > 0, 'a worker is pending only with a reply queued for it');
      for (let from = 0; from < replies.length; from += ipcBatchEntriesMax) {
        this.send(slot, { type: 'svc:replies', replies: replies.slice(from, from + ipcBatchEntriesMax) });
      }
    }
    this.pending.clear();
  }
}
