// BackendKeyData keys of this process's connections, so a CancelRequest (which arrives on a new connection)
// can find the connection running the query. Keys are random: a process id alone would let anyone cancel.
import { randomInt } from 'node:crypto';

export interface CancelTarget {
  cancel(): void;
}

export interface BackendKey {
  readonly processId: number;
  readonly secretKey: number;
}

export class CancelRegistry {
  private readonly targets = new Map<number, { readonly secretKey: number; readonly target: CancelTarget }>();

  /** Registers a connection and returns its key; `release` must be called when it closes. */
  register(target: CancelTarget): BackendKey {
    let processId = randomInt(1, 0x7fffffff);
    while (this.targets.has(processId)) processId = randomInt(1, 0x7fffffff);
    const secretKey = randomInt(-0x80000000, 0x7fffffff);
    this.targets.set(processId, { secretKey, target });
    return { processId, secretKey };
  }

  release(processId: number): void {
    this.targets.delete(processId);
  }

  /** Cancels the query of the connection with this key; false when no such connection is here. */
  cancel(processId: number, secretKey: number): boolean {
    const entry = this.targets.get(processId);
    if (entry === undefined || entry.secretKey !== secretKey) return false;
    entry.target.cancel();
    return true;
  }
}
