// Runs one store request with a per-attempt timeout and retries transient failures with exponential back-off
// and jitter. The caller classifies errors (only it knows its library's error shapes); this module owns timing.
// Invariant: a call returns or throws within attemptsMax × (requestTimeoutMs + backoffMaxMs); the caller's
// AbortSignal stops it at once (no retry after an abort).
import { setTimeout as sleep } from 'node:timers/promises';
import { ObjectStoreError, objectStoreError } from './object-store-error.js';
import type { StoreOptions } from './store-options.js';
import { objectStoreRetryChannel } from '../core/diagnostics.js';

export type FailureClass = 'transient' | 'not-found' | 'rejected' | 'unsupported' | 'changed';

export interface RequestSite {
  readonly store: string;
  readonly operation: string;
  readonly key: string;
}

export interface Classified {
  readonly kind: FailureClass;
  /** A short cause for the error text, free of credentials. */
  readonly cause: string;
}

export async function withRetries<T>(
  site: RequestSite, options: StoreOptions, callerSignal: AbortSignal | undefined,
  attempt: (signal: AbortSignal) => Promise<T>, classify: (error: unknown) => Classified,
): Promise<T> {
  let lastCause = '';
  let timedOut = false;
  for (let attemptIndex = 0; attemptIndex < options.attemptsMax; attemptIndex++) {
    throwIfCallerAborted(site, callerSignal);
    // A referenced timer, unlike AbortSignal.timeout's: a process waiting only on this request stays alive.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), options.requestTimeoutMs);
    const signal = callerSignal === undefined ? timeout.signal : AbortSignal.any([callerSignal, timeout.signal]);
    try {
      return await settleOrAbort(attempt(signal), signal);
    } catch (error) {
      throwIfCallerAborted(site, callerSignal);
      if (error instanceof ObjectStoreError) throw error;
      timedOut = timeout.signal.aborted;
      const classified: Classified = timedOut ? { kind: 'transient', cause: `no answer within ${options.requestTimeoutMs} ms` } : classify(error);
      if (classified.kind !== 'transient') throw objectStoreError(classified.kind, site.operation, site.store, site.key, classified.cause);
      lastCause = classified.cause;
    } finally {
      clearTimeout(timer);
    }
    if (attemptIndex + 1 < options.attemptsMax) {
      const delayMs = backoffDelayMs(attemptIndex, options);
      objectStoreRetryChannel.publish({ store: site.store, operation: site.operation, key: site.key, attemptIndex, delayMs, cause: lastCause });
      await sleep(delayMs, undefined, callerSignal === undefined ? undefined : { signal: callerSignal }).catch(() => undefined);
    }
  }
  const reason = timedOut ? 'timeout' : 'unavailable';
  throw objectStoreError(reason, site.operation, site.store, site.key, `${lastCause} (after ${options.attemptsMax} attempts)`);
}

/** The attempt's result, or a rejection as soon as `signal` fires: a request that ignores its signal cannot hang us. */
function settleOrAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted before the request started'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('request aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error: unknown) => { signal.removeEventListener('abort', onAbort); reject(error); },
    );
  });
}

function throwIfCallerAborted(site: RequestSite, signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw objectStoreError('aborted', site.operation, site.store, site.key, 'cancelled by the caller');
}

/** Full-jitter exponential back-off (AWS Architecture Blog, "Exponential Backoff And Jitter"), at least 1/2 of the step. */
export function backoffDelayMs(attemptIndex: number, options: StoreOptions): number {
  const step = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** attemptIndex);
  return Math.round(step / 2 + Math.random() * step / 2);
}

const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** Network-level failures worth retrying, by errno code anywhere on the error's cause chain. */
export function isTransientNetworkError(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_ERRNO.has(code)) return code;
    current = current.cause;
  }
  return null;
}
