// Runs one HTTP statement inside a cold read session: chunk waits end at the statement's timeout or when the
// client goes away, and every lease the statement took is released when it ends, however it ends.
import type { ServerResponse } from 'node:http';
import { createColdReadSession, runWithColdReadSession } from '../sql/compiler.js';

export function runWithColdReads<T>(res: ServerResponse, timeoutMs: number, body: () => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const onClose = (): void => { if (!res.writableFinished) gone.abort(new Error('the client went away')); };
  res.on('close', onClose);
  const deadline = AbortSignal.timeout(timeoutMs);
  const session = createColdReadSession(AbortSignal.any([gone.signal, deadline]));
  return runWithColdReadSession(session, body).finally(() => res.off('close', onClose));
}
