// Join sources → one scope: the left side's columns then the right side's, each keeping its own qualifiers
// (an unqualified name present on both sides is ambiguous). ON is split into equi-keys (one side's
// expression = the other side's) and a residual condition; `ON (a, b)` / USING compare same-named columns.
// The join scope hands out slots lazily like a table scope; build() maps the used slots onto the sides,
// so each side still reads only what the query references. Time-series joins need both designated
// timestamps; the result's designated timestamp is the left one's (none for SPLICE).
import { isArrayType } from '../../types/double-array.js';
import type { ColumnRefExpr, Expr, JoinSource } from '../syntax/ast.js';
import type { BoundExpr } from './bound.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import { asofJoinPlan, hashJoinPlan, spliceJoinPlan } from '../plan/plan-builders.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import { Scope } from './scope.js';
import { bindExpression } from './bind-expression.js';
import { collectColumnRefs } from './expression-walk.js';
import type { JoinOutputColumn } from '../plan/plan-specs.js';
import { sqlSemanticError } from '../../core/errors.js';

/** What a FROM item offers the join binder (the shape of bind-source's BoundSource). */
export interface JoinInput {
  readonly scope: Scope;
  /** Scope index of the designated timestamp, or -1. */
  readonly timestampIndex: number;
  build(): LogicalPlan;
}

/** Equi-keys bound over each side's own columns, and the rest of ON bound over the join's columns. */
interface JoinCondition {
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  readonly residual: BoundExpr | undefined;
}

const TOLERANCE_UNIT_MICROS: Record<string, number> = {
  U: 1, us: 1, T: 1000, ms: 1000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000, d: 86_400_000_000, w: 604_800_000_000,
};

export function bindJoin(join: JoinSource, left: JoinInput, right: JoinInput): JoinInput {
  const joinType = join.joinType;
  if (joinType === 'right' || joinType === 'full') throw sqlSemanticError(`${joinType.toUpperCase()} OUTER JOIN is not supported`, join.position);
  const timeSeries = joinType === 'asof' || joinType === 'lt' || joinType === 'splice';
  if (timeSeries && left.timestampIndex < 0) throw sqlSemanticError('left side of time series join has no timestamp', join.position);
  if (timeSeries && right.timestampIndex < 0) throw sqlSemanticError('right side of time series join has no timestamp', join.position);
  const scope = new Scope([...left.scope.columns, ...right.scope.columns], true);
  const condition = bindCondition(join, left, right, scope);
  const toleranceMicros = toleranceOf(join);
  return {
    scope,
    timestampIndex: joinType === 'splice' ? -1 : left.timestampIndex,
    build: () => buildJoin(join, left, right, scope, condition, toleranceMicros),
  };
}

function toleranceOf(join: JoinSource): number | undefined {
  const tolerance = join.tolerance;
  if (tolerance === undefined) return undefined;
  const unit = TOLERANCE_UNIT_MICROS[tolerance.unit];
  if (unit === undefined) throw sqlSemanticError(`unsupported TOLERANCE unit [unit=${tolerance.unit}]`, tolerance.position);
  return tolerance.value * unit;
}

function bindCondition(join: JoinSource, left: JoinInput, right: JoinInput, scope: Scope): JoinCondition {
  const leftKeys: BoundExpr[] = [];
  const rightKeys: BoundExpr[] = [];
  for (const name of join.using ?? []) {
    leftKeys.push(firstColumn(left.scope, name.name, name.position));
    rightKeys.push(firstColumn(right.scope, name.name, name.position));
    checkKeyTypes(leftKeys[leftKeys.length - 1], rightKeys[rightKeys.length - 1], name.position);
  }
  const residual: Expr[] = [];
  const leftCount = left.scope.columns.length;
  for (const conjunct of join.on === undefined ? [] : conjuncts(join.on)) {
    const key = conjunct.kind === 'binary' && conjunct.op === '=' ? equiKey(conjunct.left, conjunct.right, scope, leftCount) : undefined;
    if (key === undefined) {
      residual.push(conjunct);
      continue;
    }
    const leftKey = bindExpression(key.left, { scope: left.scope, clause: 'JOIN' });
    const rightKey = bindExpression(key.right, { scope: right.scope, clause: 'JOIN' });
    checkKeyTypes(leftKey, rightKey, key.left.position);
    leftKeys.push(leftKey);
    rightKeys.push(rightKey);
  }
  return { leftKeys, rightKeys, residual: bindResidual(join, residual, scope) };
}

