// LATEST ON ts PARTITION BY keys: the newest row of every key tuple, output in ascending timestamp order.
// Over a table (ts = designated timestamp) the scan runs backwards from the newest rows and the first row met
// for a key is its latest; with one SYMBOL key and no residual filter the scan stops once every dictionary key
// has been met (NULL rows are then found with a native lastIndexOf over the older rest of the key column).
// Other sources are read forward and keep, per key, the row with the greatest timestamp (ties: the later row).
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent } from './operator.js';
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { CompiledFilter } from '../codegen/compile.js';
import { compileFilter } from '../codegen/compile.js';
import type { PartitionRange, TableScanFactory } from './scan.js';
import { concatBatches, gatherBatch } from './vector-ops.js';
import { KeyIds } from './key-ids.js';
import { assert } from '../../core/assert.js';
import { computedResultCursor } from './result-cursor.js';

/** Collects picked rows (newest first) and returns them in table order. */
class Picks {
  private readonly batches: ColumnBatch[] = [];
  constructor(private readonly columns: readonly OutputColumn[]) {}

  add(batch: ColumnBatch, rowsNewestFirst: Int32Array, count: number): void {
    if (count > 0) this.batches.push(gatherBatch(batch, rowsNewestFirst, count));
  }

  inTableOrder(): ColumnBatch {
    const all = concatBatches(this.batches, this.columns.map((column) => column.type));
    const reverse = new Int32Array(all.rowCount);
    for (let k = 0; k < all.rowCount; k++) reverse[k] = all.rowCount - 1 - k;
    return gatherBatch(all, reverse, all.rowCount);
  }
}

export class LatestOnScanFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
  private readonly filter: CompiledFilter | undefined;

  /** Owns `scan`. `keySlots` are the scan columns of the PARTITION BY keys; `residual` filters before picking. */
  constructor(private readonly scan: TableScanFactory, private readonly keySlots: readonly number[], residual: BoundExpr | undefined) {
    assert(scan.timestampIndex >= 0 && keySlots.length > 0, 'a LATEST ON scan reads the designated timestamp and keys');
    this.columns = scan.columns;
    this.timestampIndex = scan.timestampIndex;
    this.filter = residual === undefined ? undefined : compileFilter(residual);
    // Reads backwards and stops once every key has its latest row, usually inside the newest partition: cold
    // chunks are fetched as the scan meets them (ColdChunksNeeded while the first batch is made), not up front.
    scan.snapshot.forgetScan(scan);
  }

  open(ctx: ExecContext): Cursor {
    let done = false;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (done) return undefined;
        done = true;
        return this.pick(ctx);
      },
      close(): void {},
    };
  }

  private pick(ctx: ExecContext): ColumnBatch {
    const picks = new Picks(this.columns);
    const ids = new KeyIds(this.keySlots.length);
    const state: { seen: Uint8Array; seenCount: number; nullSeen: boolean } = { seen: new Uint8Array(64), seenCount: 0, nullSeen: false };
    const dictionarySize = this.symbolDictionarySize();
    let idBuffer = new Int32Array(0);
    let picked = new Int32Array(0);
    let selection = new Int32Array(0);
    const ranges = this.scan.rowRanges();
    for (let r = ranges.length - 1; r >= 0; r--) {
      const range = ranges[r];
      const input = this.scan.withRanges([range]).openBackward(ctx);
      let remainingHi = range.hi;
      try {
        for (let batch = input.nextBatch(); batch !== undefined; batch = input.nextBatch()) {
          remainingHi -= batch.rowCount;
          const keys = this.keySlots.map((slot) => batch.vectors[slot]);
          if (idBuffer.length < batch.rowCount) {
            idBuffer = new Int32Array(batch.rowCount);
            picked = new Int32Array(batch.rowCount);
            selection = new Int32Array(batch.rowCount);
          }
          ids.assign(keys, batch.rowCount, idBuffer);
          if (state.seen.length < ids.count) state.seen = grow(state.seen, ids.count);
          const rowCount = this.filter === undefined ? identity(selection, batch.rowCount) : this.filter.run(batch, ctx.rt, selection);
          const count = pickNewest(selection, rowCount, idBuffer, state.seen, picked);
          for (let k = 0; k < count; k++) {
            if (isNullKey(keys, picked[k])) state.nullSeen = true;
          }
          state.seenCount += count;
          picks.add(batch, picked, count);
          // Early exit needs the key domain: one SYMBOL column, whose committed dictionary lists every non-null key.
          if (dictionarySize < 0 || state.seenCount - (state.nullSeen ? 1 : 0) < dictionarySize) continue;
          if (state.nullSeen) return picks.inTableOrder();
          if (this.filter === undefined) {
            this.pickNullSymbolRow(ctx, ranges, r, remainingHi, picks);
            return picks.inTableOrder();
          }
        }
      } finally {
        input.close();
      }
    }
    return picks.inTableOrder();
  }

  /** Committed dictionary size of a single SYMBOL key column, or -1 when the keys are of another shape. */
  private symbolDictionarySize(): number {
    if (this.keySlots.length !== 1) return -1;
    const column = this.scan.columnIndexes[this.keySlots[0]];
    if (this.scan.snapshot.meta.columns[column]?.type !== 'SYMBOL') return -1;
    return this.scan.snapshot.txn.symbolCounts[column] ?? -1;
  }

  /** Every non-null symbol has its latest row: the newest NULL-key row in the older rest, if any, is the last pick. */
  private pickNullSymbolRow(ctx: ExecContext, ranges: readonly PartitionRange[], rangeIndex: number, remainingHi: number, picks: Picks): void {
    const keyColumn = this.scan.columnIndexes[this.keySlots[0]];
    for (let r = rangeIndex; r >= 0; r--) {
      const range = ranges[r];
      const hi = r === rangeIndex ? remainingHi : range.hi;
      if (hi <= range.lo) continue;
      const row = this.newestNullKeyRow(range.partitionIndex, keyColumn, range.lo, hi);
      if (row < 0) continue;
      const input = this.scan.withRanges([{ partitionIndex: range.partitionIndex, lo: row, hi: row + 1 }]).open(ctx);
      try {
        const batch = input.nextBatch();
        assert(batch !== undefined && batch.rowCount === 1, 'a one-row range yields one row');
        picks.add(batch, Int32Array.of(0), 1);
      } finally {
        input.close();
      }
      return;
    }
  }

  /**
   * The newest row in [lo, hi) whose SYMBOL key is NULL (-1), or -1. Parquet row groups whose key statistics
   * exclude -1 are not read, so older cold partitions without NULL keys cost no fetch.
   */
  private newestNullKeyRow(partitionIndex: number, keyColumn: number, lo: number, hi: number): number {
    const snapshot = this.scan.snapshot;
    for (const piece of snapshot.rowsMayHoldValueNewestFirst(partitionIndex, keyColumn, lo, hi, -1)) {
      const view = snapshot.column(partitionIndex, keyColumn, piece.lo, piece.hi);
      // A key column added after this partition was written: every row of it is NULL.
      if (view.kind !== 'fixed') return piece.hi - 1;
      const found = new Int32Array(view.bytes.buffer, view.bytes.byteOffset, piece.hi).subarray(piece.lo, piece.hi).lastIndexOf(-1);
      if (found >= 0) return piece.lo + found;
    }
    return -1;
  }

  explain(depth: number): string[] {
    const keys = this.keySlots.map((slot) => this.columns[slot]?.name ?? slot).join(',');
    const filter = this.filter === undefined ? '' : ' filter: compiled';
    return [indent(depth, `LatestBy backward scan keys: [${keys}]${filter}`), ...this.scan.explain(depth + 1)];
  }
}

