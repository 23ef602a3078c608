// The row loop of GROUP BY <symbol> with one sum/avg of a DOUBLE column, over a small dictionary: each row adds its
// value into the [sum, count] pair of its key's slot (key + 1; slot 0 is the null key), with no key -> group lookup
// and no new-group test per row. On the SQL bench's 100 keys that loop takes about half the time of the per-group
// loop (group-by-dense-sum.ts): one dependent load fewer per row, and a slot's sum and count share a cache line.
// Groups are still made in the order of each key's first row, once per batch. A slot's sum runs in row order from
// 0, so moving it into its group's accumulators at the end gives the per-group loop's sums bit for bit.
import { assert } from '../../core/assert.js';

/** Dictionaries up to this many slots (keys + the null key) sum per slot; larger ones keep the per-group loop. */
export const SLOT_SUMS_SLOTS_MAX = 4096;
/**
 * After a batch, new keys are looked for among the slots when there are at most this many slots per batch row
 * (a pass over the slots), else among the batch's rows (a pass over their keys).
 */
const SLOT_SCAN_SLOTS_PER_ROW_MAX = 0.25;

export class SymbolSlotSums {
  /** Per slot: the sum of its non-null values at 2 * slot, their count at 2 * slot + 1. */
  private readonly pairs: Float64Array;
  /** 1 for a slot met with a null value (it makes a group even when it has no non-null value). */
  private readonly nullSeen: Uint8Array;

  constructor(readonly slotCount: number) {
    assert(Number.isInteger(slotCount) && slotCount >= 1 && slotCount <= SLOT_SUMS_SLOTS_MAX, 'slot sums serve small dictionaries only');
    this.pairs = new Float64Array(2 * slotCount);
    this.nullSeen = new Uint8Array(slotCount);
  }

  /**
   * Adds a batch's rows, then gives each key met for the first time in it a group through `newGroup(slot)`, in
   * the order of their first rows; `dense` maps slot -> group (-1: none yet) and `newGroup` must fill it.
   */
  add(keys: Int32Array, values: Float64Array, rowCount: number, dense: Int32Array, newGroup: (slot: number) => void): void {
    assert(rowCount <= keys.length && rowCount <= values.length && dense.length >= this.slotCount, 'slot-sum rows lie inside their vectors and every slot has a dense entry');
    slotSumRows(keys, values, rowCount, this.pairs, this.nullSeen);
    let fresh = -1;
    if (this.slotCount <= rowCount * SLOT_SCAN_SLOTS_PER_ROW_MAX) {
      fresh = freshSlotCount(this.pairs, this.nullSeen, dense, this.slotCount);
      if (fresh === 0) return;
    }
    for (let row = 0; row < rowCount && fresh !== 0; row++) {
      const slot = keys[row] + 1;
      if (dense[slot] >= 0) continue;
      newGroup(slot);
      assert(dense[slot] >= 0, 'newGroup gives the slot a group');
      fresh -= 1;
    }
  }

  /** Adds every slot's sum and count to its group's accumulators (sized for every group `dense` names). */
  moveInto(dense: Int32Array, sums: Float64Array, counts: Float64Array): void {
    for (let slot = 0; slot < this.slotCount; slot++) {
      const group = dense[slot];
      if (group < 0) continue;
      assert(group < sums.length && group < counts.length, 'group accumulators hold every group');
      sums[group] = sums[group] + this.pairs[2 * slot];
      counts[group] = counts[group] + this.pairs[2 * slot + 1];
    }
  }
}

function slotSumRows(keys: Int32Array, values: Float64Array, rowCount: number, pairs: Float64Array, nullSeen: Uint8Array): void {
  for (let row = 0; row < rowCount; row++) {
    const slot = keys[row] + 1;
    const value = values[row];
    if (value === value) {
      const at = slot << 1;
      pairs[at] += value;
      pairs[at + 1] += 1;
    } else {
      nullSeen[slot] = 1;
    }
  }
}

/** Slots that rows have reached but that have no group yet: keys first met in the latest batch. */
function freshSlotCount(pairs: Float64Array, nullSeen: Uint8Array, dense: Int32Array, slotCount: number): number {
  let fresh = 0;
  for (let slot = 0; slot < slotCount; slot++) {
    if (dense[slot] < 0 && (pairs[2 * slot + 1] > 0 || nullSeen[slot] !== 0)) fresh += 1;
  }
  return fresh;
}
