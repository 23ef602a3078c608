// The process-wide cold chunk coordinator (reference "Cold read path"): column chunks of cold Parquet objects
// are fetched with range GETs pinned to the manifest's ETag, adjacent chunks of one read (or chunks at most
// `coalesceGapBytesMax` apart; the gap's bytes are dropped with the request's buffer) coalesced into one
// request (span ≤ 64 MiB), concurrent readers of a chunk share its download, and at most `downloadsInFlightMax`
// requests run at once. A chunk stays in memory while a lease holds it and is dropped when the last lease goes
// (no cache of released chunks). Past `pendingBatchesMax` reads waiting, a new read fails at once.
// Invariant: every resident or loading chunk has leases > 0, or is loading and dropped as soon as it lands.
import type { ObjectStore } from '../../objectstore/object-store.js';
import { coldChunkChannel } from '../../core/diagnostics.js';
import { assert } from '../../core/assert.js';
import { SvcError } from '../../core/errors.js';
import { coalesceRanges, type ByteRange, COALESCED_SPAN_BYTES_MAX } from './coalesce-ranges.js';
import { ColdBackPressureError, coldReadFailed, type ColdObject } from './cold-read-errors.js';

export interface ColdReadLimits {
  readonly downloadsInFlightMax: number;
  readonly pendingBatchesMax: number;
  /** Gap bytes between two chunks of one read that one request may fetch and drop (coalesceRanges); 0 when unset. */
  readonly coalesceGapBytesMax?: number;
}

interface Chunk {
  readonly id: string;
  readonly length: number;
  leases: number;
  bytes: Buffer | undefined;
  /** Settles when the download carrying this chunk ends; rejects with the download's error. */
  readonly loaded: Promise<void>;
}

/** Chunks held for one read; release() exactly once. */
export interface ColdLease {
  readonly object: ColdObject;
  /** The bytes of a leased chunk, or undefined when this lease does not hold [offset, offset + length). */
  bytesOf(offset: number, length: number): Buffer | undefined;
  readonly sizeBytes: number;
  release(): void;
}

function chunkId(object: ColdObject, range: ByteRange): string {
  return `${object.key}\u0000${object.etag}\u0000${range.offset}\u0000${range.length}`;
}

export class ColdChunkCoordinator {
  private readonly chunks = new Map<string, Chunk>();
  private inFlightDownloads = 0;
  private readonly waitingDownloads: (() => void)[] = [];
  private pendingBatches = 0;
  private busyLeases = 0;
  private readyChunks = 0;
  private pinnedBytes = 0;

  constructor(private readonly store: () => Promise<ObjectStore>, private readonly limits: ColdReadLimits) {
    assert(limits.downloadsInFlightMax > 0 && limits.pendingBatchesMax > 0, 'cold read limits are positive');
  }

  /**
   * Leases the chunks `ranges` of `object`, downloading those not resident. `signal` ends the wait (query
   * timeout or cancel); downloads already started finish for the readers sharing them.
   */
  async acquire(object: ColdObject, ranges: readonly ByteRange[], signal: AbortSignal): Promise<ColdLease> {
    if (this.pendingBatches >= this.limits.pendingBatchesMax) {
      throw new ColdBackPressureError(`cold read refused: ${this.pendingBatches} reads are already pending (cold.storage.pending.batches.max=${this.limits.pendingBatchesMax}) [table=${object.table}, partition=${object.partition}]; retry later`);
    }
    this.pendingBatches++;
    const held: Chunk[] = [];
    try {
      const missing = this.leaseChunks(object, ranges, held);
      if (missing.length > 0) this.startDownloads(object, missing);
      this.publishGauges();
      await waitOrAbort(Promise.all(held.map((chunk) => chunk.loaded)), signal, object);
      return this.leaseOf(object, held);
    } catch (error) {
      for (const chunk of held) this.releaseChunk(chunk);
      throw error;
    } finally {
      this.pendingBatches--;
      this.publishGauges();
    }
  }

  /** Takes a lease on every range; returns the ranges nobody has fetched or is fetching. Publishes the lookup. */
  private leaseChunks(object: ColdObject, ranges: readonly ByteRange[], held: Chunk[]): { range: ByteRange; settle: Settle }[] {
    const missing: { range: ByteRange; settle: Settle }[] = [];
    let hitChunks = 0;
    let coalescedReaders = 0;
    const seen = new Set<string>();
    for (const range of ranges) {
      const id = chunkId(object, range);
      if (seen.has(id)) continue;
      seen.add(id);
      let chunk = this.chunks.get(id);
      if (chunk === undefined) {
        const settle = deferred();
        chunk = { id, length: range.length, leases: 0, bytes: undefined, loaded: settle.promise };
        this.chunks.set(id, chunk);
        missing.push({ range, settle });
      } else if (chunk.bytes !== undefined) {
        hitChunks++;
      } else {
        coalescedReaders++;
      }
      chunk.leases++;
      this.busyLeases++;
      held.push(chunk);
    }
    coldChunkChannel.publish({ kind: 'acquire', hitChunks, missChunks: held.length - hitChunks, coalescedReaders });
    return missing;
  }

