// Single writer per store root. claimWriter creates the lease object of the next generation
// (`<root>_writer/<n+1>`): with a create-if-absent write where the store has one (fs:: link, S3 If-None-Match),
// which makes two contenders for one generation impossible; on stores that refuse conditional PUTs (501,
// Swift) by write, settle delay, read back: the last write wins and every other contender sees a foreign claim.
// A holder renews its lease every leaseMs/3; a contender takes over only after the newest lease stayed
// unchanged for leaseMs of the contender's own clock (or was released). A holder that sees a newer
// generation, a foreign claim on its key, or no successful renewal for leaseMs stops (assertStillWriter
// throws). Every manifest carries the writer's generation and readers order by it, so writes of a holder
// that was superseded while it wrote are never read.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectStore } from './object-store.js';
import { ObjectStoreError, WriterLeaseError } from './object-store-error.js';
import { assert } from '../core/assert.js';
import {
  type WriterLeaseRecord, leaseKey, generationOfLeaseKey, encodeLeaseRecord, decodeLeaseRecord, WRITER_LEASE_DIRECTORY,
} from './writer-lease-record.js';

export interface WriterLeaseOptions {
  /** A holder not heard from (no renewal) for this long may be replaced. */
  readonly leaseMs?: number;
  /** Fallback claim only: wait between writing the lease and reading it back. Must exceed a PUT's latency. */
  readonly settleMs?: number;
  /** Renewal period; default leaseMs / 3. */
  readonly renewIntervalMs?: number;
  readonly signal?: AbortSignal;
}

