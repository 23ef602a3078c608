// The primary's half of replication. After writer turns that may have committed, it schedules a capture as
// a turn of its own (so it sees only whole commits), diffs the tracked files against the previous capture
// and queues the result for upload under the next sequence numbers. Captures coalesce: commits made while
// one is pending share it. The backlog is bounded: past backlogBytesMax the queued deltas are dropped and a
// checkpoint replaces them. Checkpoints (at start, periodically, after an overflow) copy every tracked file;
// only a periodic one lets up-to-date followers step over it (upload-queue.ts).
import { join } from 'node:path';
import * as fs from 'node:fs';
import type { ObjectStore } from '../objectstore/object-store.js';
import type { WriterHandle } from '../objectstore/writer-lease.js';
import { getLogger } from '../log/logger.js';
import { TrackedFiles, type FileStamps } from './tracked-files.js';
import { captureChanges, captureIsEmpty, discardCapture, pinnedPathsOf } from './capture.js';
import { FilePins } from './file-pins.js';
import { ValueWidths } from './value-widths.js';
import { UploadQueue, type UploadStatus } from './upload-queue.js';
import { SEGMENT_SPACING_MS } from './store-layout.js';
import type { ThreadStore } from './segment-encoder-messages.js';

const log = getLogger('replication');
/** Delay between a commit and its capture: commits arriving meanwhile share one segment. */
const CAPTURE_DELAY_MS = 50;
/**
 * Under sustained writes captures start at least this far apart. Whatever its size, a capture costs the
 * primary a scan, an encoder round trip and a PUT (a few ms of CPU in the store client alone), and a partition
 * that several out-of-order merges rewrote between two captures ships once. It adds at most this to the lag.
 */
const CAPTURE_SPACING_MS = SEGMENT_SPACING_MS;

export interface ShipperOptions {
  readonly rootDir: string;
  readonly store: ObjectStore;
  readonly lease: WriterHandle;
  /** Runs `work` as a turn of the writer's queue. */
  readonly runTurn: (work: () => void) => Promise<void>;
  readonly firstSeq: number;
  readonly checkpointIntervalMs: number;
  readonly backlogBytesMax: number;
  /** Shipping's thread at the lowest CPU priority (replication.primary.upload.priority). */
  readonly lowPriority: boolean;
  /** `store`'s connection string, by which the shipping thread opens its own connection for uploads. */
  readonly threadStore: ThreadStore;
}

export class ReplicationShipper {
  private readonly tracked: TrackedFiles;
  private readonly queue: UploadQueue;
  private previous: FileStamps | null = null;
  /** Names the outbox directory of each capture's hard links. */
  private captureCount = 0;
  private captureScheduled = false;
  /** performance.now() of the latest delta capture. */
  private capturedAt = -Infinity;
  private overflowed = false;
  private readonly checkpointTimer: NodeJS.Timeout;
  private readonly outboxDir: string;
  /** Descriptors of captured files, shared by captures: the files every commit appends to stay open. */
  private readonly pins: FilePins;
  /** Column widths of the tracked tables, by which fixed-width bytes ship as byte planes. */
  private readonly widths: ValueWidths;

  constructor(private readonly options: ShipperOptions) {
    this.tracked = new TrackedFiles(options.rootDir);
    this.queue = new UploadQueue(options.store, options.lease, options.firstSeq, { lowPriority: options.lowPriority, store: options.threadStore });
    this.outboxDir = join(options.rootDir, 'replication', 'outbox');
    this.pins = new FilePins(options.rootDir);
    this.widths = new ValueWidths(options.rootDir);
    // Links of a previous run are useless: the start checkpoint covers everything they held.
    fs.rmSync(this.outboxDir, { recursive: true, force: true });
    this.checkpointTimer = setInterval(() => void this.checkpoint(true), options.checkpointIntervalMs);
    this.checkpointTimer.unref();
  }

  /** The first checkpoint of this primary's run: replicas re-sync to it (no marker segment). */
  start(): Promise<void> {
    return this.checkpoint(false);
  }

  status(): UploadStatus {
    return this.queue.status();
  }

  /** Called after every writer turn. */
  noteTurnCompleted(): void {
    if (this.captureScheduled || this.overflowed) return;
    this.captureScheduled = true;
    const delayMs = Math.max(CAPTURE_DELAY_MS, this.capturedAt + CAPTURE_SPACING_MS - performance.now());
    setTimeout(() => {
      this.options.runTurn(() => {
        this.captureScheduled = false;
        this.captureDelta();
      }).catch((error: unknown) => log.error(`replication capture failed: ${error instanceof Error ? error.message : String(error)}`));
    }, delayMs).unref();
  }

  /** Captures what is committed now, then resolves once all of it is in the store (clean stop). */
  async flush(): Promise<void> {
    await this.options.runTurn(() => this.captureDelta());
    await this.queue.drained();
  }

  close(): void {
    clearInterval(this.checkpointTimer);
  }

  /** After flush (or giving up on it): stops the encoder thread and closes the descriptors the cache holds. */
  async release(): Promise<void> {
    await this.queue.close();
    this.pins.clear();
  }

  private nextLinkDir(): string {
    return join(this.outboxDir, String(++this.captureCount));
  }

  private captureDelta(): void {
    if (this.overflowed || this.previous === null) return;
    this.capturedAt = performance.now();
    const current = this.tracked.scan(false);
    const capture = captureChanges(this.options.rootDir, this.nextLinkDir(), this.previous, current, this.pins, this.widths);
    this.previous = current;
    this.pins.retainOnly(pinnedPathsOf(capture));
    if (captureIsEmpty(capture)) {
      discardCapture(capture);
      return;
    }
    if (this.queue.pendingBytes + capture.rawBytes > this.options.backlogBytesMax) {
      discardCapture(capture);
      this.overflow();
      return;
    }
    this.queue.push({ kind: 'segment', capture });
  }

  private overflow(): void {
    this.overflowed = true;
    this.queue.dropSegments();
    log.error(`replication backlog above ${this.options.backlogBytesMax} bytes: queued segments dropped, replicas will re-sync from the next checkpoint`);
    void this.queue.drained().then(() => this.checkpoint(false));
  }

  /** `withMarker`: replicas that applied everything before it may skip it (see the header). */
  private async checkpoint(withMarker: boolean): Promise<void> {
    try {
      await this.options.runTurn(() => {
        if (withMarker) this.captureDelta();
        const current = this.tracked.scan(true);
        const capture = captureChanges(this.options.rootDir, this.nextLinkDir(), null, current, this.pins, this.widths);
        this.widths.retainOnly(current);
        // A checkpoint's pins are its own: the cache keeps nothing for the next delta.
        this.pins.retainOnly(new Set());
        this.queue.push({ kind: 'checkpoint', capture, withMarker: withMarker && !this.overflowed });
        this.previous = current;
        this.overflowed = false;
      });
    } catch (error) {
      log.error(`replication checkpoint failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
