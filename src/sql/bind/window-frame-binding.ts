// Frame clauses of OVER (...) → FramePlan. Defaults follow the SQL standard (and QuestDB): without ORDER BY the
// frame is the whole partition; with ORDER BY it is RANGE UNBOUNDED PRECEDING .. CURRENT ROW (peers included).
// RANGE offsets are measured on the designated timestamp in µs (`'1' HOUR PRECEDING`); bounds are inclusive.
import type { FrameBound, OrderItem, WindowFrame } from '../syntax/ast.js';
import type { FrameBoundPlan, FramePlan } from '../plan/window-plan.js';
import { RANGE_TO_CURRENT_ROW, WHOLE_PARTITION } from '../plan/window-plan.js';
import { sqlSemanticError } from '../../core/errors.js';

/** Microseconds per RANGE offset unit, as the parser normalises them. */
const UNIT_MICROS: Readonly<Record<string, number>> = {
  NANOSECOND: 0.001, MICROSECOND: 1, MILLISECOND: 1000, SECOND: 1_000_000, MINUTE: 60_000_000, HOUR: 3_600_000_000, DAY: 86_400_000_000,
};

export function resolveWindowFrame(frame: WindowFrame | undefined, orderBy: readonly OrderItem[], orderedByTimestamp: boolean): FramePlan {
  if (frame === undefined) return orderBy.length === 0 ? WHOLE_PARTITION : RANGE_TO_CURRENT_ROW;
  if (frame.mode === 'groups') throw sqlSemanticError('GROUPS frames are not supported', frame.position);
  if (frame.start.kind === 'unboundedFollowing') throw sqlSemanticError('frame start cannot be UNBOUNDED FOLLOWING', frame.start.position);
  if (frame.end.kind === 'unboundedPreceding') throw sqlSemanticError('frame end cannot be UNBOUNDED PRECEDING', frame.end.position);
  const mode = frame.mode;
  const start = resolveBound(frame.start, mode);
  let end = resolveBound(frame.end, mode);
  const hasOffset = isOffset(start) || isOffset(end);
  if (mode === 'range' && hasOffset) {
    const first = orderBy[0];
    if (first === undefined) throw sqlSemanticError('RANGE with offset PRECEDING/FOLLOWING requires ORDER BY', frame.position);
    if (!orderedByTimestamp) throw sqlSemanticError('RANGE is supported only for queries ordered by designated timestamp', first.expr.position);
  }
  if (frame.exclude === 'currentRow') {
    // Excluding the current row from a frame that ends at it is the same frame ending one row earlier.
    if (mode !== 'rows' || end.kind !== 'currentRow') {
      throw sqlSemanticError('EXCLUDE CURRENT ROW is supported only for ROWS frames ending at CURRENT ROW', frame.end.position);
    }
    if (start.kind === 'currentRow') throw sqlSemanticError('end of window is higher than start of window due to exclusion mode', frame.end.position);
    end = { kind: 'preceding', offset: 1 };
  } else if (frame.exclude === 'group' || frame.exclude === 'ties') {
    throw sqlSemanticError('only EXCLUDE CURRENT ROW and EXCLUDE NO OTHERS are supported', frame.position);
  }
  return { mode, start, end };
}

function isOffset(bound: FrameBoundPlan): boolean {
  return bound.kind === 'preceding' || bound.kind === 'following';
}

function resolveBound(bound: FrameBound, mode: 'rows' | 'range'): FrameBoundPlan {
  if (bound.kind !== 'preceding' && bound.kind !== 'following') return { kind: bound.kind, offset: 0 };
  const offsetExpr = bound.offset;
  const position = offsetExpr?.position ?? bound.position;
  const value = offsetExpr === undefined ? NaN : constantNumber(offsetExpr);
  if (mode === 'rows') {
    if (bound.unit !== undefined) throw sqlSemanticError('time units are allowed in RANGE frames only', position);
    if (!Number.isInteger(value) || value < 0) throw sqlSemanticError('non-negative integer expression expected', position);
    return { kind: bound.kind, offset: value };
  }
  if (!Number.isFinite(value) || value < 0) throw sqlSemanticError('non-negative integer expression expected', position);
  const micros = bound.unit === undefined ? 1 : UNIT_MICROS[bound.unit];
  if (micros === undefined) throw sqlSemanticError(`unsupported time unit: ${bound.unit}`, position);
  return { kind: bound.kind, offset: value * micros };
}

/** Offsets are constants: a number, a negated number, or a numeric string (`'1' HOUR`). */
function constantNumber(expr: NonNullable<FrameBound['offset']>): number {
  if (expr.kind === 'unary' && expr.op === '-') return -constantNumber(expr.operand);
  if (expr.kind !== 'literal') return NaN;
  if (typeof expr.value === 'number') return expr.value;
  if (typeof expr.value === 'bigint') return Number(expr.value);
  if (typeof expr.value === 'string' && expr.value.trim() !== '') return Number(expr.value);
  return NaN;
}
