// ORDER BY ... LIMIT n without sorting the input: a bounded set of candidate rows. Each batch is screened
// against the current n-th best value of the first sort key (one comparison per row over the typed array), the
// survivors are gathered, and when the candidates outgrow a bound they are sorted and cut back to n. The final
// sort is the same stable sort ORDER BY uses, over at most a few times n rows, so results equal sort-then-limit.
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { SortKey } from './sort.js';
import { SortFactory, sortPermutation } from './sort.js';
import { concatBatches, gatherBatch } from './vector-ops.js';
export { limitKeepRows } from '../plan/limit-rows.js';
import { assert } from '../../core/assert.js';
import { computedResultCursor } from './result-cursor.js';

/** Beyond ±(2^53 - 1) equal doubles may stand for different 64-bit integers. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** Above this many rows to keep, a full sort is as good as a candidate set. */
const topRowsMax = 100_000;

/** ORDER BY `keys` over `child`, keeping only the first `keepRows` rows when a LIMIT allows it. Owns `child`. */
export function orderBy(child: QueryFactory, keys: readonly SortKey[], keepRows: number | undefined): QueryFactory {
  if (keepRows === undefined || keepRows > topRowsMax) return new SortFactory(child, keys);
  return new TopNFactory(child, keys, keepRows);
}

export class TopNFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;

  constructor(private readonly child: QueryFactory, private readonly keys: readonly SortKey[], private readonly keepRows: number) {
    assert(keys.length > 0 && keepRows >= 0, 'top-N needs sort keys and a row count');
    this.columns = child.columns;
    const first = keys[0];
    this.timestampIndex = first.index === child.timestampIndex && !first.descending ? child.timestampIndex : -1;
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return computedResultCursor(input, () => this.topRows(input, ctx));
  }

  private topRows(input: Cursor, ctx: ExecContext): ColumnBatch {
    const types = this.columns.map((column) => column.type);
    const first = this.keys[0];
    // Distinct ns values may share a double: the screen then lets ties through and the exact sort decides.
    const exactTies = this.columns[first.index]?.type === 'TIMESTAMP_NS';
    const screen = new KeyScreen(this.keepRows, first.descending, first.nullsFirst ?? !first.descending, this.keys.length === 1 && !exactTies);
    const poolRowsMax = Math.max(4 * this.keepRows, 4096);
    let pool: ColumnBatch[] = [];
    let pooled = 0;
    let selection = new Int32Array(0);
    for (let batch = input.nextBatch(); batch !== undefined; batch = input.nextBatch()) {
      ctx.checkCancelled();
      if (this.keepRows === 0 || batch.rowCount === 0) continue;
      let candidates = batch;
      const key = batch.vectors[first.index].data;
      if (key instanceof Float64Array) {
        if (selection.length < batch.rowCount) selection = new Int32Array(batch.rowCount);
        const count = screen.run(key, batch.rowCount, selection);
        if (count === 0) continue;
        candidates = count === batch.rowCount ? batch : gatherBatch(batch, selection, count);
      }
      pool.push(candidates);
      pooled += candidates.rowCount;
      if (pooled >= poolRowsMax) {
        const kept = this.cut(pool, types);
        pool = [kept];
        pooled = kept.rowCount;
      }
    }
    return this.cut(pool, types);
  }

  /** The first `keepRows` rows of the pooled candidates in sort order (stable: pool order breaks ties). */
  private cut(pool: readonly ColumnBatch[], types: readonly OutputColumn['type'][]): ColumnBatch {
    const all = concatBatches(pool, types);
    const order = sortPermutation(all, this.keys);
    const count = Math.min(this.keepRows, all.rowCount);
    return gatherBatch(all, order, count);
  }

  explain(depth: number): string[] {
    const keys = this.keys.map((key) => `${this.columns[key.index]?.name ?? key.index}${key.descending ? ' desc' : ''}`).join(', ');
    return [indent(depth, `Top K lo: ${this.keepRows} keys: [${keys}]`), ...this.child.explain(depth + 1)];
  }
}

/**
 * Screens rows of a DOUBLE/LONG/TIMESTAMP first key: a min-heap of the best `size` scores seen (score = value for
 * DESC, -value for ASC) gives the bar a row must pass. A row passes when it beats the bar, or ties it and later
 * keys may break the tie; null rows pass when nulls sort first, or while fewer than `size` values were seen (a
 * table with fewer values than the LIMIT ends with its nulls). Passing rows may still lose in the final sort,
 * but a row that fails can never be in the top `size`.
 */
class KeyScreen {
  private readonly heap: Float64Array;
  private count = 0;

  constructor(private readonly size: number, private readonly descending: boolean, private readonly nullsFirst: boolean, private readonly strict: boolean) {
    this.heap = new Float64Array(Math.max(size, 1));
  }

