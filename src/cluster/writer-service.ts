// Primary side of writes: one queue, so statements apply one at a time in arrival order (the engine is
// single-threaded and every statement sees the previous commit). Errors come back as typed SvcErrors.
// Service-account statements go to the accounts file instead of the engine; their reply waits until every
// worker has the new token list, so a revoked token is refused everywhere once the statement has answered.
// The queue passes through the snapshot gate: between SNAPSHOT PREPARE and COMPLETE, writes wait here.
import type { Engine } from '../engine/engine.js';
import { executeParsedWrite } from '../engine/write-executor.js';
import { commitInsertGroup, isInsertValues, type InsertValuesStatement } from '../engine/insert-group.js';
import { CommitGroup } from './commit-group.js';
import { IlpOrderGate } from './ilp-order-gate.js';
import type { IlpCommitRequest, IlpCommitResult, ImportCommitRequest, ImportCommitResult, WriteResult } from '../engine/writer-client.js';
import { commitHeldRows, commitIlpGroup } from '../engine/ilp-commit.js';
import { TcpRowHold } from '../engine/tcp-row-hold.js';
import { ilpPendingRequestsMax, ilpTcpHeldAgeIntervals, ilpTcpHeldBytesMax, ilpTcpHeldQuietIntervals, ilpTcpTickGatherMs, insertGroupFillWaitMsMax } from '../core/limits.js';
import { getLogger } from '../log/logger.js';
import { ilpHeldChannel } from '../core/diagnostics.js';
import { TickGather } from './tick-gather.js';
import { commitImport } from '../engine/import-commit.js';
import { resolve, sep } from 'node:path';
import { stagingRoot } from '../storage/staging-segment.js';
import { SvcError, asLimitError, asStorageError } from '../core/errors.js';
import type { ServiceAccountStatement, Statement } from '../sql/compiler.js';
import type { ServiceAccounts } from '../accounts/service-accounts.js';
import type { TokenEntry } from '../accounts/token-entry.js';
import { SnapshotGate, snapshotKindOf } from './snapshot-gate.js';
import type { ColdStorageManager } from '../engine/cold/cold-storage-manager.js';

export interface AccountsBinding {
  readonly accounts: ServiceAccounts;
  /** Hands the new token list to every process serving HTTP; resolves once they all have it. */
  readonly publish: (entries: readonly TokenEntry[]) => Promise<void>;
}

export interface WriterServiceOptions {
  readonly snapshotTimeoutMs: number;
  readonly accounts?: AccountsBinding;
  readonly refuseWrites?: SvcError;
  /** line.http.commit.order.wait (ilp-order-gate.ts); 0, the default, commits ILP requests in arrival order. */
  readonly ilpCommitOrderWaitMs?: number;
  /** The owners (see ilpCommit) serving ILP TCP connections now; a tick's group waits for their units. None: no wait. */
  readonly ilpTcpOwners?: () => ReadonlySet<string>;
  /** How long a tick's group waits at most for the other workers' units (ilpTcpTickGatherMs unless a test says). */
  readonly ilpTcpTickGatherMs?: number;
  /** line.tcp.commit.interval.default: rows held for a table that got none for a few of these are committed (engine/tcp-row-hold.ts). */
  readonly ilpTcpCommitIntervalMs?: number;
}

const log = getLogger('writer');

export class WriterService {
  private tail: Promise<unknown> = Promise.resolve();
  readonly snapshot: SnapshotGate;
  /** A PREPARE is queued and not yet run: a second one is refused like one arriving after it ran. */
  private preparePending = false;
  private readonly accounts: AccountsBinding | undefined;
  /** INSERT ... VALUES statements waiting together share one insert per table (insert-group.ts). */
  private readonly inserts: CommitGroup<InsertValuesStatement, WriteResult>;
  /** Set while a group opened by a TCP tick's unit waits for the other units of that tick. */
  private ilpGathering: Promise<void> | undefined;
  private readonly tickGather: TickGather;
  /** ILP requests (HTTP, and TCP units sent by their size or their stream's end) waiting for the next group commit (ilp-commit.ts). */
  private readonly ilpRequests: CommitGroup<IlpCommitRequest, IlpCommitResult>;
  /**
   * TCP units sent at a commit tick, and TCP units arriving while such a group waits: the group waits until
   * every worker's units of that tick are in (tick-gather.ts). HTTP requests commit apart, so a client waiting
   * for its answer never waits out a tick's gathering.
   */
  private readonly ilpTickUnits: CommitGroup<IlpCommitRequest, IlpCommitResult>;
  /** Holds a ready ILP request briefly while an earlier one of its table is still being parsed. */
  readonly ilpOrder: IlpOrderGate;
  /** Runs CONVERT PARTITION TO REMOTE and DROP LOCAL PARTITION, which wait for the object store. */
  private cold: ColdStorageManager | undefined;

