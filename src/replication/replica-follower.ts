// The replica's half of replication: every poll interval it lists the segments after its applied sequence
// number and applies the contiguous run it finds, in order, recording the number after each. When the next
// number is missing (it was pruned, or a primary restarted and re-based on a checkpoint) it re-syncs from
// the newest complete checkpoint, which rewrites every file and prunes the rest. A store that cannot be
// reached only makes the lag grow: the replica keeps serving what it has and catches up when it returns.
// Under sustained writes segments come about SEGMENT_SPACING_MS apart: after a listing that brought one
// segment, the next listing waits until shortly before the next can be there, instead of listing at once
// and then every poll interval in between (each LIST costs the store CPU on the primary's cores, 16-20 ms
// on Swift). A listing that brought several (a backlog) is followed by another at once, as before.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectStore } from '../objectstore/object-store.js';
import { getLogger } from '../log/logger.js';
import { applySegment } from './segment-applier.js';
import { decodeSegment, type DecodedSegment } from './segment-codec.js';
import { readAppliedSeq, writeAppliedSeq } from './applied-state.js';
import { checkpointDoneKey, checkpointPartKey, listCheckpoints, listSegments, parseCheckpointDone, SEGMENT_SPACING_MS } from './store-layout.js';

const log = getLogger('replication');
/** Segments downloaded ahead of the one being applied. */
const DOWNLOADS_AHEAD = 4;
/**
 * While no segment follows the applied one, checkpoints are listed at most this often, and not within this
 * long after a segment was applied (under ingest most listings find nothing new yet). Listing them on every
 * poll made an idle poll three LISTs instead of one, and each costs the store (Swift: 16-20 ms of its CPU,
 * on the cores the primary ingests on). Only a checkpoint with no segment after it (a restarted primary
 * that has not written yet) waits for this; a gap in the segment numbers still lists them at once.
 */
const IDLE_CHECKPOINT_LIST_SPACING_MS = 2_000;

export interface FollowerStatus {
  readonly appliedSeq: number;
  readonly lagSeconds: number;
  readonly lastError: string | null;
}

export interface FollowerOptions {
  readonly rootDir: string;
  /** Opens the store; retried each poll until it succeeds (the store may be down at start). */
  readonly openStore: () => Promise<ObjectStore>;
  readonly pollIntervalMs: number;
  /** After objects touching the service-accounts file were applied. */
  readonly onAccountsChanged: () => void;
}

export class ReplicaFollower {
  private store: ObjectStore | null = null;
  private appliedSeq: number;
  private lagSeconds = 0;
  private lastSuccessMs = Date.now();
  private lastError: string | null = null;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();
  /**
   * performance.now() of the latest checkpoint listing, or of the latest applied segment: while segments
   * follow one another, a newer checkpoint shows itself as a gap in their numbers (listed at once).
   */
  private checkpointsListedAt = -Infinity;
  /** performance.now() of the latest listing that brought exactly one new segment, else -Infinity. */
  private loneSegmentListedAt = -Infinity;

  constructor(private readonly options: FollowerOptions) {
    this.appliedSeq = readAppliedSeq(options.rootDir) ?? 0;
  }

