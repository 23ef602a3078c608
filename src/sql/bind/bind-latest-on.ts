// LATEST ON ts PARTITION BY k1[, k2] (and legacy LATEST BY k): wraps the FROM source so that it yields only the
// newest row per key tuple. The WHERE predicate is consumed here, because QuestDB filters before picking the
// newest row. The physical planner reads a table whose designated timestamp is the LATEST ON column backwards
// (with interval pruning of the predicate); other sources take a forward max-by-timestamp pass.
import type { SelectQuery } from '../syntax/ast.js';
import type { BoundExpr } from './bound.js';
import type { BoundSource } from './bind-source.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { latestPlan } from '../plan/plan-builders.js';
import { bindExpression } from './bind-expression.js';
import { sqlSemanticError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';

export interface LatestOnBinding {
  /** The source to plan the rest of the SELECT over. */
  readonly source: BoundSource;
  /** The predicate still to apply over `source` (undefined once LATEST ON consumed it). */
  readonly predicate: BoundExpr | undefined;
}

export function bindLatestOn(query: SelectQuery, source: BoundSource, predicate: BoundExpr | undefined): LatestOnBinding {
  const clause = query.latestOn;
  if (clause === undefined) return { source, predicate };
  const scope = source.scope;
  let timestampIndex = source.timestampIndex;
  if (clause.timestamp !== undefined) {
    timestampIndex = scope.find(clause.timestamp.name, undefined, clause.timestamp.position);
    const type = scope.columns[timestampIndex]?.type;
    if (type !== 'TIMESTAMP' && type !== 'TIMESTAMP_NS') throw sqlSemanticError(`latest on column must be of TIMESTAMP type [column=${clause.timestamp.name}]`, clause.timestamp.position);
  } else if (timestampIndex < 0) {
    throw sqlSemanticError('base query does not provide designated TIMESTAMP column', query.position);
  }
  const timestampSlot = scope.slotOf(timestampIndex);
  const keySlots = clause.partitionBy.map((expr) => {
    const bound = bindExpression(expr, { scope, clause: 'LATEST ON' });
    assert(bound.kind === 'column', 'PARTITION BY items are parsed as column references');
    return bound.index;
  });
  const designated = timestampIndex === source.timestampIndex;
  return {
    predicate: undefined,
    source: {
      scope,
      timestampIndex: source.timestampIndex,
      build: (): LogicalPlan => latestPlan(source.build(), { predicate, keySlots, timestampSlot, designated }),
    },
  };
}
