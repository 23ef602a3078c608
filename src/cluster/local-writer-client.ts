// Single-process mode: the WriterClient calls the writer service directly, through the same code path
// the IPC requests take in the primary.
import type { IlpCommitRequest, IlpCommitResult, ImportCommitRequest, ImportCommitResult, WriteRequestOptions, WriteResult, WriterClient } from '../engine/writer-client.js';
import type { WriterService } from './writer-service.js';
import type { Statement } from '../sql/compiler.js';

export class LocalWriterClient implements WriterClient {
  constructor(private readonly service: WriterService, private readonly timeoutMs: number) {}

  executeWrite(statement: Statement, options?: WriteRequestOptions): Promise<WriteResult> {
    return this.service.executeWrite(statement, options?.timeoutMs ?? this.timeoutMs);
  }

  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult> {
    return this.service.importCommit(request);
  }

  ilpCommit(request: IlpCommitRequest): Promise<IlpCommitResult> {
    return this.service.ilpCommit(request);
  }
}
