// QueryFactory (compiled, holds metadata) and Cursor (one run: nextBatch(), close()).
// Whoever opens a cursor closes it, in try/finally. Cursors check the context for cancellation between batches.
import type { ColumnBatch } from './batch.js';
import type { OutputColumn } from '../bind/bound.js';
import type { RuntimeHelpers } from '../codegen/runtime.js';
import { SqlError } from '../../core/errors.js';

export interface ExecContext {
  readonly rt: RuntimeHelpers & { queryNow: number };
  /** Throws when the query was cancelled (timeout, client gone). Called between batches. */
  checkCancelled(): void;
  /** Whether a compiled filter ran (reported by explain=true as jitCompiled). */
  jitCompiled: boolean;
}

export interface Cursor {
  nextBatch(): ColumnBatch | undefined;
  close(): void;
}

export interface QueryFactory {
  readonly columns: readonly OutputColumn[];
  /** Index of the designated timestamp among the output columns, or -1. */
  readonly timestampIndex: number;
  open(ctx: ExecContext): Cursor;
  /** Plan lines for EXPLAIN, indented by depth. */
  explain(depth: number): string[];
}

export interface Cancellation {
  readonly deadlineMs: number;
  cancelled: boolean;
  reason?: string;
}

/** The context each runtime was created for, so work started from inside an expression shares its deadline. */
const contextsByRuntime = new WeakMap<ExecContext['rt'], ExecContext>();

/** The execution context that owns `rt` (a subquery run from a compiled expression uses its cancellation). */
export function execContextOf(rt: ExecContext['rt']): ExecContext | undefined {
  return contextsByRuntime.get(rt);
}

export function createExecContext(rt: ExecContext['rt'], cancellation: Cancellation, timeoutMs: number): ExecContext {
  const ctx: ExecContext = {
    rt,
    jitCompiled: false,
    checkCancelled(): void {
      if (cancellation.cancelled) throw new SqlError(cancellation.reason ?? 'cancelled by user', 0, 'SVC_SQL_CANCELLED');
      if (Date.now() > cancellation.deadlineMs) {
        cancellation.cancelled = true;
        throw new SqlError(`timeout, query aborted [timeout=${timeoutMs}ms]`, 0, 'SVC_SQL_TIMEOUT');
      }
    },
  };
  contextsByRuntime.set(rt, ctx);
  return ctx;
}

/** Drains a cursor into an array of batches; the caller closes the cursor. */
export function drain(cursor: Cursor, ctx: ExecContext): ColumnBatch[] {
  const batches: ColumnBatch[] = [];
  for (let batch = cursor.nextBatch(); batch !== undefined; batch = cursor.nextBatch()) {
    ctx.checkCancelled();
    if (batch.rowCount > 0) batches.push(batch);
  }
  return batches;
}

export function indent(depth: number, line: string): string {
  return `${'    '.repeat(depth)}${line}`;
}

/** Both inputs of a join, opened together: if the right side fails to open, the left is closed again. */
export function openBothSides(left: QueryFactory, right: QueryFactory, ctx: ExecContext): { left: Cursor; right: Cursor; close(): void } {
  const leftCursor = left.open(ctx);
  let rightCursor: Cursor;
  try {
    rightCursor = right.open(ctx);
  } catch (error) {
    leftCursor.close();
    throw error;
  }
  return {
    left: leftCursor,
    right: rightCursor,
    close: () => {
      try {
        leftCursor.close();
      } finally {
        rightCursor.close();
      }
    },
  };
}
