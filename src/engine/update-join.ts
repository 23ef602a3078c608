// Which rows of one partition an UPDATE changes, and the rows its SET expressions are evaluated over.
// Without FROM that is the partition filtered by WHERE. With FROM, target rows pair with the bound source's
// rows (by hash key when WHERE has equi-join conjuncts, see sql/bind/bind-update-source.ts), the whole WHERE
// is evaluated over the joined pairs, and the first matching pair of a target row wins.
import type { ColumnBatch, CompiledFilter, RuntimeHelpers, UpdateSource } from '../sql/compiler.js';
import { gatherBatch, updateKeyText } from '../sql/compiler.js';
import { sqlRuntimeError } from '../core/errors.js';
import { updateJoinPairsMax } from '../core/limits.js';

export interface MatchedRows {
  /** Target rows that change, ascending. */
  readonly rows: Int32Array;
  readonly count: number;
  /** The rows SET expressions read: row k belongs to target row rows[k]. */
  readonly batch: ColumnBatch;
}

function identity(count: number): Int32Array {
  const rows = new Int32Array(count);
  for (let row = 0; row < count; row++) rows[row] = row;
  return rows;
}

export function matchRows(target: ColumnBatch, source: UpdateSource | undefined, filter: CompiledFilter | undefined, rt: RuntimeHelpers): MatchedRows {
  if (source === undefined) {
    if (filter === undefined) return { rows: identity(target.rowCount), count: target.rowCount, batch: target };
    const selection = new Int32Array(target.rowCount);
    const count = filter.run(target, rt, selection);
    return { rows: selection, count, batch: gatherBatch(target, selection, count) };
  }
  const pairs = candidatePairs(target, source, rt);
  const joined: ColumnBatch = {
    rowCount: pairs.count,
    vectors: [...gatherBatch(target, pairs.target, pairs.count).vectors, ...gatherBatch(source.batch, pairs.source, pairs.count).vectors],
  };
  const selection = filter === undefined ? identity(pairs.count) : new Int32Array(pairs.count);
  const selected = filter === undefined ? pairs.count : filter.run(joined, rt, selection);
  // Pairs come in target-row order: the first selected pair of each target row is the one applied.
  const chosen = new Int32Array(selected);
  const rows = new Int32Array(selected);
  let count = 0;
  for (let k = 0; k < selected; k++) {
    const pair = selection[k];
    const row = pairs.target[pair];
    if (count > 0 && rows[count - 1] === row) continue;
    rows[count] = row;
    chosen[count++] = pair;
  }
  return { rows, count, batch: gatherBatch(joined, chosen, count) };
}

function candidatePairs(target: ColumnBatch, source: UpdateSource, rt: RuntimeHelpers): { target: Int32Array; source: Int32Array; count: number } {
  const targetRows: number[] = [];
  const sourceRows: number[] = [];
  const keys = source.targetKeys === undefined ? undefined : source.targetKeys.run(target, rt);
  for (let row = 0; row < target.rowCount; row++) {
    const matches = keys === undefined || source.index === undefined ? undefined : source.index.get(updateKeyText(keys, row));
    if (keys !== undefined && matches === undefined) continue;
    const count = matches === undefined ? source.batch.rowCount : matches.length;
    if (targetRows.length + count > updateJoinPairsMax) {
      throw sqlRuntimeError(`UPDATE ... FROM examines too many row pairs [max=${updateJoinPairsMax}]`, 0);
    }
    for (let k = 0; k < count; k++) {
      targetRows.push(row);
      sourceRows.push(matches === undefined ? k : matches[k]);
    }
  }
  return { target: Int32Array.from(targetRows), source: Int32Array.from(sourceRows), count: targetRows.length };
}
