// Row groups of Parquet partitions skipped by column statistics: each top-level conjunct of a scan's filter
// that compares a numeric column with a constant (=, <, <=, >, >=, either side) or tests a timestamp against
// interval ranges (`at IN '2024-01'`) bounds that column; a row group whose min/max statistics lie outside a
// bound cannot hold a matching row, so its rows leave the scan ranges.
// The filter still runs on the rows that stay, so bounds only need to be conservative (strict treated as inclusive).
import type { BoundExpr } from '../bind/bound.js';
import type { TableSnapshot } from '../../storage/table-reader.js';
import type { RowRange } from './partition-pruning.js';
import { assert } from '../../core/assert.js';

/** Types whose statistics read as numbers in the expression domain (DATE statistics read as µs, constants are ms). */
const NUMERIC = new Set(['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'TIMESTAMP']);
const FLIPPED: Readonly<Record<string, string>> = { '=': '=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** Inclusive bounds on a scan slot. */
interface SlotBound {
  readonly slot: number;
  readonly lo: number;
  readonly hi: number;
}

function boundsOf(expr: BoundExpr, out: SlotBound[]): void {
  if (expr.kind !== 'call') return;
  if (expr.name === 'and' && expr.args.length === 2) {
    boundsOf(expr.args[0], out);
    boundsOf(expr.args[1], out);
    return;
  }
  const tested = expr.args[0];
  if (expr.name === 'in_interval' && tested?.kind === 'column' && expr.intervals !== undefined && NUMERIC.has(tested.type)) {
    // The ranges are sorted: from the first one's start to the last one's end.
    const first = expr.intervals[0];
    const last = expr.intervals[expr.intervals.length - 1];
    if (first !== undefined && last !== undefined) out.push({ slot: tested.index, lo: first.lo, hi: last.hi });
    return;
  }
  if (FLIPPED[expr.name] === undefined || expr.args.length !== 2) return;
  let [column, constant] = expr.args as [BoundExpr, BoundExpr];
  let op = expr.name;
  if (column.kind === 'constant') {
    [column, constant] = [constant, column];
    op = FLIPPED[op];
  }
  if (column.kind !== 'column' || constant.kind !== 'constant' || !NUMERIC.has(column.type)) return;
  const value = constant.value;
  if (typeof value !== 'number' || Number.isNaN(value) || constant.exact !== undefined) return;
  if (op === '=') out.push({ slot: column.index, lo: value, hi: value });
  else if (op === '<' || op === '<=') out.push({ slot: column.index, lo: -Infinity, hi: value });
  else out.push({ slot: column.index, lo: value, hi: Infinity });
}

/** The ranges without the rows of row groups that statistics exclude; `ranges` unchanged when nothing is skipped. */
export function pruneRowGroups(snapshot: TableSnapshot, columnIndexes: readonly number[], ranges: readonly RowRange[], predicate: BoundExpr): readonly RowRange[] {
  const bounds: SlotBound[] = [];
  boundsOf(predicate, bounds);
  if (bounds.length === 0 || snapshot.partitions.every((partition) => partition.parquet === undefined)) return ranges;
  const kept: RowRange[] = [];
  let skipped = false;
  for (const range of ranges) {
    const parquet = snapshot.partitions[range.partitionIndex]?.parquet;
    if (parquet === undefined) {
      kept.push(range);
      continue;
    }
    const starts = parquet.rowGroupStarts;
    let lo = range.lo;
    for (let group = 0; group < starts.length - 1; group++) {
      const groupLo = Math.max(range.lo, starts[group]);
      const groupHi = Math.min(range.hi, starts[group + 1]);
      if (groupLo >= groupHi) continue;
      const excluded = bounds.some((bound) => {
        const stem = snapshot.meta.columns[columnIndexes[bound.slot]]?.fileStem;
        const statistics = stem === undefined ? undefined : parquet.numericStatistics(stem, group);
        return statistics !== undefined && (statistics.max < bound.lo || statistics.min > bound.hi);
      });
      if (!excluded) continue;
      skipped = true;
      if (groupLo > lo) kept.push({ partitionIndex: range.partitionIndex, lo, hi: groupLo });
      lo = groupHi;
    }
    if (lo < range.hi) kept.push({ partitionIndex: range.partitionIndex, lo, hi: range.hi });
  }
  for (const range of kept) assert(range.lo < range.hi, 'kept row ranges are not empty');
  return skipped ? kept : ranges;
}
