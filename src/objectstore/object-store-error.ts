// Errors of the object-store layer. Every message names the store (its description: kind, endpoint, bucket,
// root; never credentials) and the key involved, so an operator can tell which store and object failed.
// `reason` lets callers branch without parsing text: a missing object is not a failure of the store.
import { SvcError } from '../core/errors.js';

export type ObjectStoreFailure =
  | 'not-found'     // the key does not exist (GET, ranged GET of a missing object)
  | 'unavailable'   // transient failures (5xx, connection refused/reset, timeouts) outlasted the retries
  | 'timeout'       // one request ran past the per-request timeout and retries were exhausted
  | 'rejected'      // the store refused the request (4xx other than 404: credentials, bad range, bad name)
  | 'aborted'       // the caller's AbortSignal fired
  | 'unsupported'   // the store does not implement the operation (501: conditional PUT on Swift)
  | 'changed';      // the object is not the version the caller pinned (If-Match failed: 412)

export class ObjectStoreError extends SvcError {
  readonly reason: ObjectStoreFailure;
  constructor(reason: ObjectStoreFailure, message: string) {
    super('SVC_OBJECT_STORE', message, reason === 'not-found' ? 404 : 503);
    this.name = 'ObjectStoreError';
    this.reason = reason;
  }
}

/** `<operation> failed [store=<description>, key=<key>]: <cause>`, the one shape of every store error text. */
export function objectStoreError(reason: ObjectStoreFailure, operation: string, store: string, key: string, cause: string): ObjectStoreError {
  return new ObjectStoreError(reason, `object store ${operation} failed: ${cause} [store=${store}, key=${key}]`);
}

export class WriterLeaseError extends SvcError {
  constructor(message: string) {
    super('SVC_OBJECT_STORE_WRITER', message, 409);
    this.name = 'WriterLeaseError';
  }
}

/**
 * Decodes a control object the layer wrote as JSON (a manifest, a writer lease): text that is not JSON, or JSON
 * that `narrow` does not accept, is a malformed object of the store, named with its key.
 */
export function decodeStoredJson<T>(bytes: Buffer, narrow: (value: unknown) => T | null, what: string, key: string, store: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = null;
  }
  const value = narrow(parsed);
  if (value === null) throw new ObjectStoreError('rejected', `${what} object is malformed [store=${store}, key=${key}]`);
  return value;
}
