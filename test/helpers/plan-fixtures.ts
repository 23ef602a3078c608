// Inputs for logical plan tests, built by name: a table snapshot stand-in with day partitions (metadata only:
// partitions wholly inside or outside an interval are pruned without reading a column file), bound WHERE
// expressions and select items over its columns, and the aggregate specs the binder makes for count(*) and sum(x).
import type { TableSnapshot } from '../../src/storage/table-reader.js';
import type { BoundExpr } from '../../src/sql/bind/bound.js';
import type { AggregateSpec } from '../../src/sql/plan/plan-specs.js';
import type { ValueType } from '../../src/types/column-type.js';
import type { LogicalPlan } from '../../src/sql/plan/logical-plan.js';
import type { OptimizerPass } from '../../src/sql/optimize/optimizer-pass.js';
import { assertPlanInvariants } from '../../src/sql/plan/plan-invariants.js';
import { explainLogical } from '../../src/sql/plan/explain-logical.js';
import { Scope } from '../../src/sql/bind/scope.js';
import { bindExpression } from '../../src/sql/bind/bind-expression.js';
import { select } from '../unit/sql/syntax/render.js';

const DAY_MICROS = 86_400_000_000;

export interface FakeColumn {
  readonly name: string;
  readonly type: ValueType;
}

/** Table `name` with `days` day partitions of 10 rows from 2024-01-01; `timestampIndex` -1: no designated timestamp. */
export function fakeSnapshot(name: string, columns: readonly FakeColumn[], timestampIndex: number, days = 3): TableSnapshot {
  const first = Date.UTC(2024, 0, 1) * 1000;
  const partitions = Array.from({ length: days }, (_, day) => ({
    entry: { rowCount: 10, minTimestamp: first + day * DAY_MICROS, maxTimestamp: first + (day + 1) * DAY_MICROS - 1 },
    dir: `${name}/${day}`,
    parquet: undefined,
  }));
  // A structural stand-in: the optimizer reads only meta and partition entries for whole-partition intervals.
  const snapshot: unknown = { meta: { name, columns, timestampIndex }, partitions, rowSlice: undefined };
  return snapshot as TableSnapshot;
}

/** `where` (SQL text) bound over `columns` in their order. */
export function boundWhere(where: string, columns: readonly FakeColumn[], table = 't'): BoundExpr {
  const query = select(`select * from ${table} where ${where}`);
  if (query.where === undefined) throw new TypeError('the fixture query has a WHERE');
  const scope = new Scope(columns.map((column) => ({ ...column, qualifiers: [table] })), false);
  return bindExpression(query.where, { scope, clause: 'WHERE' });
}

/** A select-list expression (SQL text) bound over `columns` in their order; aggregates are not bound here. */
export function boundItem(expr: string, columns: readonly FakeColumn[], table = 't'): BoundExpr {
  const item = select(`select ${expr} from ${table}`).columns[0];
  if (item === undefined) throw new TypeError('the fixture query has a select item');
  const scope = new Scope(columns.map((column) => ({ ...column, qualifiers: [table] })), false);
  return bindExpression(item.expr, { scope, clause: 'SELECT' });
}

export function countStar(name = 'count'): AggregateSpec {
  return { kind: 'count', argIndex: -1, argType: undefined, resultType: 'LONG', name };
}

export function sumOf(argIndex: number, name = 'sum'): AggregateSpec {
  return { kind: 'sum', argIndex, argType: 'LONG', resultType: 'LONG', name };
}

/** One pass over `plan`, with the plan invariants checked before and after it; the result as EXPLAIN lines. */
export function explainAfterPass(pass: OptimizerPass, plan: LogicalPlan): string[] {
  assertPlanInvariants(plan);
  const result = pass.apply(plan);
  assertPlanInvariants(result);
  return explainLogical(result);
}