  /** Replication: told after every turn that may have committed (captures run as turns of their own). */
  private afterTurn: () => void = () => undefined;
  /** Set on a replica: every write is refused with this error. */
  private readonly refusal: SvcError | undefined;
  /** Rows of TCP units kept back from out-of-order groups (engine/tcp-row-hold.ts). */
  private readonly tcpHold: TcpRowHold;
  private readonly tcpOwners: () => ReadonlySet<string>;
  private readonly tcpCommitIntervalMs: number;
  /** Runs while rows are held: commits those of tables that got nothing for a while (armHoldTimer). */
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(private readonly engine: Engine, options: WriterServiceOptions) {
    this.snapshot = new SnapshotGate(options.snapshotTimeoutMs);
    this.ilpOrder = new IlpOrderGate(options.ilpCommitOrderWaitMs ?? 0);
    this.accounts = options.accounts;
    this.refusal = options.refuseWrites;
    const noTcpOwners: ReadonlySet<string> = new Set();
    this.tcpOwners = options.ilpTcpOwners ?? (() => noTcpOwners);
    this.tcpCommitIntervalMs = options.ilpTcpCommitIntervalMs ?? 1000;
    this.tcpHold = new TcpRowHold({
      ageMaxMs: this.tcpCommitIntervalMs * ilpTcpHeldAgeIntervals, bytesMax: ilpTcpHeldBytesMax, lagFloorMicros: 2 * this.tcpCommitIntervalMs * 1000,
    }, Date.now());
    // ILP groups pass their tables through the hold themselves; every other write commits what it holds first.
    const schedule = (turn: () => void): void => {
      void this.enqueue(turn, false).catch(() => undefined);
    };
    // An INSERT group's turn holds the queue until as many statements wait as the previous group held (at most
    // insertGroupFillWaitMsMax), then for the rest of that event-loop turn before it takes its statements:
    // requests that both workers' IPC messages (read in the same poll phase) carry then commit together,
    // instead of the first worker's commit running before the second worker's message is read.
    const scheduleAfterPoll = (turn: () => void): void => {
      void this.enqueue(() => this.inserts.filled(insertGroupFillWaitMsMax).then(() => new Promise<void>((resolveTurn) => setImmediate(() => {
        try {
          turn();
        } finally {
          resolveTurn();
        }
      })))).catch(() => undefined);
    };
    this.inserts = new CommitGroup(scheduleAfterPoll, (statements) => commitInsertGroup(this.engine, statements), (error) => asLimitError(asStorageError(error)));
    // A group opened by a TCP unit of a commit tick waits until the other workers' units of that tick are in
    // (tick-gather.ts); it waits before it takes the writer queue, which other writes keep using meanwhile.
    this.tickGather = new TickGather(this.tcpOwners, options.ilpTcpTickGatherMs ?? ilpTcpTickGatherMs);
    const scheduleTickUnits = (turn: () => void): void => {
      const tick = this.ilpTickUnits.first?.tick;
      if (tick === undefined) {
        schedule(turn);
        return;
      }
      this.ilpGathering = this.tickGather.wait(tick, Date.now()).then(() => {
        this.ilpGathering = undefined;
        schedule(turn);
      });
    };
    const commitIlp = (requests: readonly IlpCommitRequest[]): (IlpCommitResult | Error)[] => {
      const results = commitIlpGroup(this.engine, requests, { hold: this.tcpHold, mayHold: this.tcpOwners().size > 0 });
      ilpHeldChannel.publish({ rows: this.tcpHold.heldRows });
      this.armHoldTimer();
      return results;
    };
    this.ilpRequests = new CommitGroup(schedule, commitIlp, asStorageError);
    this.ilpTickUnits = new CommitGroup(scheduleTickUnits, commitIlp, asStorageError);
  }