  status(): FollowerStatus {
    // Unreachable store: we cannot know what we miss, so the lag is at least the time since we last knew.
    const lag = this.lastError === null ? this.lagSeconds : Math.max(this.lagSeconds, (Date.now() - this.lastSuccessMs) / 1000);
    return { appliedSeq: this.appliedSeq, lagSeconds: lag, lastError: this.lastError };
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** One full catch-up, for a replica being promoted: throws if the store cannot be read. */
  async catchUp(): Promise<number> {
    this.checkpointsListedAt = -Infinity;
    await this.pollOnce(true);
    return this.appliedSeq;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.pollOnce();
        this.lastError = null;
        this.lastSuccessMs = Date.now();
        failures = 0;
      } catch (error) {
        this.lastError = error instanceof Error ? error.message : String(error);
        failures++;
        if (failures === 1 || failures % 30 === 0) log.error(`replica poll failed (${failures} in a row), keeps serving and retries: ${this.lastError}`);
      }
      if (!this.stopped) await sleep(this.nextPollDelayMs());
    }
  }

  /**
   * The poll interval; after a lone new segment, until one poll interval before the next one can be
   * there. The segment was there at most about a poll interval before it was listed, and the next comes
   * SEGMENT_SPACING_MS after it, give or take how much faster its upload is.
   */
  private nextPollDelayMs(): number {
    const interval = this.options.pollIntervalMs;
    return Math.max(interval, this.loneSegmentListedAt + SEGMENT_SPACING_MS - interval - performance.now());
  }

  /** `untilEmpty`: list again after any applied segment, until a listing brings none (a catch-up). */
  private async pollOnce(untilEmpty = false): Promise<void> {
    const store = this.store ?? (this.store = await this.options.openStore());
    for (;;) {
      // Checkpoints are listed before segments: a segment missing from a listing made after a checkpoint
      // appeared was pruned (or never existed), not on its way.
      let checkpoints: number[] | null = null;
      let segments = await listSegments(store, this.appliedSeq);
      const listedAt = performance.now();
      this.lastError = null;
      this.lastSuccessMs = Date.now();
      const first = segments[0];
      const gap = first !== undefined && first.seq !== this.appliedSeq + 1;
      if (gap || (first === undefined && performance.now() - this.checkpointsListedAt >= IDLE_CHECKPOINT_LIST_SPACING_MS)) {
        this.checkpointsListedAt = performance.now();
        checkpoints = await listCheckpoints(store);
        segments = await listSegments(store, this.appliedSeq);
      }
      let applied = 0;
      const contiguous = segments.filter((segment, index) => segment.seq === this.appliedSeq + 1 + index);
      // Downloads run a few segments ahead of the (synchronous, in-order) apply.
      const downloads = contiguous.map((segment) => (): Promise<DecodedSegment> => {
        const download = store.get(segment.key).then((object) => decodeSegment(object, segment.key));
        // Marked handled: one left behind by a failed apply must not become an unhandled rejection.
        download.catch(() => undefined);
        return download;
      });
      const inFlight = downloads.slice(0, DOWNLOADS_AHEAD).map((start) => start());
      for (const [index, segment] of contiguous.entries()) {
        const decoded = await inFlight[index];
        const after = downloads[index + DOWNLOADS_AHEAD];
        if (after !== undefined) inFlight.push(after());
        this.lagSeconds = Math.max(0, (Date.now() - segment.capturedAtMs) / 1000);
        this.applyDecoded(decoded, segment.seq);
        applied++;
      }
      this.loneSegmentListedAt = applied === 1 && contiguous.length === 1 ? listedAt : -Infinity;
      if (applied > 0) this.checkpointsListedAt = Math.max(this.checkpointsListedAt, listedAt);
      if (applied > 1 || (applied === 1 && untilEmpty)) continue;
      if (applied === 1) return;
      const newest = checkpoints?.at(-1);
      if (newest !== undefined && newest > this.appliedSeq) {
        await this.applyCheckpoint(store, newest);
        continue;
      }
      this.lagSeconds = 0;
      return;
    }
  }

  private applyDecoded(segment: DecodedSegment, seq: number): void {
    const outcome = applySegment(this.options.rootDir, segment);
    writeAppliedSeq(this.options.rootDir, seq);
    this.appliedSeq = seq;
    if (outcome.accountsChanged) this.options.onAccountsChanged();
  }

  private async applyCheckpoint(store: ObjectStore, seq: number): Promise<void> {
    const started = Date.now();
    const doneKey = checkpointDoneKey(seq);
    const { parts } = parseCheckpointDone(await store.get(doneKey), doneKey);
    let accountsChanged = false;
    const download = (part: number): Promise<DecodedSegment> => {
      const key = checkpointPartKey(seq, part);
      const decoded = store.get(key).then((object) => decodeSegment(object, key));
      // Marked handled: one left behind by a failed apply must not become an unhandled rejection.
      decoded.catch(() => undefined);
      return decoded;
    };
    // The next part downloads and decompresses (zlib's threads) while this one is written: a checkpoint of a
    // large table is several parts of up to 64 MiB, and fetching them one after another left the disk idle.
    for (let part = 0, next = parts > 0 ? download(0) : undefined; next !== undefined; part++) {
      const decoded = await next;
      next = part + 1 < parts ? download(part + 1) : undefined;
      const outcome = applySegment(this.options.rootDir, decoded);
      accountsChanged ||= outcome.accountsChanged;
    }
    writeAppliedSeq(this.options.rootDir, seq);
    this.appliedSeq = seq;
    if (accountsChanged) this.options.onAccountsChanged();
    log.info(`replica synced from checkpoint ${seq} (${parts} parts) in ${Date.now() - started} ms`);
  }
}
