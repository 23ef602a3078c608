// Primary side of a metrics scrape: asks every worker for its snapshot and collects the replies that
// arrive within the bound; a worker that does not answer in time gives `undefined` (a partial scrape).
import type { WorkerPool } from './worker-pool.js';

interface Waiting {
  readonly replies: Map<number, unknown>;
  readonly expected: number;
  readonly done: () => void;
}

export class MetricsRequests {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  request(pool: WorkerPool, timeoutMs: number): Promise<{ workerId: number; snapshot: unknown }[]> {
    const requestId = this.nextId++;
    const replies = new Map<number, unknown>();
    const live = pool.slots.filter((slot) => slot.worker !== undefined);
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(pool.slots.map((slot) => ({ workerId: slot.slot, snapshot: replies.get(slot.slot) })));
      };
      const timer = setTimeout(finish, timeoutMs);
      this.waiting.set(requestId, { replies, expected: live.length, done: finish });
      for (const slot of live) pool.send(slot, { type: 'svc:metrics-request', requestId });
      if (live.length === 0) finish();
    });
  }

  onReply(slot: number, requestId: number, snapshot: unknown): void {
    const waiting = this.waiting.get(requestId);
    if (waiting === undefined) return;
    waiting.replies.set(slot, snapshot);
    if (waiting.replies.size >= waiting.expected) waiting.done();
  }
}
