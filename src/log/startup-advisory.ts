// Process-level records: the start-up advisories (A) and the critical record (C) for every unhandled error.
// Unhandled errors arrive on the svc:error:unhandled diagnostics channel, which the process's top-level handlers
// publish to; only `origin: 'local'` events are logged, because a worker logs (and forwards) its own and the
// primary's republished copy would double it. A C record reaches the alert writer through its level.
import { unhandledErrorChannel } from '../core/diagnostics.js';
import { getLogger } from './logger.js';

/** The logger of start-up information (QuestDB calls it server-main too). */
export const SERVER_MAIN_LOGGER = 'server-main';

/** One A record per line: version, root, listening addresses, effective configuration (secrets already masked). */
export function logStartupAdvisory(lines: readonly string[], loggerName: string = SERVER_MAIN_LOGGER): void {
  const log = getLogger(loggerName);
  for (const line of lines) log.advisory(line);
}

export const UNHANDLED_ERROR_LOGGER = 'unhandled-error';

/** Logs `error` as a C record naming `source` (the top-level handler or component that caught it). */
export function logUnhandledError(source: string, error: unknown): void {
  getLogger(UNHANDLED_ERROR_LOGGER).critical(`unhandled error [source=${source}]`, error);
}

/** Turns local svc:error:unhandled events into C records; returns the unsubscribe function. */
export function subscribeUnhandledErrors(): () => void {
  return unhandledErrorChannel.subscribe((event) => {
    if (event.origin === 'local') logUnhandledError(event.source, event.error);
  });
}
