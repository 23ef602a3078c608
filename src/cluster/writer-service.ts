// Primary side of writes: one queue, so statements apply one at a time in arrival order (the engine is
// single-threaded and every statement sees the previous commit). Errors come back as typed SvcErrors.
import type { Engine } from '../engine/engine.js';
import { executeWrite } from '../engine/write-executor.js';
import type { ImportCommitRequest, ImportCommitResult, WriteResult } from '../engine/writer-client.js';
import { commitImport } from '../engine/import-commit.js';
import { resolve, sep } from 'node:path';
import { stagingRoot } from '../storage/staging-segment.js';
import { SvcError, asLimitError, asStorageError } from '../core/errors.js';

export class WriterService {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly engine: Engine) {}

  private enqueue<T>(work: () => T): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  executeWrite(sql: string, timeoutMs: number): Promise<WriteResult> {
    return this.enqueue(() => executeWrite(this.engine, sql, { timeoutMs })).catch((error: unknown) => Promise.reject(asLimitError(asStorageError(error))));
  }

  /** Segment paths arrive over IPC: only directories under db/.staging/ are ever read or deleted. */
  private checkSegmentDir(segmentDir: string): void {
    if (!resolve(segmentDir).startsWith(stagingRoot(this.engine.dbDir) + sep)) throw new SvcError('SVC_IMPORT_FAILED', 'invalid staging segment path', 400);
  }

  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult> {
    try {
      this.checkSegmentDir(request.segmentDir);
    } catch (error) {
      return Promise.reject(error);
    }
    const run = this.tail.then(() => commitImport(this.engine, request), () => commitImport(this.engine, request));
    this.tail = run.catch(() => undefined);
    return run.catch((error: unknown) => Promise.reject(asStorageError(error)));
  }

  importAbort(segmentDir: string): Promise<void> {
    this.checkSegmentDir(segmentDir);
    this.engine.options.files.removeTree(segmentDir);
    return Promise.resolve();
  }

  /** Resolves when every queued statement has finished (used by shutdown). */
  idle(): Promise<void> {
    return this.tail.then(() => undefined, () => undefined);
  }
}
