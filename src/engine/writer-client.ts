// The WriterClient contract: how HTTP code asks the primary to change data or structure. Plain data only,
// so the same interface works in-process (single-process mode) and over IPC (workers).

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

export interface WriterClient {
  /** Executes a write statement (DDL, INSERT, UPDATE) given as text; the primary re-parses and binds it. */
  executeWrite(sql: string): Promise<WriteResult>;
  /** Merges a staging segment into a table and commits it. */
  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult>;
  /** Discards a staging segment. */
  importAbort(segmentDir: string): Promise<void>;
}
