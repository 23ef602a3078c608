// WHERE over a source: the interval-pruning step of the optimizer applied at plan time. Over a table scan, the
// conjuncts that restrict the designated timestamp become row ranges (whole partitions skipped, bounds found by
// binary search) and leave the compiled filter; whatever remains is filtered row by row as before.
import type { QueryFactory } from './operator.js';
import type { BoundExpr } from '../bind/bound.js';
import { FilterFactory } from './basic-operators.js';
import { TableScanFactory } from './scan.js';
import { extractIntervals } from '../optimize/intervals.js';
import { pruneToRowRanges } from '../optimize/partition-pruning.js';
import { extractNanoIntervals, microsCover } from '../optimize/intervals-ns.js';
import { pruneToRowRangesNanos } from '../optimize/partition-pruning-ns.js';
import { pruneRowGroups } from '../optimize/row-group-pruning.js';

/** Takes ownership of `base`: returns it, or a factory wrapping it, that yields the rows matching `predicate`. */
export function filterSource(base: QueryFactory, predicate: BoundExpr | undefined): QueryFactory {
  if (predicate === undefined) return base;
  const pruned = pruneScan(base, predicate);
  if (pruned !== undefined) return pruned.residual === undefined ? pruned.scan : new FilterFactory(skipRowGroups(pruned.scan, pruned.residual), pruned.residual);
  return new FilterFactory(base instanceof TableScanFactory ? skipRowGroups(base, predicate) : base, predicate);
}

/** Parquet partitions: row groups whose column statistics rule the predicate out leave the scan. */
function skipRowGroups(scan: TableScanFactory, predicate: BoundExpr): TableScanFactory {
  const ranges = scan.rowRanges();
  const kept = pruneRowGroups(scan.snapshot, scan.columnIndexes, ranges, predicate);
  return kept === ranges ? scan : scan.withRanges(kept);
}

/** The scan limited to the predicate's timestamp intervals, and the part of the predicate still to evaluate. */
export function pruneScan(base: QueryFactory, predicate: BoundExpr): { scan: TableScanFactory; residual: BoundExpr | undefined } | undefined {
  if (!(base instanceof TableScanFactory) || base.timestampIndex < 0 || base.ranges !== undefined) return undefined;
  if (base.snapshot.meta.columns[base.snapshot.meta.timestampIndex]?.type === 'TIMESTAMP_NS') {
    const nanos = extractNanoIntervals(predicate, base.timestampIndex);
    if (nanos.intervals === undefined) return undefined;
    return { scan: base.withRanges(pruneToRowRangesNanos(base.snapshot, nanos.intervals), microsCover(nanos.intervals)), residual: nanos.residual };
  }
  const { intervals, residual } = extractIntervals(predicate, base.timestampIndex);
  if (intervals === undefined) return undefined;
  return { scan: base.withRanges(pruneToRowRanges(base.snapshot, intervals), intervals), residual };
}
