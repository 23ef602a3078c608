// Sizes the batches of a scan whose consumer must see cancellation quickly (parallel fragments): the time from
// one batch to the next is the consumer's work on a batch, so the pacer halves the batch while that exceeds a
// target and doubles it back while well under, between a floor and batchRowsMax. A cheap aggregate keeps full
// batches (per-batch overhead stays negligible); a costly per-row filter gets small ones, so the cancellation
// check between batches comes around within the target.
import { batchRowsMax } from '../../core/limits.js';
import { assert } from '../../core/assert.js';

/** Consumer time per batch the pacer aims under, in ms. */
const BATCH_TARGET_MS = 10;

export class BatchPacer {
  private rows: number;
  private lastMs = -1;

  /**
   * `startRows` is where a scan that ran before over the same rows left off (its consumer costs the same now), so
   * a repeated fragment does not climb from the floor again: its batches then fall on the same rows run after
   * run, which keeps kernels' per-range memos (small-int64-memo.ts) hitting.
   */
  constructor(private readonly rowsMin: number, startRows = rowsMin) {
    assert(rowsMin >= 1 && rowsMin <= batchRowsMax, 'the batch floor lies within 1..batchRowsMax');
    this.rows = Math.min(batchRowsMax, Math.max(rowsMin, startRows));
  }

  /** Rows the latest batch was given: where a later scan over the same rows may start. */
  get currentRows(): number {
    return this.rows;
  }

  /** Rows for the next batch; call once per batch handed out. */
  nextRows(): number {
    const now = performance.now();
    if (this.lastMs >= 0) {
      const elapsed = now - this.lastMs;
      if (elapsed > BATCH_TARGET_MS) this.rows = Math.max(this.rowsMin, this.rows >> 1);
      else if (elapsed < BATCH_TARGET_MS / 4) this.rows = Math.min(batchRowsMax, this.rows * 2);
    }
    this.lastMs = now;
    return this.rows;
  }
}