  private startDownloads(object: ColdObject, missing: readonly { range: ByteRange; settle: Settle }[]): void {
    const settles = new Map(missing.map((item) => [item.range.offset, item.settle]));
    for (const group of coalesceRanges(missing.map((item) => item.range), COALESCED_SPAN_BYTES_MAX, this.limits.coalesceGapBytesMax ?? 0)) {
      void this.download(object, group.offset, group.length, group.members, settles);
    }
  }

  private async download(object: ColdObject, offset: number, length: number, members: readonly ByteRange[], settles: Map<number, Settle>): Promise<void> {
    await this.downloadSlot();
    coldChunkChannel.publish({ kind: 'download', phase: 'started', bytes: 0 });
    this.publishGauges();
    let bytes: Buffer | undefined;
    let failure: unknown;
    try {
      const store = await this.store();
      bytes = await store.getRange(object.key, offset, length, { ifMatch: object.etag });
      if (bytes.length !== length) failure = coldReadFailed(object, `the store returned ${bytes.length} bytes for a range of ${length} at ${offset}; the object is shorter than the manifest says`);
    } catch (error) {
      failure = error instanceof SvcError ? coldReadFailed(object, error.message) : error;
    } finally {
      this.inFlightDownloads--;
      this.waitingDownloads.shift()?.();
    }
    coldChunkChannel.publish({ kind: 'download', phase: failure === undefined ? 'finished' : 'failed', bytes: failure === undefined ? length : 0 });
    for (const member of members) {
      const chunk = this.chunks.get(chunkId(object, member));
      const settle = settles.get(member.offset);
      assert(chunk !== undefined && settle !== undefined, 'a loading chunk stays in the table until its download ends');
      if (failure !== undefined || bytes === undefined) {
        this.chunks.delete(chunk.id);
        settle.reject(failure);
        continue;
      }
      chunk.bytes = bytes.subarray(member.offset - offset, member.offset - offset + member.length);
      this.readyChunks++;
      this.pinnedBytes += chunk.length;
      settle.resolve();
      if (chunk.leases === 0) this.evict(chunk);
    }
    this.publishGauges();
  }

  private downloadSlot(): Promise<void> {
    if (this.inFlightDownloads < this.limits.downloadsInFlightMax) {
      this.inFlightDownloads++;
      return Promise.resolve();
    }
    // The finishing download hands its slot over: the count stays, the next waiter runs.
    return new Promise((resolve) => this.waitingDownloads.push(() => {
      this.inFlightDownloads++;
      resolve();
    }));
  }

  private leaseOf(object: ColdObject, held: readonly Chunk[]): ColdLease {
    const byRange = new Map<string, Chunk>();
    let sizeBytes = 0;
    for (const chunk of held) {
      byRange.set(chunk.id, chunk);
      sizeBytes += chunk.length;
    }
    let released = false;
    return {
      object,
      sizeBytes,
      bytesOf: (offset, length) => byRange.get(chunkId(object, { offset, length }))?.bytes,
      release: () => {
        assert(!released, 'a cold lease is released once');
        released = true;
        for (const chunk of held) this.releaseChunk(chunk);
        this.publishGauges();
      },
    };
  }

  private releaseChunk(chunk: Chunk): void {
    assert(chunk.leases > 0, 'a released chunk was leased');
    chunk.leases--;
    this.busyLeases--;
    if (chunk.leases === 0 && chunk.bytes !== undefined) this.evict(chunk);
  }

  private evict(chunk: Chunk): void {
    assert(chunk.leases === 0 && chunk.bytes !== undefined, 'only resident chunks without leases are evicted');
    this.chunks.delete(chunk.id);
    chunk.bytes = undefined;
    this.readyChunks--;
    this.pinnedBytes -= chunk.length;
    coldChunkChannel.publish({ kind: 'evict', chunks: 1 });
  }

  private publishGauges(): void {
    coldChunkChannel.publish({
      kind: 'gauges', inFlightDownloads: this.inFlightDownloads, pendingBatches: this.pendingBatches,
      busyLeases: this.busyLeases, readyChunks: this.readyChunks, pinnedBytes: this.pinnedBytes,
    });
  }
}

interface Settle {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Settle {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // A chunk whose only reader gave up (timeout) may still fail later: nobody awaits it then.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function waitOrAbort(pending: Promise<unknown>, signal: AbortSignal, object: ColdObject): Promise<void> {
  const abortError = (): SvcError => coldReadFailed(object, `gave up waiting for the object store: ${String(signal.reason ?? 'query cancelled')}`);
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      () => { signal.removeEventListener('abort', onAbort); resolve(); },
      (error: unknown) => { signal.removeEventListener('abort', onAbort); reject(error); },
    );
  });
}
