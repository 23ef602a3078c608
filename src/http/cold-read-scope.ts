// Runs one HTTP statement inside a cold read session: chunk waits end at the statement's timeout or when the
// client goes away, and every lease the statement took is released when it ends, however it ends.
import type { ServerResponse } from 'node:http';
import { createColdReadSession, runWithColdReadSession } from '../sql/compiler.js';
import { timerDelayMsMax } from '../core/limits.js';

export function runWithColdReads<T>(res: ServerResponse, timeoutMs: number, body: () => Promise<T>): Promise<T> {
  const startedMs = Date.now();
  // One controller and one cleared timer per statement: AbortSignal.timeout/any would keep every statement's
  // signal alive until its timer fired, which grows a busy worker's memory by the statement rate × timeout.
  // They are made only when the statement first waits for a cold read: most statements never do (an INSERT,
  // a query of hot partitions), and making them took about a tenth of a worker's time per single-row INSERT.
  let stop: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onClose = (): void => { if (!res.writableFinished) stop?.abort(new Error('the client went away')); };
  const signalOf = (): AbortSignal => {
    if (stop !== undefined) return stop.signal;
    const controller = new AbortController();
    stop = controller;
    if (res.destroyed && !res.writableFinished) controller.abort(new Error('the client went away'));
    res.on('close', onClose);
    const remainingMs = Math.max(0, timeoutMs - (Date.now() - startedMs));
    timer = setTimeout(() => controller.abort(new Error(`the statement timed out after ${timeoutMs} ms`)), Math.min(remainingMs, timerDelayMsMax));
    return controller.signal;
  };
  const session = createColdReadSession(signalOf);
  return runWithColdReadSession(session, body).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
    if (stop !== undefined) res.off('close', onClose);
  });
}
