// The bound form of window functions handed from the binder to the window operator: plain data.
// Expressions are indexes into one list evaluated over the operator's input; window specifications
// (PARTITION BY / ORDER BY) are shared by every call that writes the same OVER clause.
import type { ValueType } from '../../types/column-type.js';
import type { WindowKind } from '../bind/window-functions.js';

export interface WindowOrderKey {
  /** Index into the operator's expression list. */
  readonly exprIndex: number;
  readonly descending: boolean;
  /** Explicit NULLS FIRST / LAST; undefined: nulls are the smallest values. */
  readonly nullsFirst?: boolean;
}

export interface WindowSpecPlan {
  readonly partitionBy: readonly number[];
  readonly orderBy: readonly WindowOrderKey[];
  /** EXPLAIN text of the clause, e.g. `partition by [sym] order by [ts]`. */
  readonly text: string;
}

export type FrameBoundKind = 'unboundedPreceding' | 'preceding' | 'currentRow' | 'following' | 'unboundedFollowing';

export interface FrameBoundPlan {
  readonly kind: FrameBoundKind;
  /** Rows for ROWS frames; order-key units (µs for timestamps) for RANGE frames; 0 when not an offset. */
  readonly offset: number;
}

/**
 * A resolved frame. ROWS bounds count rows; RANGE bounds compare the single ORDER BY key, and CURRENT ROW
 * means the current row's peers (rows with equal order keys). The whole partition is ROWS UNBOUNDED..UNBOUNDED.
 */
export interface FramePlan {
  readonly mode: 'rows' | 'range';
  readonly start: FrameBoundPlan;
  readonly end: FrameBoundPlan;
}

export interface WindowCallPlan {
  readonly kind: WindowKind;
  readonly type: ValueType;
  /** The value argument (cast to the type the kernel reads), or -1 (ranking functions, count(*)). */
  readonly argIndex: number;
  /** lag/lead default value, or -1 for null. */
  readonly defaultIndex: number;
  /** lag/lead distance in rows. */
  readonly offset: number;
  readonly ignoreNulls: boolean;
  /** Index into the operator's window specifications. */
  readonly window: number;
  readonly frame: FramePlan;
  /** EXPLAIN text of the call, e.g. `avg(price) over (partition by [sym] rows between 1 preceding and current row)`. */
  readonly text: string;
}

export const WHOLE_PARTITION: FramePlan = {
  mode: 'rows', start: { kind: 'unboundedPreceding', offset: 0 }, end: { kind: 'unboundedFollowing', offset: 0 },
};

export const RANGE_TO_CURRENT_ROW: FramePlan = {
  mode: 'range', start: { kind: 'unboundedPreceding', offset: 0 }, end: { kind: 'currentRow', offset: 0 },
};

export function frameText(frame: FramePlan): string {
  const bound = (b: FrameBoundPlan): string => {
    switch (b.kind) {
      case 'unboundedPreceding': return 'unbounded preceding';
      case 'unboundedFollowing': return 'unbounded following';
      case 'currentRow': return 'current row';
      default: return `${b.offset} ${b.kind}`;
    }
  };
  return `${frame.mode} between ${bound(frame.start)} and ${bound(frame.end)}`;
}
