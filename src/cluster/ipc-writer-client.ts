// Worker side of writes: a WriterClient over process.send. Requests carry ids; replies resolve them.
// A bound on requests in flight and a timeout keep a stuck primary from piling work up in a worker.
// The requests of one turn of the event loop (HTTP requests read together) go to the primary as one message,
// so N concurrent INSERTs cost one IPC write and one wake-up of the primary instead of N.
import type { IlpAnnouncement, IlpCommitRequest, IlpCommitResult, ImportCommitRequest, ImportCommitResult, WriteRequestOptions, WriteResult, WriterClient } from '../engine/writer-client.js';
import type { WorkerRequest, WorkerToPrimary, WriteReply } from './ipc.js';
import { encodeStatement, type Statement } from '../sql/compiler.js';
import { errorFromPayload, SvcError } from '../core/errors.js';
import { ipcBatchEntriesMax, ipcInFlightMax, ipcTimeoutMs, timerDelayMsMax } from '../core/limits.js';

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class IpcWriterClient implements WriterClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Requests made in this turn of the event loop, sent together once the turn's I/O callbacks have run. */
  private outgoing: WorkerRequest[] = [];

  constructor(private readonly send: (message: WorkerToPrimary) => void, private readonly timeoutMs: number) {}

  /** Feeds a reply from the primary. */
  onReply(message: WriteReply): void {
    const entry = this.pending.get(message.id);
    if (entry === undefined) return;
    this.pending.delete(message.id);
    clearTimeout(entry.timer);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(errorFromPayload(message.error));
  }

  executeWrite(statement: Statement, options?: WriteRequestOptions): Promise<WriteResult> {
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const encoded = encodeStatement(statement);
    return this.request((id) => ({ type: 'svc:write', id, statement: encoded, timeoutMs }), timeoutMs) as Promise<WriteResult>;
  }

  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult> {
    return this.request((id) => ({ type: 'svc:import-commit', id, request })) as Promise<ImportCommitResult>;
  }

  ilpCommit(request: IlpCommitRequest): Promise<IlpCommitResult> {
    return this.request((id) => ({ type: 'svc:ilp-commit', id, request })) as Promise<IlpCommitResult>;
  }

  ilpAnnounce(announcement: IlpAnnouncement): void {
    this.send({ type: 'svc:ilp-announce', announcement });
  }

  ilpWithdraw(id: number): void {
    this.send({ type: 'svc:ilp-withdraw', id });
  }

  private request(build: (id: number) => WorkerRequest, timeoutMs = this.timeoutMs): Promise<unknown> {
    if (this.pending.size >= ipcInFlightMax) return Promise.reject(new SvcError('SVC_OVERLOADED', 'too many write requests in flight', 503));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SvcError('SVC_IPC', 'the primary did not answer the write request in time', 503));
      }, Math.min(Math.max(timeoutMs, ipcTimeoutMs), timerDelayMsMax));
      this.pending.set(id, { resolve, reject, timer });
      this.outgoing.push(build(id));
      // setImmediate runs after the poll phase: every request read in this turn is in the batch by then.
      if (this.outgoing.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const requests = this.outgoing;
    this.outgoing = [];
    for (let from = 0; from < requests.length; from += ipcBatchEntriesMax) {
      this.send({ type: 'svc:requests', requests: requests.slice(from, from + ipcBatchEntriesMax) });
    }
  }

  /** Fails every request in flight (the primary went away). */
  failAll(reason: string): void {
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new SvcError('SVC_IPC', reason, 503));
      this.pending.delete(id);
    }
  }
}
