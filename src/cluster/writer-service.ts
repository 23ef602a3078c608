// Primary side of writes: one queue, so statements apply one at a time in arrival order (the engine is
// single-threaded and every statement sees the previous commit). Errors come back as typed SvcErrors.
import type { Engine } from '../engine/engine.js';
import { executeWrite } from '../engine/write-executor.js';
import type { ImportCommitRequest, ImportCommitResult, WriteResult } from '../engine/writer-client.js';
import { SvcError } from '../core/errors.js';

export class WriterService {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly engine: Engine) {}

  private enqueue<T>(work: () => T): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  executeWrite(sql: string, timeoutMs: number): Promise<WriteResult> {
    return this.enqueue(() => executeWrite(this.engine, sql, { timeoutMs }));
  }

  importCommit(_request: ImportCommitRequest): Promise<ImportCommitResult> {
    return Promise.reject(new SvcError('SVC_IMPORT_FAILED', 'import is not available yet', 501));
  }

  importAbort(_segmentDir: string): Promise<void> {
    return Promise.resolve();
  }

  /** Resolves when every queued statement has finished (used by shutdown). */
  idle(): Promise<void> {
    return this.tail.then(() => undefined, () => undefined);
  }
}
