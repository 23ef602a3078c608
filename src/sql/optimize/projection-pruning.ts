// Pass: a scan reads only the columns the operators above it use. A projection that only picks columns of
// another projection is merged into it (one operator instead of two), and under a projection, possibly through
// filters, a scan loses the columns neither the projection nor the filters read; their references are
// renumbered. Calls that read a SYMBOL column outside their arguments cannot be renumbered: then the scan stays.
import type { BoundExpr } from '../bind/bound.js';
import type { LogicalPlan, ProjectPlan, ScanPlan } from '../plan/logical-plan.js';
import { filterPlan, projectPlan, scanPlan } from '../plan/plan-builders.js';
import { rewriteBottomUp } from '../plan/plan-walk.js';
import { symbolColumnsOf } from '../plan/expression-refs.js';
import type { OptimizerPass } from './optimizer-pass.js';
import { assertNever } from '../../core/assert.js';

export const projectionPruningPass: OptimizerPass = {
  name: 'projection pruning',
  apply: (plan) => rewriteBottomUp(plan, (node) => (node.kind === 'project' ? pruneScanColumns(mergeProjections(node)) : node)),
};

function mergeProjections(plan: ProjectPlan): ProjectPlan {
  const inner = plan.input;
  if (inner.kind !== 'project' || !plan.exprs.every((expr) => expr.kind === 'column')) return plan;
  const exprs = plan.exprs.map((expr) => (expr.kind === 'column' ? inner.exprs[expr.index] : undefined));
  if (exprs.some((expr, k) => expr === undefined || expr.type !== plan.exprs[k]?.type)) return plan;
  return projectPlan(inner.input, exprs.filter((expr): expr is BoundExpr => expr !== undefined), plan.columns.map((column) => column.name), plan.timestampIndex);
}

/** Under `plan`: filters down to a scan; the scan narrowed to the columns they read, references renumbered. */
function pruneScanColumns(plan: ProjectPlan): ProjectPlan {
  const predicates: BoundExpr[] = [];
  let node: LogicalPlan = plan.input;
  while (node.kind === 'filter') {
    predicates.push(node.predicate);
    node = node.input;
  }
  if (node.kind !== 'scan') return plan;
  const used = new Set<number>();
  for (const expr of [...plan.exprs, ...predicates]) if (!collectColumns(expr, used)) return plan;
  if (used.size === node.columns.length || used.size === 0) return plan;
  const kept = [...used].sort((a, b) => a - b);
  const slotOf = new Map(kept.map((slot, k) => [slot, k]));
  const scan: ScanPlan = { ...scanPlan(node.snapshot, kept.map((slot) => node.columnIndexes[slot])), ...rangesOf(node) };
  let input: LogicalPlan = scan;
  for (const predicate of predicates.reverse()) input = filterPlan(input, renumber(predicate, slotOf));
  return projectPlan(input, plan.exprs.map((expr) => renumber(expr, slotOf)), plan.columns.map((column) => column.name), plan.timestampIndex);
}

function rangesOf(scan: ScanPlan): Pick<ScanPlan, 'ranges' | 'intervals'> {
  return { ...(scan.ranges === undefined ? {} : { ranges: scan.ranges }), ...(scan.intervals === undefined ? {} : { intervals: scan.intervals }) };
}

/** Adds the columns `expr` reads to `used`; false when a call reads a column outside its arguments. */
function collectColumns(expr: BoundExpr, used: Set<number>): boolean {
  switch (expr.kind) {
    case 'column': used.add(expr.index); return true;
    case 'constant': return true;
    case 'call': return symbolColumnsOf(expr)?.length === 0 && expr.args.every((arg) => collectColumns(arg, used));
    default: return assertNever(expr, 'bound expression');
  }
}

function renumber(expr: BoundExpr, slotOf: ReadonlyMap<number, number>): BoundExpr {
  switch (expr.kind) {
    case 'column': return { ...expr, index: slotOf.get(expr.index) ?? -1 };
    case 'constant': return expr;
    case 'call': return { ...expr, args: expr.args.map((arg) => renumber(arg, slotOf)) };
    default: return assertNever(expr, 'bound expression');
  }
}