export interface WriterHandle {
  readonly instanceId: string;
  readonly generation: number;
  /** 'conditional': claimed with an atomic create; 'settle': by write and read-back (store without conditional PUT). */
  readonly claimMode: 'conditional' | 'settle';
  /**
   * Throws WriterLeaseError unless this instance is still the writer; call before every write that matters.
   * `trustMs`: an ownership check younger than this (a renewal's or an earlier call's) is trusted without asking
   * the store again; 0 (default) always asks. A successor can take over only a full lease after the holder's
   * last renewal began, so a caller may trust up to half a lease.
   */
  assertStillWriter(signal?: AbortSignal, trustMs?: number): Promise<void>;
  /** The lease period this holder claimed with (ms). */
  readonly leaseMs: number;
  /** Stops renewing and marks the lease released so a successor may claim at once. */
  release(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_SETTLE_MS = 2_000;
const KEPT_OLD_GENERATIONS = 2;

/** Claims the writer lease of `root` (a key prefix, '' or ending in '/') for `instanceId`, or throws WriterLeaseError. */
export async function claimWriter(store: ObjectStore, root: string, instanceId: string, options: WriterLeaseOptions = {}): Promise<WriterHandle> {
  const prefix = root === '' || root.endsWith('/') ? root : `${root}/`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  if (!(leaseMs > 0 && settleMs >= 0) || instanceId === '') throw new RangeError('claimWriter needs leaseMs > 0, settleMs ≥ 0 and an instance id');
  const signal = options.signal;
  const current = await readNewestLease(store, prefix, signal);
  if (current !== null && !current.released && current.instanceId !== instanceId) {
    await claimWriterAwaitStale(store, prefix, current, leaseMs, signal);
  }
  const generation = (current?.generation ?? 0) + 1;
  const record: WriterLeaseRecord = {
    format: 'svc-writer-lease', instanceId, claimId: randomBytes(12).toString('hex'), generation,
    heartbeatCount: 0, heartbeatAtMs: Date.now(), leaseMs, released: false,
  };
  const key = leaseKey(prefix, generation);
  const renewedAt = performance.now();
  const outcome = await store.putIfAbsent(key, encodeLeaseRecord(record), signal === undefined ? {} : { signal });
  if (outcome === 'exists') throw contenderWon(store, prefix, generation);
  if (outcome === 'unsupported') await claimWriterBySettle(store, prefix, record, settleMs, signal);
  await pruneOldLeases(store, prefix, generation);
  return new LeaseHolder(store, prefix, record, outcome === 'created' ? 'conditional' : 'settle', renewedAt, options.renewIntervalMs ?? Math.max(1, Math.floor(leaseMs / 3)));
}

/** The newest lease under root, or null when the root never had a writer. */
export async function readNewestLease(store: ObjectStore, prefix: string, signal?: AbortSignal): Promise<WriterLeaseRecord | null> {
  const listed = await store.list(prefix + WRITER_LEASE_DIRECTORY, signal === undefined ? {} : { signal });
  let newestKey: string | null = null;
  for (const item of listed) if (generationOfLeaseKey(prefix, item.key) !== null) newestKey = item.key;
  if (newestKey === null) return null;
  const record = decodeLeaseRecord(await store.get(newestKey, signal === undefined ? {} : { signal }), newestKey, store.description);
  if (record.generation !== generationOfLeaseKey(prefix, newestKey)) {
    throw new ObjectStoreError('rejected', `writer lease object names generation ${record.generation}, not its key's [store=${store.description}, key=${newestKey}]`);
  }
  return record;
}

/** Refuses at once while the holder's own clock says it renewed recently; else watches it for leaseMs. */
async function claimWriterAwaitStale(store: ObjectStore, prefix: string, seen: WriterLeaseRecord, leaseMs: number, signal: AbortSignal | undefined): Promise<void> {
  if (Date.now() - seen.heartbeatAtMs < seen.leaseMs) throw heldBy(store, prefix, seen);
  // The wall clock says stale, but clocks differ between machines: only an unchanged record over a full
  // lease period of our own monotonic clock proves the holder stopped renewing.
  const watchEnd = performance.now() + Math.max(leaseMs, seen.leaseMs);
  while (performance.now() < watchEnd) {
    await sleep(Math.min(Math.max(50, leaseMs / 4), Math.max(1, watchEnd - performance.now())), undefined, signal === undefined ? undefined : { signal });
    const now = await readNewestLease(store, prefix, signal);
    if (now === null) return;
    if (now.released && now.generation === seen.generation) return;
    if (now.generation !== seen.generation || now.heartbeatCount !== seen.heartbeatCount) throw heldBy(store, prefix, now);
  }
}

/** Fallback claim: nobody else may have created the key, then our write must still be there after settleMs. */
async function claimWriterBySettle(store: ObjectStore, prefix: string, record: WriterLeaseRecord, settleMs: number, signal: AbortSignal | undefined): Promise<void> {
  const key = leaseKey(prefix, record.generation);
  const requestOptions = signal === undefined ? {} : { signal };
  if (await store.head(key, requestOptions) !== null) throw contenderWon(store, prefix, record.generation);
  await store.put(key, encodeLeaseRecord(record), requestOptions);
  await sleep(settleMs, undefined, signal === undefined ? undefined : { signal });
  const after = decodeLeaseRecord(await store.get(key, requestOptions), key, store.description);
  if (after.claimId !== record.claimId || await store.head(leaseKey(prefix, record.generation + 1), requestOptions) !== null) {
    throw contenderWon(store, prefix, record.generation);
  }
}

async function pruneOldLeases(store: ObjectStore, prefix: string, generation: number): Promise<void> {
  try {
    const listed = await store.list(prefix + WRITER_LEASE_DIRECTORY);
    const old = listed.filter((item) => (generationOfLeaseKey(prefix, item.key) ?? generation) < generation - KEPT_OLD_GENERATIONS).map((item) => item.key);
    if (old.length > 0) await store.delete(old);
  } catch {
    // Pruning only saves listing time, and the claim already succeeded: a failure leaves old generations,
    // which are never read as current.
  }
}

function where(store: ObjectStore, prefix: string): string {
  return `[store=${store.description}, root=${prefix === '' ? '/' : prefix}]`;
}

function heldBy(store: ObjectStore, prefix: string, record: WriterLeaseRecord): WriterLeaseError {
  const age = Math.max(0, Date.now() - record.heartbeatAtMs);
  return new WriterLeaseError(`object store root is managed by instance '${record.instanceId}' (generation ${record.generation}, renewed ${age} ms ago by its clock, lease ${record.leaseMs} ms) ${where(store, prefix)}`);
}

function contenderWon(store: ObjectStore, prefix: string, generation: number): WriterLeaseError {
  return new WriterLeaseError(`another instance claimed the object store root at the same time (generation ${generation}) ${where(store, prefix)}`);
}

class LeaseHolder implements WriterHandle {
  readonly instanceId: string;
  readonly generation: number;
  readonly leaseMs: number;
  private record: WriterLeaseRecord;
  /** performance.now() at the start of the latest ownership check that found the lease ours (the claim's at first). */
  private confirmedAt: number;
  private lostReason: string | null = null;
  private released = false;
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();
  private renewInFlight = false;

  constructor(private readonly store: ObjectStore, private readonly prefix: string, record: WriterLeaseRecord,
    readonly claimMode: 'conditional' | 'settle', private renewedAt: number, renewIntervalMs: number) {
    this.record = record;
    this.instanceId = record.instanceId;
    this.generation = record.generation;
    this.leaseMs = record.leaseMs;
    this.confirmedAt = renewedAt;
    this.timer = setInterval(() => {
      // One renewal at a time: a slow store must not pile up renewals.
      if (!this.renewInFlight) this.renewing = this.renew();
    }, renewIntervalMs);
    this.timer.unref();
  }

  async assertStillWriter(signal?: AbortSignal, trustMs = 0): Promise<void> {
    if (this.released) throw new WriterLeaseError(`the writer lease was released ${where(this.store, this.prefix)}`);
    assert(trustMs >= 0 && trustMs <= this.record.leaseMs / 2, 'an ownership check is trusted for at most half a lease');
    if (this.lostReason === null && performance.now() - this.confirmedAt >= trustMs) {
      const startedAt = performance.now();
      this.lostReason = await this.checkOwnership(signal);
      if (this.lostReason === null) this.confirmedAt = startedAt;
    }
    if (this.lostReason === null && performance.now() - this.renewedAt >= this.record.leaseMs) {
      // Not lost for sure, but unrenewed for a whole lease: a contender may be taking over now. Stop writing
      // until a renewal succeeds; not sticky.
      throw new WriterLeaseError(`the writer lease was not renewed for ${Math.round(performance.now() - this.renewedAt)} ms (lease ${this.record.leaseMs} ms) ${where(this.store, this.prefix)}`);
    }
    if (this.lostReason !== null) throw new WriterLeaseError(`this instance is no longer the writer: ${this.lostReason} ${where(this.store, this.prefix)}`);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    await this.renewing;
    if (this.lostReason !== null || (await this.checkOwnership()) !== null) return;
    const record = { ...this.record, released: true, heartbeatAtMs: Date.now() };
    await this.store.put(leaseKey(this.prefix, this.generation), encodeLeaseRecord(record));
  }

  /** null while ours; else why not (a newer generation exists, or another claim overwrote our key). */
  private async checkOwnership(signal?: AbortSignal): Promise<string | null> {
    const options = signal === undefined ? {} : { signal };
    if (await this.store.head(leaseKey(this.prefix, this.generation + 1), options) !== null) return `generation ${this.generation + 1} was claimed`;
    const key = leaseKey(this.prefix, this.generation);
    const seen = decodeLeaseRecord(await this.store.get(key, options), key, this.store.description);
    if (seen.claimId !== this.record.claimId) return `lease generation ${this.generation} was claimed by instance '${seen.instanceId}'`;
    return null;
  }

  private async renew(): Promise<void> {
    if (this.released || this.lostReason !== null) return;
    const startedAt = performance.now();
    this.renewInFlight = true;
    try {
      this.lostReason = await this.checkOwnership();
      if (this.lostReason !== null || this.released) return;
      this.confirmedAt = startedAt;
      const record = { ...this.record, heartbeatCount: this.record.heartbeatCount + 1, heartbeatAtMs: Date.now() };
      await this.store.put(leaseKey(this.prefix, this.generation), encodeLeaseRecord(record));
      this.record = record;
      // Counted from before the check: the contender's watch cannot have started earlier than that.
      this.renewedAt = startedAt;
    } catch {
      // The store is unreachable or slow: renewedAt stays old and assertStillWriter stops writes after leaseMs.
    } finally {
      this.renewInFlight = false;
    }
  }
}
