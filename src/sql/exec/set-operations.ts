// UNION [ALL], EXCEPT [ALL], INTERSECT [ALL] over two inputs whose columns already have the result types.
// UNION ALL streams the left rows then the right rows. UNION streams the same order, dropping rows already
// seen. EXCEPT / INTERSECT read the right side into a set of row keys first, then stream the left rows not
// in / in it; without ALL they also drop repeated left rows (QuestDB's ALL keeps the left side's duplicates).
// Rows compare by value with NULL equal to NULL; SYMBOL values compare by text across dictionaries.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import { encodeRowKey } from './join-keys.js';
import { gatherBatch } from './vector-ops.js';
import { assert } from '../../core/assert.js';

export type SetOperator = 'union' | 'except' | 'intersect';

export class SetOperationFactory implements QueryFactory {
  constructor(
    private readonly left: QueryFactory, private readonly right: QueryFactory, private readonly operator: SetOperator,
    private readonly all: boolean, readonly columns: readonly OutputColumn[], readonly timestampIndex: number,
  ) {
    assert(left.columns.length === columns.length && right.columns.length === columns.length, 'set operation inputs have the result column count');
  }

  open(ctx: ExecContext): Cursor {
    const leftCursor = this.left.open(ctx);
    let rightCursor: Cursor | undefined;
    try {
      rightCursor = this.right.open(ctx);
    } catch (error) {
      leftCursor.close();
      throw error;
    }
    const close = (): void => {
      try {
        leftCursor.close();
      } finally {
        rightCursor?.close();
      }
    };
    if (this.operator === 'union') return { nextBatch: this.unionBatches(leftCursor, rightCursor, ctx), close };
    return { nextBatch: this.filterBatches(leftCursor, rightCursor, ctx), close };
  }

  private unionBatches(leftCursor: Cursor, rightCursor: Cursor, ctx: ExecContext): () => ColumnBatch | undefined {
    const seen = this.all ? undefined : new Set<string>();
    let leftDone = false;
    return () => {
      for (;;) {
        let batch = leftDone ? undefined : leftCursor.nextBatch();
        if (batch === undefined) {
          leftDone = true;
          batch = rightCursor.nextBatch();
        }
        if (batch === undefined) return undefined;
        ctx.checkCancelled();
        const kept = seen === undefined ? batch : keepRows(batch, (key) => firstTime(seen, key));
        if (kept.rowCount > 0) return kept;
      }
    };
  }

  private filterBatches(leftCursor: Cursor, rightCursor: Cursor, ctx: ExecContext): () => ColumnBatch | undefined {
    let rightKeys: Set<string> | undefined;
    const emitted = this.all ? undefined : new Set<string>();
    const wanted = this.operator === 'intersect';
    return () => {
      rightKeys ??= collectKeys(rightCursor, ctx);
      const keys = rightKeys;
      for (let batch = leftCursor.nextBatch(); batch !== undefined; batch = leftCursor.nextBatch()) {
        ctx.checkCancelled();
        const kept = keepRows(batch, (key) => keys.has(key) === wanted && (emitted === undefined || firstTime(emitted, key)));
        if (kept.rowCount > 0) return kept;
      }
      return undefined;
    };
  }

  explain(depth: number): string[] {
    const name = `${this.operator.charAt(0).toUpperCase()}${this.operator.slice(1)}${this.all ? ' All' : ''}`;
    return [indent(depth, name), ...this.left.explain(depth + 1), ...this.right.explain(depth + 1)];
  }
}

/** Records `key`; true when it was not seen before. */
function firstTime(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

function collectKeys(cursor: Cursor, ctx: ExecContext): Set<string> {
  const keys = new Set<string>();
  for (let batch = cursor.nextBatch(); batch !== undefined; batch = cursor.nextBatch()) {
    ctx.checkCancelled();
    for (let row = 0; row < batch.rowCount; row++) keys.add(encodeRowKey(batch.vectors, row));
  }
  return keys;
}

/** The rows of a batch whose key passes `keep` (called once per row, in order). */
function keepRows(batch: ColumnBatch, keep: (key: string) => boolean): ColumnBatch {
  const selection = new Int32Array(batch.rowCount);
  let count = 0;
  for (let row = 0; row < batch.rowCount; row++) {
    if (keep(encodeRowKey(batch.vectors, row))) selection[count++] = row;
  }
  return count === batch.rowCount ? batch : gatherBatch(batch, selection, count);
}
