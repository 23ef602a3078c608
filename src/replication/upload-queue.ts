// The primary's backlog: captures waiting for upload, in sequence order, uploaded one object at a time by a
// background loop that never blocks the writer. A failed upload (store unreachable, timeout) is retried with
// back-off until it succeeds: order matters more than speed, and nothing later may overtake it. Before each
// object the writer lease is checked, so a primary that was superseded never writes another segment.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectStore } from '../objectstore/object-store.js';
import type { WriterHandle } from '../objectstore/writer-lease.js';
import { WriterLeaseError } from '../objectstore/object-store-error.js';
import { getLogger } from '../log/logger.js';
import { type Capture, discardCapture } from './capture.js';
import { captureParts, PART_BYTES_MAX } from './capture-parts.js';
import { encodeSegment } from './segment-codec.js';
import { checkpointDoneBody, checkpointDoneKey, checkpointPartKey, segmentKey } from './store-layout.js';
import { pruneBeforeCheckpoint } from './store-pruning.js';

const log = getLogger('replication');
const RETRY_DELAY_MAX_MS = 2_000;
/** A lease check is trusted this long: checking before every object would triple the requests per segment. */
const LEASE_CHECK_VALID_MS = 1_000;

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
  private leaseCheckedAt = -Infinity;

  constructor(private readonly store: ObjectStore, private readonly lease: WriterHandle, private nextSeq: number) {}

  get pendingBytes(): number {
    return this.pendingBytesCount;
  }

  get length(): number {
    return this.items.length;
  }

  status(): UploadStatus {
    const oldest = this.items[0];
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

  /** Resolves when the queue is empty. */
  drained(): Promise<void> {
    if (this.items.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(): Promise<void> {
    this.running = true;
    let failures = 0;
    while (this.items.length > 0) {
      const batch = this.nextBatch();
      try {
        await this.upload(batch);
        this.stoppedReason = null;
        this.items.splice(0, batch.length);
        for (const item of batch) {
          this.pendingBytesCount -= item.capture.rawBytes;
          discardCapture(item.capture);
        }
        failures = 0;
      } catch (error) {
        failures++;
        // Not the writer (superseded, or the lease went unrenewed): nothing is uploaded until that changes,
        // which for a superseded primary is never.
        if (error instanceof WriterLeaseError) {
          this.stoppedReason = error.message;
          if (failures === 1) log.critical(`replication paused: ${error.message}`);
        } else if (failures === 1 || failures % 10 === 0) {
          log.error(`replication upload failed (attempt ${failures}), retrying: ${error instanceof Error ? error.message : String(error)}`);
        }
        await sleep(Math.min(RETRY_DELAY_MAX_MS, 250 * 2 ** Math.min(failures, 6)));
      }
    }
    this.running = false;
    if (this.items.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async assertStillWriter(): Promise<void> {
    if (performance.now() - this.leaseCheckedAt < LEASE_CHECK_VALID_MS) return;
    await this.lease.assertStillWriter();
    this.leaseCheckedAt = performance.now();
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
      for await (const part of captureParts(batch.map((item) => item.capture))) {
        const seq = this.nextSeq;
        await this.putSegment(seq, capturedAtMs, await encodeSegment(seq, part.operations, part.chunks));
      }
      return;
    }
    const seq = this.nextSeq;
    if (head.withMarker) await this.putSegment(seq, head.capture.capturedAtMs, await encodeSegment(seq, [], []));
    let index = 0;
    for await (const part of captureParts([head.capture])) {
      const body = await encodeSegment(seq, part.operations, part.chunks);
      await this.assertStillWriter();
      await this.store.put(checkpointPartKey(seq, index++), body);
    }
    await this.store.put(checkpointDoneKey(seq), checkpointDoneBody(seq, index, this.lease.generation));
    this.shipped = seq;
    if (!head.withMarker) this.nextSeq = seq + 1;
    await pruneBeforeCheckpoint(this.store);
  }

  private async putSegment(seq: number, capturedAtMs: number, body: Buffer): Promise<void> {
    await this.assertStillWriter();
    await this.store.put(segmentKey(seq, capturedAtMs), body);
    this.shipped = seq;
    this.nextSeq = seq + 1;
  }
}
