// The backup gate of the write queue. SNAPSHOT PREPARE (alias CHECKPOINT CREATE) closes it once every
// earlier write has committed and db/ is flushed; writes then wait in the primary's queue while the operator
// copies db/. SNAPSHOT COMPLETE (alias CHECKPOINT RELEASE) opens it. A gate left closed past its timeout opens
// by itself so a forgotten COMPLETE cannot stop writes for good; the next COMPLETE then fails, telling the
// backup job that its copy may hold writes made during the copy.
import { SvcError } from '../core/errors.js';
import { getLogger } from '../log/logger.js';

const log = getLogger('snapshot');

export type SnapshotStatementKind = 'prepare' | 'complete';

/** Maps a no-op statement keyword to its snapshot role, or undefined for the other no-ops. */
export function snapshotKindOf(keyword: string): SnapshotStatementKind | undefined {
  if (keyword === 'SNAPSHOT PREPARE' || keyword === 'CHECKPOINT CREATE') return 'prepare';
  if (keyword === 'SNAPSHOT COMPLETE' || keyword === 'CHECKPOINT RELEASE') return 'complete';
  return undefined;
}

export class SnapshotGate {
  private closed: { readonly open: () => void; readonly opened: Promise<void>; readonly timer: NodeJS.Timeout; readonly since: number } | undefined;
  private expired = false;

  constructor(private readonly timeoutMs: number) {}

  get isClosed(): boolean {
    return this.closed !== undefined;
  }

  /** Resolves at once while open; while closed, when the gate opens. */
  passed(): Promise<void> {
    return this.closed === undefined ? Promise.resolve() : this.closed.opened;
  }

  /** Refuses a second PREPARE before the first is completed (checked before the statement is queued). */
  checkCanPrepare(): void {
    if (this.closed !== undefined) throw new SvcError('SVC_SNAPSHOT', 'snapshot already prepared; waiting for SNAPSHOT COMPLETE', 400);
  }

  /** Closes the gate; call once every earlier write has committed and the files are flushed. */
  close(): void {
    this.checkCanPrepare();
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => { open = resolve; });
    const timer = setTimeout(() => this.expire(), this.timeoutMs);
    timer.unref();
    this.closed = { open, opened, timer, since: Date.now() };
    this.expired = false;
    log.info(`snapshot prepared: writes are held until SNAPSHOT COMPLETE [timeout=${this.timeoutMs}ms]`);
  }

  /** SNAPSHOT COMPLETE: opens the gate; fails when the snapshot expired before it. */
  complete(): void {
    if (this.expired) {
      this.expired = false;
      throw new SvcError('SVC_SNAPSHOT', `snapshot expired before SNAPSHOT COMPLETE [timeout=${this.timeoutMs}ms]; writes resumed meanwhile, so the copy is not consistent`, 400);
    }
    const closed = this.closed;
    if (closed === undefined) return;
    this.open(`snapshot complete after ${Date.now() - closed.since} ms: writes resumed`);
  }

  /** Shutdown: opens the gate so queued writes can finish. */
  release(reason: string): void {
    if (this.closed !== undefined) this.open(`snapshot released (${reason}): writes resumed`);
  }

  private expire(): void {
    if (this.closed === undefined) return;
    this.expired = true;
    log.error(`snapshot expired: no SNAPSHOT COMPLETE within ${this.timeoutMs} ms; writes resumed, a copy taken now is not consistent`);
    this.open();
  }

  private open(message?: string): void {
    const closed = this.closed;
    if (closed === undefined) return;
    this.closed = undefined;
    clearTimeout(closed.timer);
    closed.open();
    if (message !== undefined) log.info(message);
  }
}