function bindResidual(join: JoinSource, residual: readonly Expr[], scope: Scope): BoundExpr | undefined {
  const first = residual[0];
  if (first === undefined) return undefined;
  if (join.joinType === 'asof' || join.joinType === 'lt' || join.joinType === 'splice') {
    throw sqlSemanticError(`unsupported ${join.joinType.toUpperCase()} join expression`, first.position);
  }
  const combined = residual.slice(1).reduce<Expr>((acc, expr) => ({ kind: 'binary', position: expr.position, op: 'and', left: acc, right: expr }), first);
  const bound = bindExpression(combined, { scope, clause: 'JOIN' });
  if (bound.type !== 'BOOLEAN') throw sqlSemanticError('boolean expression expected', first.position);
  return bound;
}

function conjuncts(expr: Expr): Expr[] {
  return expr.kind === 'binary' && expr.op === 'and' ? [...conjuncts(expr.left), ...conjuncts(expr.right)] : [expr];
}

/** `a = b` with all of a's columns on one side and all of b's on the other → (left expression, right expression). */
function equiKey(a: Expr, b: Expr, scope: Scope, leftCount: number): { left: Expr; right: Expr } | undefined {
  const sideA = sideOf(collectColumnRefs(a), scope, leftCount);
  const sideB = sideOf(collectColumnRefs(b), scope, leftCount);
  if (sideA === 'left' && sideB === 'right') return { left: a, right: b };
  if (sideA === 'right' && sideB === 'left') return { left: b, right: a };
  return undefined;
}

function sideOf(refs: readonly ColumnRefExpr[], scope: Scope, leftCount: number): 'left' | 'right' | 'both' | 'none' {
  let side: 'left' | 'right' | 'both' | 'none' = 'none';
  for (const ref of refs) {
    // find() reports unknown and ambiguous names with the position of the reference.
    const refSide = scope.find(ref.name, ref.qualifier, ref.position) < leftCount ? 'left' : 'right';
    side = side === 'none' || side === refSide ? refSide : 'both';
  }
  return side;
}

/** `ON (sym)` on a side that is itself a join: the first (leftmost) column of that name. */
function firstColumn(scope: Scope, name: string, position: number): BoundExpr {
  const lower = name.toLowerCase();
  const index = scope.columns.findIndex((column) => column.name.toLowerCase() === lower);
  if (index < 0) throw sqlSemanticError(`Invalid column: ${name}`, position);
  return { kind: 'column', type: (scope.columns[index] as { type: ValueType }).type, index: scope.slotOf(index), position };
}

/** Key families that compare: numbers with numbers, text (incl. SYMBOL) with text, otherwise the same type. */
function keyFamily(type: ValueType): string {
  if (isNumericType(type)) return 'number';
  if (isTextType(type)) return 'text';
  return type;
}

function checkKeyTypes(left: BoundExpr, right: BoundExpr, position: number): void {
  const unsupported = left.type === 'BINARY' || left.type === 'NULL' || isArrayType(left.type) || isArrayType(right.type);
  if (unsupported || keyFamily(left.type) !== keyFamily(right.type)) {
    throw sqlSemanticError('join column type mismatch', position);
  }
}

function buildJoin(join: JoinSource, left: JoinInput, right: JoinInput, scope: Scope, condition: JoinCondition, toleranceMicros: number | undefined): LogicalPlan {
  const leftCount = left.scope.columns.length;
  const used = scope.usedColumns();
  // Side slots must all be taken before the sides are built: a side scan reads the columns its scope handed out.
  const outputs = used.map((index): JoinOutputColumn => (index < leftCount
    ? { side: 'left', index: left.scope.slotOf(index) }
    : { side: 'right', index: right.scope.slotOf(index - leftCount) }));
  const columns = used.map((index) => {
    const column = scope.columns[index] as { name: string; type: ValueType };
    return { name: column.name, type: column.type };
  });
  const timestampIndex = join.joinType === 'splice' || left.timestampIndex < 0 ? -1 : used.indexOf(left.timestampIndex);
  const { leftKeys, rightKeys, residual } = condition;
  switch (join.joinType) {
    case 'asof': case 'lt': {
      const leftTimestamp = left.scope.slotOf(left.timestampIndex);
      const rightTimestamp = right.scope.slotOf(right.timestampIndex);
      const spec = { joinType: join.joinType, leftKeys, rightKeys, leftTimestamp, rightTimestamp, outputs, toleranceMicros };
      return asofJoinPlan(left.build(), right.build(), spec, columns, timestampIndex);
    }
    case 'splice': {
      const leftTimestamp = left.scope.slotOf(left.timestampIndex);
      const rightTimestamp = right.scope.slotOf(right.timestampIndex);
      return spliceJoinPlan(left.build(), right.build(), { leftKeys, rightKeys, leftTimestamp, rightTimestamp, outputs }, columns);
    }
    default: {
      const joinType = join.joinType === 'left' ? 'left' : leftKeys.length === 0 && residual === undefined ? 'cross' : 'inner';
      return hashJoinPlan(left.build(), right.build(), { joinType, leftKeys, rightKeys, outputs, residual }, columns, timestampIndex);
    }
  }
}