  run(data: Float64Array, rowCount: number, selection: Int32Array): number {
    const sign = this.descending ? 1 : -1;
    const nullsFirst = this.nullsFirst;
    let bar = this.count < this.size ? -Infinity : this.heap[0];
    let nullsPass = nullsFirst || this.count < this.size;
    let k = 0;
    // Once the heap is full almost every row fails `score >= bar`: nextCandidate skips those rows in a call-free
    // loop, and the tie rule and the null rule run only for the rows it stops at.
    for (let i = nextCandidate(data, 0, rowCount, sign, bar, nullsPass); i < rowCount; i = nextCandidate(data, i + 1, rowCount, sign, bar, nullsPass)) {
      const score = sign * data[i];
      if (score >= bar) {
        // A tie beyond ±2^53 may hide a larger exact 64-bit value, so it stays a candidate for the exact sort.
        if (score > bar || !this.strict || this.count < this.size || score > SAFE || score < -SAFE) {
          selection[k++] = i;
          bar = this.offer(score);
          nullsPass = nullsFirst || this.count < this.size;
        }
      } else if (nullsPass) {
        // A null (NaN): nulls sorting last still belong to the result while fewer than `size` values were seen.
        selection[k++] = i;
      }
    }
    return k;
  }

  /** Adds a score to the best-`size` heap; returns the new bar (-Infinity until the heap is full). */
  private offer(score: number): number {
    const heap = this.heap;
    if (this.count < this.size) {
      let child = this.count++;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (heap[parent] <= score) break;
        heap[child] = heap[parent];
        child = parent;
      }
      heap[child] = score;
    } else if (score > heap[0]) {
      siftDown(heap, this.count, score);
    }
    return this.count < this.size ? -Infinity : heap[0];
  }
}

/**
 * The first row in [from, to) whose score (`sign` times its value) reaches `bar`, or that is null when
 * `nullsPass`; `to` when there is none. Once the heap is full and nulls sort last, the loop is one comparison of
 * the raw value per row (a null fails it as NaN does), without the multiplication by the sign.
 */
function nextCandidate(data: Float64Array, from: number, to: number, sign: number, bar: number, nullsPass: boolean): number {
  assert(from >= 0 && to <= data.length, 'a screened row range lies inside its key vector');
  if (nullsPass) return nextCandidateOrNull(data, from, to, sign, bar);
  return sign > 0 ? nextAtLeast(data, from, to, bar) : nextAtMost(data, from, to, -bar);
}

/**
 * The first row in [from, to) whose value is >= `bar` (a null never is). Eight rows are screened per step by
 * one chain of comparisons: nearly every block fails as a whole, and only a block that holds a hit (or a null)
 * is looked at row by row.
 */
function nextAtLeast(data: Float64Array, from: number, to: number, bar: number): number {
  let i = from;
  for (; i + 8 <= to; i += 8) {
    if (allBelow(data, i, bar)) continue;
    // A null fails the chain too: look at this block row by row, then go on by blocks.
    for (let row = i; row < i + 8; row++) if (data[row] >= bar) return row;
  }
  for (; i < to; i++) if (data[i] >= bar) return i;
  return to;
}

/** nextAtLeast for ascending keys: -value >= bar exactly when value <= -bar (negation is exact). */
function nextAtMost(data: Float64Array, from: number, to: number, ceiling: number): number {
  let i = from;
  for (; i + 8 <= to; i += 8) {
    if (allAbove(data, i, ceiling)) continue;
    for (let row = i; row < i + 8; row++) if (data[row] <= ceiling) return row;
  }
  for (; i < to; i++) if (data[i] <= ceiling) return i;
  return to;
}

/** Blocks of eight are screened as in nextAtLeast; a block that fails the chain holds a hit, since a null is one. */
function nextCandidateOrNull(data: Float64Array, from: number, to: number, sign: number, bar: number): number {
  let i = from;
  if (sign > 0) {
    while (i + 8 <= to && allBelow(data, i, bar)) i += 8;
  } else {
    const ceiling = -bar;
    while (i + 8 <= to && allAbove(data, i, ceiling)) i += 8;
  }
  for (; i < to; i++) {
    const score = sign * data[i];
    if (score >= bar || score !== score) return i;
  }
  return to;
}

/** Whether rows [i, i + 8) all hold values below `bar` (false when one is null). */
function allBelow(data: Float64Array, i: number, bar: number): boolean {
  return data[i] < bar && data[i + 1] < bar && data[i + 2] < bar && data[i + 3] < bar && data[i + 4] < bar && data[i + 5] < bar && data[i + 6] < bar && data[i + 7] < bar;
}

/** Whether rows [i, i + 8) all hold values above `ceiling` (false when one is null). */
function allAbove(data: Float64Array, i: number, ceiling: number): boolean {
  return data[i] > ceiling && data[i + 1] > ceiling && data[i + 2] > ceiling && data[i + 3] > ceiling && data[i + 4] > ceiling && data[i + 5] > ceiling && data[i + 6] > ceiling && data[i + 7] > ceiling;
}

/** Replaces the heap's root with `score` and restores the min-heap order. */
function siftDown(heap: Float64Array, count: number, score: number): void {
  let parent = 0;
  for (;;) {
    let child = 2 * parent + 1;
    if (child >= count) break;
    if (child + 1 < count && heap[child + 1] < heap[child]) child++;
    if (heap[child] >= score) break;
    heap[parent] = heap[child];
    parent = child;
  }
  heap[parent] = score;
}
