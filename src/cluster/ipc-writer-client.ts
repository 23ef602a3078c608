// Worker side of writes: a WriterClient over process.send. Requests carry ids; replies resolve them.
// A bound on requests in flight and a timeout keep a stuck primary from piling work up in a worker.
import type { IlpCommitRequest, IlpCommitResult, ImportCommitRequest, ImportCommitResult, WriteRequestOptions, WriteResult, WriterClient } from '../engine/writer-client.js';
import type { PrimaryToWorker, WorkerToPrimary } from './ipc.js';
import { encodeStatement, type Statement } from '../sql/compiler.js';
import { errorFromPayload, SvcError } from '../core/errors.js';
import { ipcInFlightMax, ipcTimeoutMs } from '../core/limits.js';

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class IpcWriterClient implements WriterClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly send: (message: WorkerToPrimary) => void, private readonly timeoutMs: number) {}

  /** Feeds a reply from the primary. */
  onReply(message: Extract<PrimaryToWorker, { type: 'svc:reply' }>): void {
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

  private request(build: (id: number) => WorkerToPrimary, timeoutMs = this.timeoutMs): Promise<unknown> {
    if (this.pending.size >= ipcInFlightMax) return Promise.reject(new SvcError('SVC_OVERLOADED', 'too many write requests in flight', 503));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SvcError('SVC_IPC', 'the primary did not answer the write request in time', 503));
      }, Math.max(timeoutMs, ipcTimeoutMs));
      this.pending.set(id, { resolve, reject, timer });
      this.send(build(id));
    });
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
