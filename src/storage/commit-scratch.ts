// A table writer's reused arrays for the per-row working data of one commit: the designated timestamps as
// order keys and the SYMBOL columns' keys. Allocated per commit they were 12 bytes a row of external memory
// (two thirds of what the primary allocated per ILP row once staged reads were reused), which V8 counts
// against the old generation's limit until a scavenge frees it; the primary allocates little on its heap, so
// scavenges are rare and those arrays set off full GCs under sustained ingest. Invariants: an array handed
// out is valid until the same slot is asked for again (the writer's next commit); a slot keeps at most
// commitScratchRowsMax rows, and a larger commit gets arrays of its own.
import { assert } from '../core/assert.js';
import { commitScratchRowsMax } from '../core/limits.js';

export class CommitScratch {
  private float64s = new Float64Array(0);
  /** By slot (a column index). */
  private readonly int32s: Int32Array[] = [];

  /** `rows` doubles, valid until the next call. */
  float64(rows: number): Float64Array {
    assert(Number.isSafeInteger(rows) && rows >= 0, 'scratch rows are a whole, non-negative count');
    if (rows > commitScratchRowsMax) return new Float64Array(rows);
    if (this.float64s.length < rows) this.float64s = new Float64Array(Math.min(commitScratchRowsMax, Math.max(rows, this.float64s.length * 2)));
    return this.float64s.subarray(0, rows);
  }

  /** `rows` int32 values for `slot`, valid until the next call for the same slot. */
  int32(slot: number, rows: number): Int32Array {
    assert(Number.isSafeInteger(slot) && slot >= 0 && Number.isSafeInteger(rows) && rows >= 0, 'a scratch slot and its rows are whole, non-negative numbers');
    if (rows > commitScratchRowsMax) return new Int32Array(rows);
    const kept = this.int32s[slot];
    if (kept !== undefined && kept.length >= rows) return kept.subarray(0, rows);
    const grown = new Int32Array(Math.min(commitScratchRowsMax, Math.max(rows, (kept?.length ?? 0) * 2)));
    this.int32s[slot] = grown;
    return grown.subarray(0, rows);
  }
}
