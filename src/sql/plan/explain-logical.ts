// Text form of a logical plan, one line per node indented by depth: the node kind, what it decided and its
// output columns. EXPLAIN (VERBOSE) prints it after optimization; optimizer tests compare plans through it.
// Expressions print as calls over input columns by name (`>(x, 3)`), so a line reads without the schema.
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { LogicalPlan } from './logical-plan.js';
import type { TimestampInterval } from '../../types/intervals.js';
import { inputsOf } from './plan-walk.js';
import { formatTimestamp } from '../../types/timestamp.js';
import { assertNever } from '../../core/assert.js';

export function explainLogical(plan: LogicalPlan, depth = 0): string[] {
  const line = `${'    '.repeat(depth)}${describeNode(plan)}`;
  return [line, ...inputsOf(plan).flatMap((input) => explainLogical(input, depth + 1))];
}

function describeNode(plan: LogicalPlan): string {
  switch (plan.kind) {
    case 'scan': return `Scan ${plan.snapshot.meta.name} [${names(plan.columns)}]${plan.intervals === undefined ? '' : ` intervals: ${intervalsText(plan.intervals)}`}${plan.ranges === undefined ? '' : ` ranges: ${plan.ranges.length}`}`;
    case 'parquetFile': return `ParquetFile ${plan.path} [${names(plan.columns)}]`;
    case 'values': return `Values ${plan.label} [${names(plan.columns)}]`;
    case 'longSequence': return `LongSequence ${plan.count}`;
    case 'singleRow': return 'SingleRow';
    case 'filter': return `Filter ${exprText(plan.predicate, plan.input.columns)}`;
    case 'project': return `Project ${plan.exprs.map((expr, k) => `${exprText(expr, plan.input.columns)} as ${plan.columns[k]?.name ?? '?'}`).join(', ')}`;
    case 'aggregate': return `Aggregate keys: ${plan.keyCount} values: [${plan.aggregates.map((spec) => spec.name).join(', ')}]`;
    case 'countRows': return `CountRows [${names(plan.columns)}]`;
    case 'sample': return `Sample ${plan.sampler.count}${plan.sampler.unit} keys: ${plan.keyCount} values: [${plan.aggregates.map((spec) => spec.name).join(', ')}]${plan.ordered ? ' ordered' : ''}`;
    case 'latest': return `Latest keys: [${plan.keySlots.map((slot) => plan.input.columns[slot]?.name ?? slot).join(', ')}]${plan.predicate === undefined ? '' : ` where ${exprText(plan.predicate, plan.input.columns)}`}`;
    case 'hashJoin': return `HashJoin ${plan.spec.joinType} keys: ${plan.spec.leftKeys.length}`;
    case 'asofJoin': return `AsofJoin ${plan.spec.joinType} keys: ${plan.spec.leftKeys.length}`;
    case 'spliceJoin': return `SpliceJoin keys: ${plan.spec.leftKeys.length}`;
    case 'window': return `Window calls: ${plan.calls.length}`;
    case 'sort': return `Sort [${plan.keys.map((key) => `${plan.input.columns[key.index]?.name ?? key.index}${key.descending ? ' desc' : ''}`).join(', ')}]${plan.keepRows === undefined ? '' : ` keep: ${plan.keepRows}`}`;
    case 'limit': return `Limit ${plan.hi === undefined ? plan.lo : `${plan.lo},${plan.hi}`}`;
    case 'tail': return `Tail ${plan.rows}`;
    case 'setOperation': return `${plan.op}${plan.all ? ' all' : ''}`;
    default: return assertNever(plan, 'logical plan node');
  }
}

function names(columns: readonly OutputColumn[]): string {
  return columns.map((column) => column.name).join(', ');
}

function intervalsText(intervals: readonly TimestampInterval[]): string {
  const bound = (micros: number): string => (Number.isFinite(micros) ? formatTimestamp(micros) : micros < 0 ? 'MIN' : 'MAX');
  return intervals.map((interval) => `[${bound(interval.lo)}, ${bound(interval.hi)}]`).join(',');
}

function exprText(expr: BoundExpr, input: readonly OutputColumn[]): string {
  switch (expr.kind) {
    case 'column': return input[expr.index]?.name ?? `$${expr.index}`;
    case 'constant': return expr.value === null ? 'null' : typeof expr.value === 'string' ? `'${expr.value}'` : expr.value instanceof Uint8Array ? 'binary' : String(expr.value);
    case 'call': {
      const intervals = expr.intervals === undefined ? [] : [intervalsText(expr.intervals)];
      return `${expr.name}(${[...expr.args.map((arg) => exprText(arg, input)), ...intervals].join(', ')})`;
    }
    default: return assertNever(expr, 'bound expression');
  }
}
