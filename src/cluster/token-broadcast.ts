// Primary side of token changes: sends the whole token list to every live worker and resolves once each has
// acknowledged it (or after a bound, so a stuck worker cannot hold up service-account statements forever).
// Workers that start later read conf/service-accounts.json themselves, which the primary writes first.
import type { TokenEntry } from '../accounts/token-entry.js';
import type { WorkerPool } from './worker-pool.js';
import { getLogger } from '../log/logger.js';

const log = getLogger('token-broadcast');
/** How long a service-account statement waits for every worker to take the new token list. */
const TOKEN_ACK_TIMEOUT_MS = 5000;

interface Waiting {
  readonly slots: Set<number>;
  readonly done: () => void;
}

export class TokenBroadcast {
  private version = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly pool: WorkerPool) {}

  publish(entries: readonly TokenEntry[]): Promise<void> {
    const version = ++this.version;
    const live = this.pool.slots.filter((slot) => slot.worker !== undefined && slot.worker.isConnected());
    if (live.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const missing = this.waiting.get(version)?.slots;
        this.waiting.delete(version);
        log.error(`token list ${version} not acknowledged in ${TOKEN_ACK_TIMEOUT_MS} ms by workers ${[...(missing ?? [])].join(', ')}`);
        resolve();
      }, TOKEN_ACK_TIMEOUT_MS);
      this.waiting.set(version, { slots: new Set(live.map((slot) => slot.slot)), done: () => { clearTimeout(timer); resolve(); } });
      for (const slot of live) this.pool.send(slot, { type: 'svc:tokens', version, tokens: entries });
    });
  }

  onAck(slot: number, version: number): void {
    const waiting = this.waiting.get(version);
    if (waiting === undefined) return;
    waiting.slots.delete(slot);
    if (waiting.slots.size > 0) return;
    this.waiting.delete(version);
    waiting.done();
  }
}
