// Tunables shared by both store implementations, with their units in the names; defaults suit a store on a
// LAN or in the same region. The per-request timeout bounds every single request (one part of a multipart
// upload is one request), so with attemptsMax the worst-case time of one call is bounded and known.

export interface StoreOptions {
  /** Time one request may take before it is aborted and counted as a transient failure. */
  readonly requestTimeoutMs: number;
  /** Attempts per request, the first included; transient failures only (5xx, timeouts, connection errors). */
  readonly attemptsMax: number;
  /** First back-off delay; doubles per attempt with jitter, capped at backoffMaxMs. */
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  /** putFile uses multipart at and above this size (S3); parts are partSizeBytes (S3 requires ≥ 5 MiB). */
  readonly multipartThresholdBytes: number;
  readonly partSizeBytes: number;
  /** Parts of one multipart upload sent at once. */
  readonly partsInFlightMax: number;
}

export const DEFAULT_STORE_OPTIONS: StoreOptions = {
  requestTimeoutMs: 30_000,
  attemptsMax: 4,
  backoffBaseMs: 200,
  backoffMaxMs: 5_000,
  multipartThresholdBytes: 64 * 1024 * 1024,
  partSizeBytes: 16 * 1024 * 1024,
  partsInFlightMax: 4,
};

export const PART_SIZE_MIN_BYTES = 5 * 1024 * 1024;

export function resolveStoreOptions(overrides: Partial<StoreOptions> = {}): StoreOptions {
  const options = { ...DEFAULT_STORE_OPTIONS, ...overrides };
  if (options.partSizeBytes < PART_SIZE_MIN_BYTES) throw new RangeError(`partSizeBytes must be at least ${PART_SIZE_MIN_BYTES}`);
  if (options.attemptsMax < 1 || options.requestTimeoutMs < 1 || options.partsInFlightMax < 1) throw new RangeError('attemptsMax, requestTimeoutMs and partsInFlightMax must be positive');
  return options;
}
