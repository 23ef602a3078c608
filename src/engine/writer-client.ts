// The WriterClient contract: how HTTP code asks the primary to change data or structure. Plain data only,
// so the same interface works in-process (single-process mode) and over IPC (workers).
import type { ColumnType } from '../types/column-type.js';
import type { StagedChunkRef } from '../storage/staged-chunks.js';
import type { Statement } from '../sql/compiler.js';

export type WriteResult =
  | { readonly kind: 'ddl' }
  | { readonly kind: 'insert'; readonly rows: number }
  | { readonly kind: 'update'; readonly rows: number }
  /** ALTER SERVICE ACCOUNT ... CREATE TOKEN: the token text, returned this once and never stored. */
  | { readonly kind: 'token'; readonly account: string; readonly token: string; readonly expiresAtMs: number };

export interface ImportCommitRequest {
  /** Directory of the finished staging segment. */
  readonly segmentDir: string;
  readonly table: string;
  readonly create: boolean;
  readonly overwrite: boolean;
  readonly partitionBy: string;
  readonly timestampColumn?: string;
}

export interface ImportCommitResult {
  readonly rowsCommitted: number;
  readonly created: boolean;
  /** Rows left out at commit because their designated timestamp was null or before 1970. */
  readonly rowsDropped: number;
}

/** The rows one ILP request wrote to one table: the chunk's columns are the designated timestamp (when named), then `columns`. */
export interface IlpTableBatch {
  readonly table: string;
  /** The designated timestamp the rows carry (the chunk's first column); absent for a table without one. */
  readonly timestampColumn?: string;
  /** The type the designated timestamp values have (ns for a TIMESTAMP_NS table or one created as such). */
  readonly timestampType?: 'TIMESTAMP' | 'TIMESTAMP_NS';
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[];
  readonly chunk: StagedChunkRef;
}

export interface IlpCommitRequest {
  /**
   * The staged-chunks file under db/.staging/ holding every table's rows in its first `stagedBytes` bytes. The
   * worker owns it (ilp/staged-file-pool.ts): the primary only reads it, before it answers.
   */
  readonly stagedFile: string;
  readonly stagedBytes: number;
  readonly tables: readonly IlpTableBatch[];
  /** Partitioning of the tables this request creates (line.default.partition.by). */
  readonly partitionBy: string;
  /** The first designated timestamp of each table with one: the primary orders commits by them. */
  readonly starts?: readonly IlpTableStart[];
  /** The id of this request's announcement (ilpAnnounce), when it made one. */
  readonly announceId?: number;
  /**
   * Set on a TCP unit committed by its commit tick (ilp/commit-tick.ts): that tick's wall-clock ms. The primary
   * holds such a unit briefly so the units every connection committed at the same tick merge in one commit.
   */
  readonly tick?: number;
  /** Set on every TCP unit (a tick's or not): what the primary may hold with a tick's group. */
  readonly tcp?: boolean;
}

/** The first designated timestamp a request parsed for a table, in µs (floored from ns). */
export interface IlpTableStart {
  readonly table: string;
  readonly firstMicros: number;
}

/** A long request's first timestamps, sent once its first lines are parsed; `id` is unique in the process. */
export interface IlpAnnouncement {
  readonly id: number;
  readonly starts: readonly IlpTableStart[];
}

export interface IlpCommitResult {
  readonly rowsCommitted: number;
  readonly tablesCreated: number;
}

/** Per-statement options of executeWrite (the PostgreSQL endpoint's statement_timeout). */
export interface WriteRequestOptions {
  /** Overrides the client's default timeout for this statement. */
  readonly timeoutMs?: number;
}

export interface WriterClient {
  /**
   * Executes a write statement (DDL, INSERT, UPDATE, service accounts, snapshots) parsed by the caller, its
   * parameters filled in; the primary dispatches on its kind and never sees the text.
   */
  executeWrite(statement: Statement, options?: WriteRequestOptions): Promise<WriteResult>;
  /** Merges a staging segment into a table and commits it. */
  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult>;
  /** Commits the rows of one ILP request, all of its tables or none (auto-creating tables and columns first). */
  ilpCommit(request: IlpCommitRequest): Promise<IlpCommitResult>;
  /**
   * Tells the primary a request is being parsed and where its rows start, so that requests of the same tables
   * starting later wait for it briefly and commits land in time order. No answer; its commit (announceId) or
   * ilpWithdraw ends it.
   */
  ilpAnnounce(announcement: IlpAnnouncement): void;
  /** The announced request will not commit (bad line, client gone, nothing staged). */
  ilpWithdraw(id: number): void;
}
