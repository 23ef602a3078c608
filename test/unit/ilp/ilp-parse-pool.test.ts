// The ILP parse pool when a thread dies: the requests it was parsing fail with a 500-class internal error
// (never hang), requests on other threads go on, and the next request gets a new thread in the dead one's place.
import test from 'ava';
import { IlpParsePool } from '../../../src/ilp/ilp-parse-pool.js';
import { ThreadedIlpRequest } from '../../../src/ilp/threaded-ilp-request.js';
import type { IlpSessionSetup } from '../../../src/ilp/ilp-thread-messages.js';
import { SvcError } from '../../../src/core/errors.js';
import { ilpPieceBytes } from '../../../src/core/limits.js';

/**
 * A stand-in parse thread that answers like the real one (FromIlpThread messages), except that a piece whose
 * first byte is `!` makes it exit, as a crash would, with the piece unanswered. Plain JavaScript in a data: URL,
 * because a thread started from a test does not get the TypeScript loader.
 */
const DYING_THREAD_SOURCE = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (message) => {
  if (message.kind === 'piece') {
    if (message.bytes[0] === 0x21) process.exit(3);
    parentPort.postMessage({ kind: 'parsed', session: message.session, buffer: message.bytes.buffer }, [message.bytes.buffer]);
  }
  if (message.kind === 'finish') parentPort.postMessage({ kind: 'staged', session: message.session, request: undefined });
});`;
const DYING_THREAD = new URL(`data:text/javascript,${encodeURIComponent(DYING_THREAD_SOURCE)}`);
const SETUP: IlpSessionSetup = {
  dbDir: '/nonexistent', lineBytesMax: 65536, autoCreateTables: true, autoCreateColumns: true, partitionBy: 'DAY',
  nanosTimestamps: false, spillBytes: 1 << 20, precision: 'ns', expectedBytes: 0,
};

/** A body of one piece; its first byte decides whether the stand-in thread dies on it. */
function piece(first: string): Buffer {
  return Buffer.alloc(ilpPieceBytes, first);
}

test('a thread that dies fails its requests with an internal error and is replaced', async (t) => {
  const pool = new IlpParsePool(2, DYING_THREAD);
  t.teardown(() => pool.close());
  // Two open sessions: the pool puts them on different threads (the least busy one each time).
  const doomed = new ThreadedIlpRequest(pool, SETUP);
  const healthy = new ThreadedIlpRequest(pool, SETUP);
  await doomed.feed(piece('!'));
  const error = await t.throwsAsync(() => doomed.stage());
  t.true(error instanceof SvcError, String(error));
  t.is(error instanceof SvcError ? error.httpStatus : 0, 500);
  t.regex(error?.message ?? '', /ILP parse thread failed/);
  await healthy.feed(piece('a'));
  t.is(await healthy.stage(), undefined, 'the other thread still answers');
  for (let k = 0; k < 3; k++) {
    const next = new ThreadedIlpRequest(pool, SETUP);
    await next.feed(piece('a'));
    t.is(await next.stage(), undefined, `request ${k} after the death is served`);
  }
});

test('a request whose thread dies while it waits for room to send is released with the error', async (t) => {
  const pool = new IlpParsePool(1, DYING_THREAD);
  t.teardown(() => pool.close());
  const request = new ThreadedIlpRequest(pool, SETUP);
  // The first piece kills the thread; the request must not wait forever for it to be parsed.
  await request.feed(Buffer.concat([piece('!'), piece('a'), piece('a'), piece('a')]))
    .then(() => t.fail('feeding after the death must fail'), (error: unknown) => t.true(error instanceof SvcError));
  await t.throwsAsync(() => request.stage(), { instanceOf: SvcError });
});
