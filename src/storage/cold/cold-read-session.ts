// One statement's cold reads: the chunk leases it holds (released together when the statement ends), the
// scans its snapshots registered (what it will read), and its memory budget. Scans are synchronous, so a
// statement fetches before it reads: `withColdFaults` runs a synchronous step (compile, open + first batch); a
// read of a chunk not leased throws ColdChunksNeeded, the chunks are fetched, and the step runs again.
// The session travels with the statement's async work through AsyncLocalStorage, so the storage layer finds
// it without every compile and open call passing it down.
import { AsyncLocalStorage } from 'node:async_hooks';
import { SqlError } from '../../core/errors.js';
import type { ByteRange } from './coalesce-ranges.js';
import type { ColdChunkCoordinator, ColdLease } from './chunk-coordinator.js';
import { ColdReadError, describeColdObject, type ColdObject } from './cold-read-errors.js';

export interface ColdNeed {
  readonly object: ColdObject;
  readonly ranges: readonly ByteRange[];
}

/** A read met a chunk its statement does not hold; the session fetches `needs` and runs the step again. */
export class ColdChunksNeeded extends ColdReadError {
  constructor(readonly needs: readonly ColdNeed[]) {
    const first = needs[0];
    // Seen by a client only when no session fetched it: a path that does not read cold partitions (the PostgreSQL
    // port, INSERT ... SELECT in the primary) or a statement past its fetch rounds.
    super(`cold partition data is needed that this statement did not fetch (cold partitions are read by /exec and /exp queries) [${first === undefined ? '' : describeColdObject(first.object)}]`);
    this.name = 'ColdChunksNeeded';
  }
}

/** Fetch rounds one step may take; a round fetches every chunk one column read lacked, so few are used. */
const FAULT_ROUNDS_MAX = 64;
/** Cold object reads one statement waits on at once (its fetches of different partitions overlap). */
const STATEMENT_READS_AT_ONCE = 16;

export class ColdReadSession {
  private readonly leases = new Map<string, ColdLease[]>();
  private readonly planners: (() => ColdNeed[])[] = [];
  private pinnedBytes = 0;

  /** `signalOf` gives the signal that ends the statement's waits; it is asked only when a read is waited for. */
  constructor(private readonly coordinator: () => ColdChunkCoordinator, private readonly signalOf: () => AbortSignal, private readonly memoryBytesMax: number) {}

  /** A snapshot with cold partitions registers what its scans will need (asked again before every fetch). */
  addPlanner(planner: () => ColdNeed[]): void {
    this.planners.push(planner);
  }

  bytesOf(object: ColdObject, offset: number, length: number): Buffer | undefined {
    for (const lease of this.leases.get(object.key) ?? []) {
      if (lease.object.etag !== object.etag) continue;
      const bytes = lease.bytesOf(offset, length);
      if (bytes !== undefined) return bytes;
    }
    return undefined;
  }

  /**
   * Leases every needed range this statement does not hold yet. Up to STATEMENT_READS_AT_ONCE objects are read
   * at once (the coordinator bounds the requests in flight), so a query over many cold partitions waits about
   * one round trip, not one per partition. Every lease taken is kept (released with the statement) even when
   * another read fails; after a failure no further read starts.
   */
  async fetch(needs: readonly ColdNeed[]): Promise<void> {
    const wanted: ColdNeed[] = [];
    let bytes = 0;
    for (const need of needs) {
      const ranges = need.ranges.filter((range) => this.bytesOf(need.object, range.offset, range.length) === undefined);
      if (ranges.length === 0) continue;
      for (const range of ranges) bytes += range.length;
      if (this.pinnedBytes + bytes > this.memoryBytesMax) {
        throw new SqlError(`query exceeds its memory budget with cold partition chunks [${describeColdObject(need.object)}, pinned=${this.pinnedBytes}, needed=${bytes}, cairo.sql.max.memory=${this.memoryBytesMax}]`, 0, 'SVC_SQL_LIMIT');
      }
      wanted.push({ object: need.object, ranges });
    }
    if (wanted.length === 0) return;
    const coordinator = this.coordinator();
    const signal = this.signalOf();
    let failure: { reason: unknown } | undefined;
    let next = 0;
    // A few reads at a time per statement: each waiting read is a pending batch of the process, so one query
    // over hundreds of partitions must not fill the back-pressure cap alone.
    const reader = async (): Promise<void> => {
      while (next < wanted.length && failure === undefined) {
        const need = wanted[next++];
        try {
          this.keep(await coordinator.acquire(need.object, need.ranges, signal));
        } catch (error) {
          failure ??= { reason: error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(STATEMENT_READS_AT_ONCE, wanted.length) }, reader));
    if (failure !== undefined) throw failure.reason;
  }

  private keep(lease: ColdLease): void {
    this.pinnedBytes += lease.sizeBytes;
    const list = this.leases.get(lease.object.key);
    if (list === undefined) this.leases.set(lease.object.key, [lease]);
    else list.push(lease);
  }

  /** What the registered scans still need that this statement does not hold. */
  plannedNeeds(): ColdNeed[] {
    const needs: ColdNeed[] = [];
    for (const planner of this.planners) {
      for (const need of planner()) {
        const ranges = need.ranges.filter((range) => this.bytesOf(need.object, range.offset, range.length) === undefined);
        if (ranges.length > 0) needs.push({ object: need.object, ranges });
      }
    }
    return needs;
  }

  release(): void {
    for (const list of this.leases.values()) for (const lease of list) lease.release();
    this.leases.clear();
    this.pinnedBytes = 0;
  }
}

const currentSession = new AsyncLocalStorage<ColdReadSession>();

export function currentColdReadSession(): ColdReadSession | undefined {
  return currentSession.getStore();
}

/** Runs `body` with `session` as the statement's; the session's leases are released when body settles. */
export async function runWithColdReadSession<T>(session: ColdReadSession, body: () => Promise<T>): Promise<T> {
  try {
    return await currentSession.run(session, body);
  } finally {
    session.release();
  }
}

/**
 * Runs a synchronous step until it completes without meeting a chunk the statement lacks, then fetches what the
 * registered scans still need. A step that fails cleans up after itself (closes what it opened) before it
 * throws. Outside a session the step simply runs.
 */
export async function withColdFaults<T>(step: () => T): Promise<T> {
  const session = currentSession.getStore();
  if (session === undefined) return step();
  for (let round = 0; ; round++) {
    let value: T;
    try {
      value = step();
    } catch (error) {
      if (!(error instanceof ColdChunksNeeded) || round + 1 >= FAULT_ROUNDS_MAX) throw error;
      // Only what the read asked for: scans registered so far may still be narrowed by the step (interval
      // pruning reads the timestamp column before the pruned scan replaces the whole-table one).
      await session.fetch(error.needs);
      continue;
    }
    await session.fetch(session.plannedNeeds());
    return value;
  }
}
