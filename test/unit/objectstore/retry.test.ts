// withRetries: transient failures are retried with back-off, refusals are not, a request that never answers
// is cut off by the per-request timeout, and the caller's signal ends it at once.
import test from 'ava';
import { withRetries, type Classified } from '../../../src/objectstore/retry.js';
import { ObjectStoreError } from '../../../src/objectstore/object-store-error.js';
import { resolveStoreOptions } from '../../../src/objectstore/store-options.js';
import { objectStoreRetryChannel } from '../../../src/core/diagnostics.js';

const site = { store: 's3 endpoint=http://store bucket=b root=r', operation: 'get', key: 'k/1' };
const options = resolveStoreOptions({ attemptsMax: 4, backoffBaseMs: 10, backoffMaxMs: 20, requestTimeoutMs: 200 });

class StatusError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

function classify(error: unknown): Classified {
  const status = error instanceof StatusError ? error.status : 0;
  return { kind: status >= 500 ? 'transient' : status === 404 ? 'not-found' : 'rejected', cause: error instanceof Error ? error.message : String(error) };
}

test('transient failures are retried until one attempt succeeds, each retry published', async (t) => {
  const events: number[] = [];
  // Other tests in this file publish too: count only this one's key.
  const unsubscribe = objectStoreRetryChannel.subscribe((event) => { if (event.key === 'k/published') events.push(event.attemptIndex); });
  t.teardown(unsubscribe);
  let calls = 0;
  const value = await withRetries({ ...site, key: 'k/published' }, options, undefined, async () => {
    calls++;
    if (calls < 3) throw new StatusError(503);
    return 'body';
  }, classify);
  t.is(value, 'body');
  t.is(calls, 3);
  t.deepEqual(events, [0, 1]);
});

test('a 4xx is not retried and a 404 is reason not-found; both name the store and key', async (t) => {
  let calls = 0;
  const refused = await t.throwsAsync(withRetries(site, options, undefined, async () => { calls++; throw new StatusError(403); }, classify), { instanceOf: ObjectStoreError });
  t.is(calls, 1);
  t.is(refused?.reason, 'rejected');
  t.is(refused?.message, `object store get failed: HTTP 403 [store=${site.store}, key=k/1]`);
  const missing = await t.throwsAsync(withRetries(site, options, undefined, async () => { throw new StatusError(404); }, classify), { instanceOf: ObjectStoreError });
  t.is(missing?.reason, 'not-found');
});

test('retries give up after attemptsMax with reason unavailable', async (t) => {
  let calls = 0;
  const error = await t.throwsAsync(withRetries(site, options, undefined, async () => { calls++; throw new StatusError(500); }, classify), { instanceOf: ObjectStoreError });
  t.is(calls, 4);
  t.is(error?.reason, 'unavailable');
  t.regex(error?.message ?? '', /after 4 attempts/);
});

test('a request that never answers times out per attempt; the call ends within its bound', async (t) => {
  const startedAt = performance.now();
  let calls = 0;
  const error = await t.throwsAsync(withRetries(site, options, undefined, () => { calls++; return new Promise<never>(() => undefined); }, classify), { instanceOf: ObjectStoreError });
  t.is(error?.reason, 'timeout');
  t.is(calls, 4);
  t.regex(error?.message ?? '', /no answer within 200 ms/);
  t.true(performance.now() - startedAt < options.attemptsMax * (options.requestTimeoutMs + options.backoffMaxMs) + 1_000);
});

test("the caller's signal ends a hanging request at once with reason aborted, and is never retried", async (t) => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30);
  let calls = 0;
  const error = await t.throwsAsync(withRetries(site, { ...options, requestTimeoutMs: 10_000 }, controller.signal, () => { calls++; return new Promise<never>(() => undefined); }, classify), { instanceOf: ObjectStoreError });
  t.is(error?.reason, 'aborted');
  t.is(calls, 1);
});
