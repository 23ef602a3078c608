// Pass: WHERE conjuncts on a table's designated timestamp become the scan's row ranges. Over a scan, the
// conjuncts that restrict the designated timestamp turn into intervals, the intervals into row ranges (whole
// partitions skipped from metadata, bounds binary-searched) and leave the filter; the rest stays a filter, and
// row groups of Parquet partitions its statistics exclude leave the ranges too. LATEST ON reading a scan
// backwards gets the same ranges; LATEST ON over anything else filters first, as a filter node.
import type { BoundExpr } from '../bind/bound.js';
import type { FilterPlan, LatestPlan, LogicalPlan, ScanPlan } from '../plan/logical-plan.js';
import type { PartitionRange } from '../plan/plan-specs.js';
import { filterPlan, latestPlan, latestReadsScanBackwards } from '../plan/plan-builders.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import { extractIntervals } from './intervals.js';
import { pruneToRowRanges } from './partition-pruning.js';
import { extractNanoIntervals, microsCover } from './intervals-ns.js';
import { pruneToRowRangesNanos } from './partition-pruning-ns.js';
import { pruneRowGroups } from './row-group-pruning.js';
import type { OptimizerPass } from './optimizer-pass.js';

export const intervalScanPass: OptimizerPass = { name: 'interval scan', apply: (plan) => rewriteBottomUp(plan, intervalScanNode) };

function intervalScanNode(plan: LogicalPlan): LogicalPlan {
  if (plan.kind === 'filter') return filterOverScan(plan);
  if (plan.kind === 'latest') return latestOverScan(plan);
  return plan;
}

function filterOverScan(plan: FilterPlan): LogicalPlan {
  const scan = plan.input;
  if (scan.kind !== 'scan') return plan;
  const pruned = pruneScan(scan, plan.predicate);
  if (pruned === undefined) return filterPlan(skipRowGroups(scan, plan.predicate), plan.predicate);
  return pruned.residual === undefined ? pruned.scan : filterPlan(skipRowGroups(pruned.scan, pruned.residual), pruned.residual);
}

function latestOverScan(plan: LatestPlan): LogicalPlan {
  const predicate = plan.predicate;
  if (predicate === undefined) return plan;
  const options = { keySlots: plan.keySlots, timestampSlot: plan.timestampSlot, designated: plan.designated };
  if (!latestReadsScanBackwards(plan)) return latestPlan(filterOverScan(filterPlan(plan.input, predicate)), { ...options, predicate: undefined });
  const pruned = pruneScan(plan.input, predicate);
  return pruned === undefined ? plan : latestPlan(pruned.scan, { ...options, predicate: pruned.residual });
}

/** The scan limited to the predicate's designated-timestamp intervals, and the part of the predicate left over. */
function pruneScan(scan: ScanPlan, predicate: BoundExpr): { scan: ScanPlan; residual: BoundExpr | undefined } | undefined {
  if (scan.timestampIndex < 0 || scan.ranges !== undefined) return undefined;
  if (scan.snapshot.meta.columns[scan.snapshot.meta.timestampIndex]?.type === 'TIMESTAMP_NS') {
    const nanos = extractNanoIntervals(predicate, scan.timestampIndex);
    if (nanos.intervals === undefined) return undefined;
    return { scan: { ...scan, ranges: pruneToRowRangesNanos(scan.snapshot, nanos.intervals), intervals: microsCover(nanos.intervals) }, residual: nanos.residual };
  }
  const { intervals, residual } = extractIntervals(predicate, scan.timestampIndex);
  if (intervals === undefined) return undefined;
  return { scan: { ...scan, ranges: pruneToRowRanges(scan.snapshot, intervals), intervals }, residual };
}

/** Parquet partitions: row groups whose column statistics rule the predicate out leave the scan. */
function skipRowGroups(scan: ScanPlan, predicate: BoundExpr): ScanPlan {
  const ranges: readonly PartitionRange[] = scan.ranges ?? scan.snapshot.partitions.map((partition, k) => ({ partitionIndex: k, lo: 0, hi: partition.entry.rowCount }));
  const kept = pruneRowGroups(scan.snapshot, scan.columnIndexes, ranges, predicate);
  return kept === ranges ? scan : { ...scan, ranges: kept };
}
