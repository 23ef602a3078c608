// The ObjectStore contract shared by cold storage and replication: flat keys relative to the store's root,
// whole-object writes that are atomic (a reader sees the old object, the new one or none, never a part),
// whole and ranged reads, listing by prefix in key order, and deletion of many keys. Every call takes an
// optional AbortSignal; implementations bound each request by their own timeout and retry transient failures.
// Errors are ObjectStoreError with a reason; a missing key is reason 'not-found' (head answers null instead).

export interface ObjectInfo {
  /** Key relative to the store's root. */
  readonly key: string;
  readonly sizeBytes: number;
  /** Store-assigned version tag (S3 ETag, fs mtime+size); null when the store gives none. */
  readonly etag: string | null;
  readonly lastModifiedMs: number;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
}

export interface PutOptions extends RequestOptions {
  /**
   * Hex SHA-256 of the whole body, when the caller computed it anyway: an S3 store signs it instead of
   * hashing the body again. It must be the body's; a wrong one fails the request (or goes unchecked).
   */
  readonly bodySha256Hex?: string;
}

export interface RangeOptions extends RequestOptions {
  /** Read only this version of the object (its ETag); another version fails with reason 'changed'. */
  readonly ifMatch?: string;
}

export interface ListOptions extends RequestOptions {
  /** Only keys sorting strictly after this one (S3 StartAfter); the full key, prefix included. */
  readonly startAfter?: string;
  /** Stop after this many keys; at most LIST_KEYS_MAX. */
  readonly keysMax?: number;
}

/** Outcome of a create-if-absent write. 'unsupported': the store refused the condition (Swift's 501); nothing was written. */
export type PutIfAbsentOutcome = 'created' | 'exists' | 'unsupported';

/** Listing bound: a caller wanting more pages passes startAfter with the last key it got. */
export const LIST_KEYS_MAX = 100_000;

export interface ObjectStore {
  /** Kind and location without credentials, e.g. `s3 endpoint=http://127.0.0.1:9900 bucket=b root=svc`. */
  readonly description: string;
  /** Writes the whole buffer as the object `key`, replacing any previous one. */
  put(key: string, body: Uint8Array, options?: PutOptions): Promise<void>;
  /** Writes only if `key` does not exist, atomically where the store can (fs link, S3 If-None-Match). */
  putIfAbsent(key: string, body: Uint8Array, options?: RequestOptions): Promise<PutIfAbsentOutcome>;
  /** Streams a local file to `key`; files at or above the store's multipart threshold go up in parts. */
  putFile(key: string, path: string, options?: RequestOptions): Promise<void>;
  get(key: string, options?: RequestOptions): Promise<Buffer>;
  /**
   * Bytes [offset, offset + lengthBytes) clamped to the object's end; an offset past the end is 'rejected'. With
   * `ifMatch`, the bytes come from that version only (S3 If-Match; fs compares its mtime-size tag).
   */
  getRange(key: string, offset: number, lengthBytes: number, options?: RangeOptions): Promise<Buffer>;
  /** Size and tag of `key`, or null when it does not exist. */
  head(key: string, options?: RequestOptions): Promise<ObjectInfo | null>;
  /** Objects whose key starts with `prefix`, in ascending key order. */
  list(prefix: string, options?: ListOptions): Promise<ObjectInfo[]>;
  /** Deletes every key; missing keys are not an error. */
  delete(keys: readonly string[], options?: RequestOptions): Promise<void>;
  /** Releases connections; further calls fail. */
  close(): Promise<void>;
}
