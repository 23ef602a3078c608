// When a TCP connection's rows are committed: at the next multiple of the commit interval on the wall clock,
// the same instant for every connection of every worker. Connections that each kept their own timer committed
// at scattered moments, one commit apiece; senders that stamp rows with one clock overlap each other in time,
// so each of those commits was an out-of-order merge, and each merge copies the older rows of the partition it
// lands in. Committing on a shared tick brings the connections' rows to the primary together, where one group
// commit merges them once (cluster/tick-gather.ts holds the group until every worker's units are in).
import { assert } from '../core/assert.js';

/** Milliseconds from `nowMs` to the next multiple of `intervalMs` (1..intervalMs: never 0, never past the interval). */
export function msUntilCommitTick(nowMs: number, intervalMs: number): number {
  assert(Number.isInteger(intervalMs) && intervalMs >= 1, 'the commit interval is a whole number of ms (checked by the config)');
  return intervalMs - (Math.floor(nowMs) % intervalMs);
}
