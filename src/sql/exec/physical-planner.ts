// The physical planner: an optimized logical plan → the tree of exec factories that runs it, one node kind at a
// time, in one switch. It chooses no rewrite of its own: what to compute was settled by the binder and the
// optimizer passes; here only each node's operator is picked (a top-N sort when LIMIT keeps few rows, a backward
// scan for LATEST ON over its table's designated timestamp).
// Ownership: a function that receives child factories owns them from entry, including when it throws.
import type { QueryFactory } from './operator.js';
import type { CountRowsPlan, LatestPlan, LimitPlan, LogicalPlan, SamplePlan, ScanPlan } from '../plan/logical-plan.js';
import { FilterFactory, LongSequenceFactory, ProjectFactory, SingleRowFactory } from './basic-operators.js';
import { TableScanFactory } from './scan.js';
import { ParquetFileScanFactory } from './parquet-file-scan.js';
import { MaterializedFactory } from './materialized.js';
import { GroupByFactory } from './group-by.js';
import { FilteredCountFactory, RowCountFactory } from './scan-shortcuts.js';
import { SampleByFactory } from './sample-by.js';
import { SampleFillFactory } from './sample-fill.js';
import { NanosBucketFactory } from './sample-by-nanos.js';
import { LatestOnFactory, LatestOnScanFactory } from './latest-on.js';
import { HashJoinFactory } from './hash-join.js';
import { AsofJoinFactory } from './asof-join.js';
import { SpliceJoinFactory } from './splice-join.js';
import { WindowFactory } from './window.js';
import { orderBy } from './top-n.js';
import { LimitFactory, limitRange } from './limit.js';
import { SetOperationFactory } from './set-operations.js';
import { latestReadsScanBackwards } from '../plan/plan-builders.js';
import { assert, assertNever } from '../../core/assert.js';

export function physicalPlan(plan: LogicalPlan): QueryFactory {
  const factory = physicalNode(plan);
  assert(factory.columns.length === plan.columns.length, `the ${plan.kind} operator yields the plan's columns`);
  return factory;
}

function physicalNode(plan: LogicalPlan): QueryFactory {
  switch (plan.kind) {
    case 'scan': return scanFactory(plan);
    case 'parquetFile': return new ParquetFileScanFactory(plan.path, plan.reader, plan.fileColumns, plan.used, plan.timestampIndex);
    case 'values': return new MaterializedFactory(plan.columns, plan.rows, plan.label);
    case 'longSequence': return new LongSequenceFactory(plan.count);
    case 'singleRow': return new SingleRowFactory();
    case 'filter': return new FilterFactory(physicalPlan(plan.input), plan.predicate);
    case 'project': return new ProjectFactory(physicalPlan(plan.input), plan.exprs, plan.columns.map((column) => column.name), plan.timestampIndex);
    case 'aggregate': return new GroupByFactory(physicalPlan(plan.input), plan.keyCount, plan.aggregates);
    case 'countRows': return countRowsFactory(plan);
    case 'sample': return sampleFactory(plan);
    case 'latest': return latestFactory(plan);
    case 'hashJoin': return new HashJoinFactory(physicalPlan(plan.left), physicalPlan(plan.right), plan.spec, plan.columns, plan.timestampIndex);
    case 'asofJoin': return new AsofJoinFactory(physicalPlan(plan.left), physicalPlan(plan.right), plan.spec, plan.columns, plan.timestampIndex);
    case 'spliceJoin': return new SpliceJoinFactory(physicalPlan(plan.left), physicalPlan(plan.right), plan.spec, plan.columns);
    case 'window': return new WindowFactory(physicalPlan(plan.input), plan.exprs, plan.windows, plan.calls);
    case 'sort': return orderBy(physicalPlan(plan.input), plan.keys, plan.keepRows);
    case 'limit': return limitFactory(plan);
    case 'tail': return scanFactory(plan.input).tail(plan.rows);
    case 'setOperation': return new SetOperationFactory(physicalPlan(plan.left), physicalPlan(plan.right), plan.op, plan.all, plan.columns, plan.timestampIndex);
    default: return assertNever(plan, 'logical plan node');
  }
}

function scanFactory(plan: ScanPlan): TableScanFactory {
  return new TableScanFactory(plan.snapshot, plan.columnIndexes, plan.ranges, plan.intervals);
}

/** count(*) from the scanned ranges' row counts, or from a filter's match count. */
function countRowsFactory(plan: CountRowsPlan): QueryFactory {
  const input = plan.input;
  if (input.kind === 'scan') return new RowCountFactory(scanFactory(input), plan.columns);
  return new FilteredCountFactory(new FilterFactory(physicalPlan(input.input), input.predicate), plan.columns);
}

/** SampleBy, then Fill unless FILL(NONE), then ns buckets widened back when the timestamp is TIMESTAMP_NS. */
function sampleFactory(plan: SamplePlan): QueryFactory {
  const range = { ...(plan.from === undefined ? {} : { from: plan.from }), ...(plan.to === undefined ? {} : { to: plan.to }) };
  const input = physicalPlan(plan.input);
  let sampled: SampleByFactory | SampleFillFactory = new SampleByFactory(input, { keyCount: plan.keyCount, aggregates: plan.aggregates, sampler: plan.sampler, ordered: plan.ordered, ...range });
  if (plan.fills !== undefined) sampled = new SampleFillFactory(sampled, { keyCount: plan.keyCount, fills: plan.fills, sampler: plan.sampler, ...range });
  return plan.nanos ? new NanosBucketFactory(sampled) : sampled;
}

/** Over a table scan by its designated timestamp, LATEST ON reads backwards; other inputs take a max-by-timestamp pass. */
function latestFactory(plan: LatestPlan): QueryFactory {
  if (latestReadsScanBackwards(plan)) return new LatestOnScanFactory(scanFactory(plan.input), plan.keySlots, plan.predicate);
  const child = physicalPlan(plan.input);
  return new LatestOnFactory(plan.predicate === undefined ? child : new FilterFactory(child, plan.predicate), plan.keySlots, plan.timestampSlot);
}

function limitFactory(plan: LimitPlan): QueryFactory {
  const child = physicalPlan(plan.input);
  const text = plan.hi === undefined ? `${plan.lo}` : `${plan.lo},${plan.hi}`;
  return new LimitFactory(child, limitRange(plan.lo, plan.hi), text);
}
