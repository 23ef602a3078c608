// The one-pass loop of GROUP BY <symbol> with sum/avg of one DOUBLE column: each row's symbol key picks its group
// through the dense key -> group array and its value is added to that group's sum and count at once, instead of a
// pass that writes every row's group id and a second that reads them back. Sums run in row order per group, as
// sumGroupedNaNNullable's do, so the results are bit-identical to the two-pass path.
import { assert } from '../../core/assert.js';

/**
 * Folds rows [from, rowCount) into `sums`/`counts` by group `dense[key + 1]`; stops at the first row whose key has
 * no group yet (dense value < 0) and returns its index, or rowCount when every row was folded. Null values (NaN)
 * are skipped, null keys (-1) use dense[0].
 */
export function denseSumRows(keys: Int32Array, data: Float64Array, from: number, rowCount: number, dense: Int32Array, sums: Float64Array, counts: Float64Array): number {
  assert(rowCount <= keys.length && rowCount <= data.length, 'dense-sum rows lie inside their key and value vectors');
  for (let row = from; row < rowCount; row++) {
    const group = dense[keys[row] + 1];
    if (group < 0) return row;
    const value = data[row];
    if (value !== value) continue;
    sums[group] = sums[group] + value;
    counts[group] = counts[group] + 1;
  }
  return rowCount;
}
