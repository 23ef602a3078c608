// Single-process mode: the WriterClient calls the writer service directly, through the same code path
// the IPC requests take in the primary.
import type { IlpAnnouncement, IlpCommitRequest, IlpCommitResult, ImportCommitRequest, ImportCommitResult, WriteRequestOptions, WriteResult, WriterClient } from '../engine/writer-client.js';
import type { WriterService } from './writer-service.js';
import type { Statement } from '../sql/compiler.js';

/** Whose ILP announcements these are, for the order gate (workers are named by their slot). */
const LOCAL_OWNER = 'local';

export class LocalWriterClient implements WriterClient {
  constructor(private readonly service: WriterService, private readonly timeoutMs: number) {}

  executeWrite(statement: Statement, options?: WriteRequestOptions): Promise<WriteResult> {
    return this.service.executeWrite(statement, options?.timeoutMs ?? this.timeoutMs);
  }

  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult> {
    return this.service.importCommit(request);
  }

  ilpCommit(request: IlpCommitRequest): Promise<IlpCommitResult> {
    return this.service.ilpCommit(request, LOCAL_OWNER);
  }

  ilpAnnounce(announcement: IlpAnnouncement): void {
    this.service.ilpOrder.announce(LOCAL_OWNER, announcement.id, announcement.starts);
  }

  ilpWithdraw(id: number): void {
    this.service.ilpOrder.withdraw(LOCAL_OWNER, id);
  }
}