function identity(selection: Int32Array, count: number): number {
  for (let k = 0; k < count; k++) selection[k] = k;
  return count;
}

/** Walks the selected rows newest first; a row whose key id is not yet seen is picked. Returns the pick count. */
function pickNewest(selection: Int32Array, selected: number, ids: Int32Array, seen: Uint8Array, picked: Int32Array): number {
  let count = 0;
  for (let k = selected - 1; k >= 0; k--) {
    const row = selection[k];
    const id = ids[row];
    if (seen[id] === 0) {
      seen[id] = 1;
      picked[count++] = row;
    }
  }
  return count;
}

function isNullKey(keys: readonly Vector[], row: number): boolean {
  const first = keys[0];
  return keys.length === 1 && first.type === 'SYMBOL' && (first.data as Int32Array)[row] < 0;
}

function grow(seen: Uint8Array, size: number): Uint8Array {
  const grown = new Uint8Array(Math.max(size, seen.length * 2));
  grown.set(seen);
  return grown;
}

/** LATEST ON over any ordered or unordered source: per key, the row with the greatest `timestampSlot` value. */
export class LatestOnFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;

  constructor(private readonly child: QueryFactory, private readonly keySlots: readonly number[], private readonly timestampSlot: number) {
    this.columns = child.columns;
    this.timestampIndex = child.timestampIndex;
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return computedResultCursor(input, () => this.pick(input, ctx));
  }

  private pick(input: Cursor, ctx: ExecContext): ColumnBatch {
    const all = concatBatches(drain(input, ctx), this.columns.map((column) => column.type));
    const ids = new KeyIds(this.keySlots.length);
    const idOfRow = new Int32Array(all.rowCount);
    ids.assign(this.keySlots.map((slot) => all.vectors[slot]), all.rowCount, idOfRow);
    const timestamps = all.vectors[this.timestampSlot].data as Float64Array;
    const best = new Int32Array(ids.count).fill(-1);
    for (let row = 0; row < all.rowCount; row++) {
      const id = idOfRow[row];
      const current = best[id];
      // `>=` lets the later of equal timestamps win; a NULL timestamp never beats a real one.
      if (current < 0 || timestamps[row] >= timestamps[current] || timestamps[current] !== timestamps[current]) best[id] = row;
    }
    const rows = Array.from(best).filter((row) => row >= 0);
    rows.sort((a, b) => (timestamps[a] - timestamps[b]) || a - b);
    return gatherBatch(all, Int32Array.from(rows), rows.length);
  }

  explain(depth: number): string[] {
    const keys = this.keySlots.map((slot) => this.columns[slot]?.name ?? slot).join(',');
    return [indent(depth, `LatestBy keys: [${keys}]`), ...this.child.explain(depth + 1)];
  }
}
