// Runs one HTTP statement inside a cold read session: chunk waits end at the statement's timeout or when the
// client goes away, and every lease the statement took is released when it ends, however it ends.
import type { ServerResponse } from 'node:http';
import { createColdReadSession, runWithColdReadSession } from '../sql/compiler.js';

/** setTimeout's largest delay; a longer Statement-Timeout (the header allows any number) waits this long. */
const TIMER_DELAY_MS_MAX = 2_147_483_647;

export function runWithColdReads<T>(res: ServerResponse, timeoutMs: number, body: () => Promise<T>): Promise<T> {
  // One controller and one cleared timer per statement: AbortSignal.timeout/any would keep every statement's
  // signal alive until its timer fired, which grows a busy worker's memory by the statement rate × timeout.
  const stop = new AbortController();
  const onClose = (): void => { if (!res.writableFinished) stop.abort(new Error('the client went away')); };
  res.on('close', onClose);
  const timer = setTimeout(() => stop.abort(new Error(`the statement timed out after ${timeoutMs} ms`)), Math.min(timeoutMs, TIMER_DELAY_MS_MAX));
  const session = createColdReadSession(stop.signal);
  return runWithColdReadSession(session, body).finally(() => {
    clearTimeout(timer);
    res.off('close', onClose);
  });
}
