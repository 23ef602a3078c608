// The one list of error codes and the typed errors that carry them.
// Every error the service raises extends SvcError: a stable code, an HTTP status, and (for SQL) a position.

export const ERROR_CODES = {
  SVC_SQL_SYNTAX: 'SQL text could not be parsed',
  SVC_SQL_SEMANTIC: 'SQL names or types do not resolve (unknown table, column, function; type mismatch)',
  SVC_SQL_RUNTIME: 'a statement failed while running (inconvertible value, designated timestamp rules)',
  SVC_SQL_TIMEOUT: 'a statement ran past its timeout and was cancelled',
  SVC_SQL_CANCELLED: 'a statement was cancelled because its client went away',
  SVC_SQL_LIMIT: 'a statement exceeded a resource limit (memory, rows, text length)',
  SVC_EMPTY_QUERY: 'the query text is empty',
  SVC_BAD_REQUEST: 'a request parameter is missing or malformed',
  SVC_NOT_FOUND: 'no such path',
  SVC_METHOD_NOT_ALLOWED: 'the HTTP method is not supported on this path',
  SVC_AUTH_REQUIRED: 'credentials are missing or wrong',
  SVC_FORBIDDEN: 'the statement is not permitted (read-only mode)',
  SVC_OVERLOADED: 'too many concurrent requests',
  SVC_PAYLOAD_TOO_LARGE: 'a request body is larger than http.request.body.limit',
  SVC_IMPORT_FAILED: 'an import could not be completed',
  SVC_IMPORT_BAD_SCHEMA: 'the schema part of an import is malformed',
  SVC_EXPORT_BAD_PARAMETER: 'an export parameter has an invalid value',
  SVC_CONFIG: 'a configuration value is malformed',
  SVC_STORAGE: 'a storage operation failed (disk full, fsync, rename)',
  SVC_IPC: 'the primary process did not answer a worker request',
  SVC_ROOT_LOCKED: 'another svc process holds the root directory (lock file svc.lock)',
  SVC_START: 'a worker process exited before it was ready (for example, its port was taken); the start fails',
  SVC_SNAPSHOT: 'a SNAPSHOT or CHECKPOINT statement is out of sequence, or its snapshot expired before COMPLETE',
  SVC_ILP_INVALID: 'an ILP line could not be parsed or does not fit the table (bad syntax, type conflict, bad name)',
  SVC_ILP_NOT_SUPPORTED: 'an ILP request asks for something svc does not do (precision, Content-Encoding, field type)',
  SVC_ILP_TOO_LARGE: 'an ILP line is longer than its transport\'s line size limit',
  SVC_PG_PROTOCOL: 'a PostgreSQL wire protocol message is malformed, too large or out of order',
  SVC_OBJECT_STORE: 'an object-store request failed (store unreachable after retries, refused, missing object, timed out)',
  SVC_COLD_PARTITION: 'a statement needs the local data of a partition that lives only in the object store (writes into it are refused)',
  SVC_OBJECT_STORE_WRITER: 'another instance manages the object-store root, or this instance lost the writer lease',
  SVC_COLD_READ: 'a query could not read a cold partition from the object store (store unreachable, object changed or missing, not configured)',
  SVC_COLD_BACKPRESSURE: 'too many cold-partition reads are pending (cold.storage.pending.batches.max); retry later',
  SVC_INTERNAL: 'a bug: an invariant did not hold',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  constructor(code: ErrorCode, message: string, httpStatus: number) {
    super(message);
    this.name = 'SvcError';
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

/** A SQL error at a 0-based character offset into the statement text. */
export class SqlError extends SvcError {
  readonly position: number;
  constructor(message: string, position: number, code: ErrorCode = 'SVC_SQL_SYNTAX', httpStatus = 400) {
    super(code, message, httpStatus);
    this.name = 'SqlError';
    this.position = position < 0 ? 0 : position;
  }
}

export function sqlSemanticError(message: string, position: number): SqlError {
  return new SqlError(message, position, 'SVC_SQL_SEMANTIC');
}

/** `table does not exist [table=<name as written>]` at the name's position, QuestDB's text wherever a table is missing. */
export function tableDoesNotExistError(name: string, position: number): SqlError {
  return sqlSemanticError(`table does not exist [table=${name}]`, position);
}

export function sqlRuntimeError(message: string, position: number): SqlError {
  return new SqlError(message, position, 'SVC_SQL_RUNTIME');
}

export class ImportError extends SvcError {
  constructor(message: string, code: ErrorCode = 'SVC_IMPORT_FAILED', httpStatus = 400) {
    super(code, message, httpStatus);
    this.name = 'ImportError';
  }
}

export class ConfigError extends SvcError {
  readonly key: string;
  constructor(key: string, message: string) {
    super('SVC_CONFIG', `${message} [key=${key}]`, 500);
    this.name = 'ConfigError';
    this.key = key;
  }
}

export class StorageError extends SvcError {
  constructor(message: string) {
    super('SVC_STORAGE', message, 500);
    this.name = 'StorageError';
  }
}

/**
 * A partition moved off local disk (DROP LOCAL) is read-only: a write, UPDATE or conversion that needs its rows
 * is refused rather than skipped, so no row is silently lost.
 */
export function coldPartitionWriteError(table: string, partition: string): SvcError {
  return new SvcError('SVC_COLD_PARTITION', `cannot write into a cold partition: its data lives only in the object store and it is read-only [table=${table}, partition=${partition}]`, 400);
}

/** A failed file-system call (an errno error) becomes a StorageError naming the cause; anything else is returned as is. */
export function asStorageError(error: unknown): unknown {
  if (error instanceof SvcError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  return new StorageError(`storage failure, nothing was committed [${error.message}]`);
}

/** RangeErrors V8 raises when a structure outgrows what it can hold: a query too big, not a bug. */
const RESOURCE_EXHAUSTION = /^(?:Map maximum size exceeded|Set maximum size exceeded|Array buffer allocation failed|Invalid string length)$/;

/** A statement that outgrew a JavaScript structure (a GROUP BY with 20M keys) becomes SVC_SQL_LIMIT; anything else is returned as is. */
export function asLimitError(error: unknown): unknown {
  if (!(error instanceof RangeError) || !RESOURCE_EXHAUSTION.test(error.message)) return error;
  return new SqlError(`query exceeds a memory limit [${error.message}]`, 0, 'SVC_SQL_LIMIT');
}

export class InternalError extends SvcError {
  constructor(message: string) {
    super('SVC_INTERNAL', message, 500);
    this.name = 'InternalError';
  }
}

/** Plain-data form of an error, for IPC between processes. */
export interface ErrorPayload {
  readonly name: string;
  readonly code: ErrorCode;
  readonly message: string;
  readonly httpStatus: number;
  readonly position?: number;
}

export function errorToPayload(error: unknown): ErrorPayload {
  if (error instanceof SqlError) {
    return { name: error.name, code: error.code, message: error.message, httpStatus: error.httpStatus, position: error.position };
  }
  if (error instanceof SvcError) {
    return { name: error.name, code: error.code, message: error.message, httpStatus: error.httpStatus };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { name: 'InternalError', code: 'SVC_INTERNAL', message, httpStatus: 500 };
}

export function errorFromPayload(payload: ErrorPayload): SvcError {
  if (payload.position !== undefined) {
    return new SqlError(payload.message, payload.position, payload.code, payload.httpStatus);
  }
  if (payload.code === 'SVC_INTERNAL') return new InternalError(payload.message);
  return new SvcError(payload.code, payload.message, payload.httpStatus);
}
