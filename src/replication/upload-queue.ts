// The primary's backlog: captures waiting for upload, numbered in order and uploaded by a background loop
// that never blocks the writer, up to UPLOADS_IN_FLIGHT_MAX single-object segments at once (replicas apply
// only the contiguous run of numbers they see, so one arriving early waits). Multi-part segments and
// checkpoints go alone, after everything before them. A failed upload (store unreachable, timeout) is
// retried with back-off under the same number until it succeeds. Before uploading, the writer lease is
// checked, so a primary that was superseded stops writing segments. Objects are read, compressed, framed and
// stored by the segment encoder thread; this loop plans them, checks the lease and keeps their order.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectStore } from '../objectstore/object-store.js';
import type { WriterHandle } from '../objectstore/writer-lease.js';
import { WriterLeaseError } from '../objectstore/object-store-error.js';
import { getLogger } from '../log/logger.js';
import { assert } from '../core/assert.js';
import { type Capture, discardCapture } from './capture.js';
import { planParts, PART_BYTES_MAX, type PartPlan } from './capture-parts.js';
import { SegmentEncoder, type SegmentEncoderOptions } from './segment-encoder.js';
import { encodeSegment } from './segment-codec.js';
import { monotonicMs } from './encoder-thread-store.js';
import type { PutTarget } from './segment-encoder-messages.js';
import { checkpointDoneBody, checkpointDoneKey, checkpointPartKey, segmentKey } from './store-layout.js';
import { pruneBeforeCheckpoint } from './store-pruning.js';

const log = getLogger('replication');
const RETRY_DELAY_MAX_MS = 2_000;
/** Segment uploads in flight at once: the store's latency, not its bandwidth, bounds a single stream. */
const UPLOADS_IN_FLIGHT_MAX = 3;

/**
 * A delta, or a checkpoint (parts, then _done). Sequence numbers are given at upload, so deltas queued
 * together go up as one segment. A checkpoint `withMarker` first uploads an empty segment under its own
 * number, so followers that are up to date step over it instead of downloading the whole copy.
 */
export type QueuedItem =
  | { readonly kind: 'segment'; readonly capture: Capture }
  | { readonly kind: 'checkpoint'; readonly capture: Capture; readonly withMarker: boolean };

/** Deltas merged into one upload: bounded so one segment stays about one part. */
const MERGED_CAPTURES_MAX = 256;

export interface UploadStatus {
  readonly pendingBytes: number;
  readonly uploadLagSeconds: number;
  readonly shippedSeq: number;
  readonly stopped: string | null;
}

export class UploadQueue {
  private readonly items: QueuedItem[] = [];
  private pendingBytesCount = 0;
  private shipped = 0;
  private running = false;
  private stoppedReason: string | null = null;
  private idleWaiters: (() => void)[] = [];
  /** Batches taken off `items` whose upload has not finished, oldest first (for the lag figure). */
  private readonly launched: (readonly QueuedItem[])[] = [];
  /** Reads, compresses and frames objects off the event loop. */
  private readonly encoder: SegmentEncoder;

  constructor(private readonly store: ObjectStore, private readonly lease: WriterHandle, private nextSeq: number, encoderOptions: SegmentEncoderOptions) {
    this.encoder = new SegmentEncoder(encoderOptions);
  }

  get pendingBytes(): number {
    return this.pendingBytesCount;
  }

  get length(): number {
    return this.items.length;
  }

