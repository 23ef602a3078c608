// Messages between a worker process's request threads and its ILP parse threads. A session is one request
// body: its options (plain data; the thread opens its own catalog over db/), its bytes in order, in pieces
// cut anywhere (the thread's parser carries a line cut by a piece end into the next piece, as it does across
// network chunks), then `finish`, answered by the staged commit or the first error. The rows never cross
// threads: the thread stages them in db/.staging and the request thread sends only their description.
import { errorFromPayload, errorToPayload, type ErrorCode, type ErrorPayload } from '../core/errors.js';
import type { IlpCommitRequest } from '../engine/writer-client.js';
import { IlpError } from './ilp-errors.js';
import type { TimestampUnit } from './ilp-numbers.js';

/** IlpIngestOptions without the catalog, which a thread cannot share with the request's thread. */
export interface IlpSessionSetup {
  readonly dbDir: string;
  readonly lineBytesMax: number;
  readonly autoCreateTables: boolean;
  readonly autoCreateColumns: boolean;
  readonly partitionBy: string;
  readonly nanosTimestamps: boolean;
  readonly spillBytes: number;
  readonly precision: TimestampUnit;
  /** The body's Content-Length (0 when unknown), which bounds the rows the builders make room for. */
  readonly expectedBytes: number;
}

export type ToIlpThread =
  | { readonly kind: 'begin'; readonly session: number; readonly setup: IlpSessionSetup }
  | { readonly kind: 'piece'; readonly session: number; readonly bytes: Uint8Array }
  | { readonly kind: 'finish'; readonly session: number }
  /** The request ended without a commit (a failure, or the client left): the thread drops what it staged. */
  | { readonly kind: 'discard'; readonly session: number };

export type FromIlpThread =
  /** A piece is parsed; its buffer comes back for the next piece. */
  | { readonly kind: 'parsed'; readonly session: number; readonly buffer: ArrayBuffer }
  /** The body's rows are staged (undefined: the body held none). */
  | { readonly kind: 'staged'; readonly session: number; readonly request: IlpCommitRequest | undefined }
  /** The first error of the session; later pieces of it are ignored. */
  | { readonly kind: 'failed'; readonly session: number; readonly error: IlpErrorPayload };

/** An ErrorPayload that keeps an IlpError's line number. */
export interface IlpErrorPayload {
  readonly payload: ErrorPayload;
  /** The IlpError's 1-based line; undefined for any other error. */
  readonly line: number | undefined;
}

export function ilpErrorToPayload(error: unknown): IlpErrorPayload {
  return { payload: errorToPayload(error), line: error instanceof IlpError ? error.line : undefined };
}

export function ilpErrorFromPayload(error: IlpErrorPayload): Error {
  const { payload, line } = error;
  if (line === undefined) return errorFromPayload(payload);
  const code: ErrorCode = payload.code;
  return new IlpError(code, payload.message, line, payload.httpStatus);
}
