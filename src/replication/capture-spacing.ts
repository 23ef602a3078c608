// How far apart a primary starts captures under sustained writes. Every segment costs a fixed amount of CPU
// whatever its size, and on a shared machine most of it is not the primary's: the store's PUT, GET and LIST
// (Swift: tens of ms each), the replica's download, decode and fsyncs. Segments of ILP ingest 500 ms apart are
// 50-100 KB compressed, so their count, not their bytes, is what replication costs. The spacing follows the
// wall time of recent segment uploads (encode, then PUT), which grows as the cores get busy: captures start
// at least UPLOAD_TIME_MULTIPLE times that apart, within [SEGMENT_SPACING_MS, SEGMENT_SPACING_MS_MAX]. An
// idle machine keeps the shortest spacing (lag as before); a loaded one ships fewer, larger segments.
import { assert } from '../core/assert.js';
import { SEGMENT_SPACING_MS, SEGMENT_SPACING_MS_MAX } from './store-layout.js';

/**
 * Spacing ÷ upload time: a segment's upload then takes at most about a quarter of the time between captures.
 * Eight times (and a 2 s bound) was measured: at load 8-10 uploads took 250-300 ms, captures went 2 s apart,
 * and the lag p50 grew from 1.6 s to 2.3 s for no less CPU on the replica or the store.
 */
const UPLOAD_TIME_MULTIPLE = 4;
/** Uploads averaged: one slow PUT (a store hiccup) moves the spacing by a quarter of its excess. */
const UPLOAD_SAMPLES_MAX = 4;

export class CaptureSpacing {
  private readonly uploadMs: number[] = [];

  /** A single-object segment took `elapsedMs` from the start of its encoding to the end of its PUT. */
  noteUpload(elapsedMs: number): void {
    assert(Number.isFinite(elapsedMs) && elapsedMs >= 0, 'an upload time is a finite, non-negative duration');
    this.uploadMs.push(elapsedMs);
    if (this.uploadMs.length > UPLOAD_SAMPLES_MAX) this.uploadMs.shift();
  }

  /** The least time between the starts of two captures now. */
  spacingMs(): number {
    if (this.uploadMs.length === 0) return SEGMENT_SPACING_MS;
    const meanMs = this.uploadMs.reduce((sum, value) => sum + value, 0) / this.uploadMs.length;
    return Math.min(SEGMENT_SPACING_MS_MAX, Math.max(SEGMENT_SPACING_MS, Math.round(meanMs * UPLOAD_TIME_MULTIPLE)));
  }
}