  /** The ILP TCP connections changed: once none is left, nothing more comes for the rows held, which commit now. */
  tcpConnectionsChanged(): void {
    if (this.tcpOwners().size === 0 && this.tcpHold.heldRows > 0) void this.enqueue(() => undefined).catch(() => undefined);
  }

  /** Commits the held rows of `writers` (all by default); a failure is logged, the rows are gone (nobody waits for them). */
  private commitHeld(writers?: ReturnType<TcpRowHold['heldTables']>): void {
    if (this.tcpHold.heldRows === 0) return;
    for (const error of commitHeldRows(this.engine, this.tcpHold, writers)) log.error(`ILP TCP rows held back from out-of-order commits were not committed: ${error.message}`);
    ilpHeldChannel.publish({ rows: this.tcpHold.heldRows });
  }

  /**
   * While rows are held, checks every commit interval for tables that got nothing for ilpTcpHeldQuietIntervals
   * of them, and commits theirs (one interval would catch tables whose rows come at every tick).
   */
  private armHoldTimer(): void {
    if (this.holdTimer !== undefined || this.tcpHold.heldRows === 0) return;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = undefined;
      void this.enqueue(() => {
        this.commitHeld(this.tcpHold.quietTables(Date.now(), this.tcpCommitIntervalMs * ilpTcpHeldQuietIntervals));
        this.armHoldTimer();
      }, false).catch(() => undefined);
    }, this.tcpCommitIntervalMs);
    this.holdTimer.unref();
  }

  attachColdStorage(cold: ColdStorageManager): void {
    this.cold = cold;
  }

  /** Runs `work` in the write queue, after every write queued before it (cold-storage steps that change _txn). */
  runExclusive<T>(work: () => T): Promise<T> {
    return this.enqueue(work).catch((error: unknown) => Promise.reject(asStorageError(error)));
  }

  /** Queues `work`; unless it is an ILP group's (`commitsHeld` false), rows the TCP hold keeps commit before it. */
  private enqueue<T>(work: () => T | Promise<T>, commitsHeld = true): Promise<T> {
    const gated = (): Promise<T> => this.snapshot.passed().then(() => {
      if (commitsHeld) this.commitHeld();
      return work();
    }).finally(() => this.afterTurn());
    const run = this.tail.then(gated, gated);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Runs `work` alone between two writes (no commit is half done while it runs); no afterTurn call. */
  runTurn(work: () => void): Promise<void> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  onTurnCompleted(listener: () => void): void {
    this.afterTurn = listener;
  }

  /** Runs a statement a worker parsed; dispatched on its kind (the text never reaches the primary). */
  executeWrite(statement: Statement, timeoutMs: number): Promise<WriteResult> {
    if (this.refusal !== undefined) return Promise.reject(this.refusal);
    const accounts = this.accounts;
    if (accounts !== undefined && statement.kind === 'serviceAccount') {
      const apply = (): Promise<WriteResult> => applyAccountStatement(accounts, statement).finally(() => this.afterTurn());
      const run = this.tail.then(apply, apply);
      this.tail = run.catch(() => undefined);
      return run;
    }
    const snapshotKind = statement.kind === 'noop' ? snapshotKindOf(statement.keyword) : undefined;
    try {
      // COMPLETE bypasses the queue (the queue is what it unblocks); PREPARE is refused at once when one is open.
      if (snapshotKind === 'complete') {
        this.snapshot.complete();
        return Promise.resolve({ kind: 'ddl' });
      }
      if (snapshotKind === 'prepare') {
        if (this.preparePending) throw new SvcError('SVC_SNAPSHOT', 'snapshot already being prepared', 400);
        this.snapshot.checkCanPrepare();
      }
    } catch (error) {
      return Promise.reject(error);
    }
    if (snapshotKind === 'prepare') {
      this.preparePending = true;
      const prepared = this.enqueue(() => this.prepareSnapshot());
      void prepared.finally(() => { this.preparePending = false; }).catch(() => undefined);
      return prepared;
    }
    if (isInsertValues(statement)) return this.inserts.add(statement);
    if (statement.kind === 'alterTable' && statement.action.kind === 'coldPartition' && this.cold !== undefined) {
      return this.cold.moveNow(statement.table.name, statement.table.position, statement.action).then((): WriteResult => ({ kind: 'ddl' }));
    }
    return this.enqueue(() => executeParsedWrite(this.engine, statement, { timeoutMs })).catch((error: unknown) => Promise.reject(asLimitError(asStorageError(error))));
  }

  /** Runs in queue order, so every earlier write has committed: flush db/ to disk, then hold later writes. */
  private prepareSnapshot(): WriteResult {
    this.engine.flushToDisk();
    this.snapshot.close();
    return { kind: 'ddl' };
  }

  /** Staging paths arrive over IPC: only files and directories under db/.staging/ are ever read or deleted. */
  private checkStagingPath(path: string, code: 'SVC_IMPORT_FAILED' | 'SVC_ILP_INVALID', what: string): void {
    if (!resolve(path).startsWith(stagingRoot(this.engine.dbDir) + sep)) throw new SvcError(code, `invalid ${what} path`, 400);
  }

  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult> {
    if (this.refusal !== undefined) return Promise.reject(this.refusal);
    try {
      this.checkStagingPath(request.segmentDir, 'SVC_IMPORT_FAILED', 'staging segment');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.enqueue(() => commitImport(this.engine, request)).catch((error: unknown) => Promise.reject(asStorageError(error)));
  }

  /**
   * ILP requests that arrive while the writer is busy wait together and are committed as one group (one
   * insert, so one WAL append and fsync, per table). Before that, one may wait for an announced request of its
   * table that starts earlier (ilp-order-gate.ts), `owner` naming whose announcements are whose. Past the bound
   * the request is refused with 503, which the official clients retry.
   */
  ilpCommit(request: IlpCommitRequest, owner: string): Promise<IlpCommitResult> {
    if (this.refusal !== undefined) return Promise.reject(this.refusal);
    try {
      this.checkStagingPath(request.stagedFile, 'SVC_ILP_INVALID', 'staged file');
    } catch (error) {
      return Promise.reject(error);
    }
    const pending = this.ilpRequests.size + this.ilpTickUnits.size + this.ilpOrder.heldCount;
    if (pending >= ilpPendingRequestsMax) {
      if (request.announceId !== undefined) this.ilpOrder.withdraw(owner, request.announceId);
      return Promise.reject(new SvcError('SVC_OVERLOADED', `the commit queue is full [pending=${pending}]`, 503));
    }
    if (request.tick !== undefined) this.tickGather.noteArrival(owner, request.tick);
    return new Promise((resolveCommit) => {
      this.ilpOrder.admit(owner, request.announceId, request.starts ?? [], () => resolveCommit(this.ilpGroupOf(request).add(request)));
    });
  }

  /**
   * A tick's unit joins the tick group; so does any TCP unit while that group waits (its rows would otherwise
   * commit first and the tick's group merge below them). Everything else commits without waiting for a tick.
   */
  private ilpGroupOf(request: IlpCommitRequest): CommitGroup<IlpCommitRequest, IlpCommitResult> {
    if (request.tick !== undefined || (request.tcp === true && this.ilpTickUnits.size > 0)) return this.ilpTickUnits;
    return this.ilpRequests;
  }

  /** Resolves when every queued statement has finished (used by shutdown), a group still gathering too. */
  async idle(): Promise<void> {
    await this.ilpGathering;
    // A turn of its own commits the rows the TCP hold keeps.
    await this.enqueue(() => undefined).catch(() => undefined);
    await this.tail.then(() => undefined, () => undefined);
  }
}

async function applyAccountStatement(binding: AccountsBinding, statement: ServiceAccountStatement): Promise<WriteResult> {
  const result = binding.accounts.apply(statement, Date.now());
  await binding.publish(binding.accounts.tokenEntries());
  return result;
}
