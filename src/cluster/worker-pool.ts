// Forks and supervises the HTTP workers: a dead worker is logged and restarted with exponential backoff
// (reset once it has stayed up a while); shutdown asks every worker to drain and waits for them.
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { workerRestartBackoffMaxMs, workerRestartBackoffMinMs } from '../core/limits.js';
import { workerRestartChannel } from '../core/diagnostics.js';
import { getLogger } from '../log/logger.js';
import type { PrimaryToWorker } from './ipc.js';

const log = getLogger('worker-pool');
const STABLE_AFTER_MS = 30_000;

export interface WorkerSlot {
  readonly slot: number;
  worker: Worker | undefined;
  startedAt: number;
  backoffMs: number;
}

export class WorkerPool {
  readonly slots: WorkerSlot[] = [];
  private stopping = false;

  /** `onExitOf` hears of every worker that exited (with its pid), before its restart (what it announced will never come). */
  constructor(count: number, private readonly onMessage: (slot: WorkerSlot, message: unknown) => void, private readonly onExitOf: (slot: WorkerSlot, pid: number | undefined) => void = () => undefined) {
    for (let slot = 1; slot <= count; slot++) this.slots.push({ slot, worker: undefined, startedAt: 0, backoffMs: workerRestartBackoffMinMs });
  }

  start(): void {
    // Workers accept on the shared listening socket themselves. With the primary handing out connections
    // (round-robin), a connection handed to a worker that has just died stays open in the primary and the
    // client hangs until its own timeout; with shared accept, a dying worker's connections are reset at once
    // and queued ones go to the survivors.
    cluster.schedulingPolicy = cluster.SCHED_NONE;
    for (const slot of this.slots) this.fork(slot);
  }

  /** No worker is restarted from now on (a failed start is stopping the pool). */
  holdRestarts(): void {
    this.stopping = true;
  }

  send(slot: WorkerSlot, message: PrimaryToWorker): void {
    const worker = slot.worker;
    if (worker !== undefined && worker.isConnected()) worker.send(message);
  }

  private fork(slot: WorkerSlot): void {
    // With shared accept, the first worker to wake takes every pending connection (libuv accepts until
    // EAGAIN); keep-alive clients that connect together then all land on one worker. Single accept makes
    // libuv yield after each accepted connection so the others get their share.
    const worker = cluster.fork({ SVC_WORKER_SLOT: String(slot.slot), UV_TCP_SINGLE_ACCEPT: '1' });
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (message: unknown) => this.onMessage(slot, message));
    worker.on('exit', (code, signal) => this.onExit(slot, worker, code, signal));
  }

  private onExit(slot: WorkerSlot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    this.onExitOf(slot, worker.process.pid);
    if (this.stopping) return;
    log.critical(`worker ${slot.slot} (pid ${worker.process.pid ?? '?'}) died [code=${code ?? 'none'}, signal=${signal ?? 'none'}]; restarting in ${slot.backoffMs} ms`);
    workerRestartChannel.publish({ workerId: slot.slot, exitCode: code, signal });
    const delay = Date.now() - slot.startedAt > STABLE_AFTER_MS ? workerRestartBackoffMinMs : slot.backoffMs;
    slot.backoffMs = Math.min(workerRestartBackoffMaxMs, delay * 2);
    setTimeout(() => { if (!this.stopping) this.fork(slot); }, delay).unref();
  }

  /** Asks every worker to drain and exit; kills stragglers after `drainMs`. */
  async stop(drainMs: number): Promise<void> {
    this.stopping = true;
    const exits = this.slots.map((slot) => new Promise<void>((resolve) => {
      const worker = slot.worker;
      if (worker === undefined || worker.isDead()) {
        resolve();
        return;
      }
      const timer = setTimeout(() => worker.kill('SIGKILL'), drainMs + 1000);
      // A worker still loading its modules has no message listener yet: repeat the request until it exits.
      const repeat = setInterval(() => this.send(slot, { type: 'svc:shutdown' }), 250);
      worker.once('exit', () => { clearTimeout(timer); clearInterval(repeat); resolve(); });
      this.send(slot, { type: 'svc:shutdown' });
    }));
    await Promise.all(exits);
  }
}