  status(): UploadStatus {
    const oldest = this.launched[0]?.[0] ?? this.items[0];
    return {
      pendingBytes: this.pendingBytesCount, shippedSeq: this.shipped, stopped: this.stoppedReason,
      uploadLagSeconds: oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest.capture.capturedAtMs) / 1000),
    };
  }

  push(item: QueuedItem): void {
    this.items.push(item);
    this.pendingBytesCount += item.capture.rawBytes;
    if (!this.running) void this.run();
  }

  /** Drops every queued delta (backlog overflow): a checkpoint will replace them. */
  dropSegments(): void {
    for (let index = this.items.length - 1; index >= 1; index--) {
      const item = this.items[index];
      if (item === undefined || item.kind !== 'segment') continue;
      this.items.splice(index, 1);
      this.pendingBytesCount -= item.capture.rawBytes;
      discardCapture(item.capture);
    }
  }

  /** Stops the encoder thread (after drained(), or when giving up on the backlog at stop). */
  close(): Promise<void> {
    return this.encoder.close();
  }

  /** Resolves when the queue is empty and every upload finished. */
  drained(): Promise<void> {
    if (this.items.length === 0 && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(): Promise<void> {
    this.running = true;
    // Settles in sequence order, so `shipped` and the backlog figures move in order.
    let settled: Promise<void> = Promise.resolve();
    let inFlight: Promise<void>[] = [];
    while (this.items.length > 0) {
      const batch = this.nextBatch();
      const head = batch[0];
      const rawBytes = batch.reduce((sum, item) => sum + item.capture.rawBytes, 0);
      if (head?.kind === 'segment' && rawBytes < PART_BYTES_MAX) {
        // One object: numbered now, uploaded alongside the ones before it; replicas apply in number order.
        const seq = this.nextSeq++;
        const plan = planParts(batch.map((item) => item.capture)).next();
        assert(plan.done !== true, 'a capture batch plans at least one object');
        this.items.splice(0, batch.length);
        this.launched.push(batch);
        const put = this.retrying(() => this.encodeAndPut(seq, plan.value, segmentKey(seq, head.capture.capturedAtMs)));
        settled = Promise.all([settled, put]).then(() => this.settle(batch, seq));
        inFlight.push(settled);
        if (inFlight.length >= UPLOADS_IN_FLIGHT_MAX) await inFlight.shift();
        continue;
      }
      await settled;
      inFlight = [];
      await this.retrying(() => this.upload(batch));
      this.items.splice(0, batch.length);
      this.launched.push(batch);
      this.settle(batch, this.shipped);
    }
    await settled;
    this.running = false;
    if (this.items.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    else void this.run();
  }

  private settle(batch: readonly QueuedItem[], seq: number): void {
    this.launched.shift();
    this.shipped = Math.max(this.shipped, seq);
    for (const item of batch) {
      this.pendingBytesCount -= item.capture.rawBytes;
      discardCapture(item.capture);
    }
  }

  /** Runs `attempt` until it succeeds, backing off; a lost lease pauses uploads (a superseded primary's forever). */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        const result = await attempt();
        this.stoppedReason = null;
        return result;
      } catch (error) {
        if (error instanceof WriterLeaseError) {
          this.stoppedReason = error.message;
          if (failures === 1) log.critical(`replication paused: ${error.message}`);
        } else if (failures === 1 || failures % 10 === 0) {
          log.error(`replication upload failed (attempt ${failures}), retrying: ${error instanceof Error ? error.message : String(error)}`);
        }
        await sleep(Math.min(RETRY_DELAY_MAX_MS, 250 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  /**
   * Trusts the lease's latest ownership check for half a lease: the renewals (every third of a lease) keep it
   * fresh, so uploads ask the store themselves only when renewals fall behind. Checking every second cost two
   * requests per second of uploading, as much primary CPU as the segment PUTs.
   */
  private assertStillWriter(): Promise<void> {
    return this.lease.assertStillWriter(undefined, Math.floor(this.lease.leaseMs / 2));
  }

  /** The head item, or the run of deltas at the head (up to about one part of bytes). */
  private nextBatch(): QueuedItem[] {
    const batch: QueuedItem[] = [];
    let bytes = 0;
    for (const item of this.items) {
      if (item.kind !== 'segment') return batch.length === 0 ? [item] : batch;
      if (batch.length > 0 && (bytes + item.capture.rawBytes > PART_BYTES_MAX || batch.length >= MERGED_CAPTURES_MAX)) break;
      batch.push(item);
      bytes += item.capture.rawBytes;
    }
    return batch;
  }

  private async upload(batch: readonly QueuedItem[]): Promise<void> {
    const head = batch[0];
    if (head === undefined) return;
    if (head.kind === 'segment') {
      // Numbers are taken only once an object is stored: a retried upload reuses them.
      const capturedAtMs = head.capture.capturedAtMs;
      for (const plan of planParts(batch.map((item) => item.capture))) {
        const seq = this.nextSeq;
        await this.encodeAndPut(seq, plan, segmentKey(seq, capturedAtMs));
        this.shipped = seq;
        this.nextSeq = seq + 1;
      }
      return;
    }
    const seq = this.nextSeq;
    if (head.withMarker) await this.putMarkerSegment(seq, head.capture.capturedAtMs);
    let index = 0;
    for (const plan of planParts([head.capture])) await this.encodeAndPut(seq, plan, checkpointPartKey(seq, index++));
    await this.store.put(checkpointDoneKey(seq), checkpointDoneBody(seq, index, this.lease.generation));
    this.shipped = seq;
    if (!head.withMarker) this.nextSeq = seq + 1;
    await pruneBeforeCheckpoint(this.store);
  }

  /** The empty marker segment is framed here and put from the event loop: it is a few bytes. */
  private async putMarkerSegment(seq: number, capturedAtMs: number): Promise<void> {
    await this.assertStillWriter();
    await this.store.put(segmentKey(seq, capturedAtMs), await encodeSegment(seq, [], []));
    this.shipped = seq;
    this.nextSeq = seq + 1;
  }

  /**
   * The encoder thread reads, frames and stores the object under `key` (its SigV4 signature, socket writes and
   * the store's answer cost the event loop nothing); the lease is checked here first. The thread must start
   * the PUT within a quarter lease of the check: with the check's own trust of half a lease, the PUT starts
   * before a successor can have claimed the store. A thread starved past that (lowest priority on saturated
   * cores) keeps the object, and it is stored after the lease is checked again, not encoded again.
   */
  private async encodeAndPut(seq: number, plan: PartPlan, key: string): Promise<void> {
    await this.assertStillWriter();
    let outcome = await this.encoder.encodeAndPut(seq, plan, this.putTarget(key));
    while (outcome.kind === 'late') {
      const objectId = outcome.objectId;
      try {
        await this.assertStillWriter();
      } catch (error) {
        this.encoder.releaseKept(objectId);
        throw error;
      }
      outcome = await this.encoder.putKept(objectId, this.putTarget(key));
    }
  }

  private putTarget(key: string): PutTarget {
    return { key, startByMs: monotonicMs() + Math.floor(this.lease.leaseMs / 4) };
  }
}
