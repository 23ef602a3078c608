// LIMIT with QuestDB semantics (1-based, after ORDER BY): `n` first n, `-n` last n, `lo,hi` rows (lo, hi]
// (bounds swapped when lo > hi), `-m,-n` the last m minus the last n, `m,-n` drops the first m and last n.
// Forms that need the total row count buffer the input; the others stream and stop early.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import { concatBatches, sliceBatch } from './vector-ops.js';
import type { LimitRange } from '../plan/limit-rows.js';
export { limitRange } from '../plan/limit-rows.js';
export type { LimitRange };

export class LimitFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;

  constructor(private readonly child: QueryFactory, private readonly limit: LimitRange, private readonly text: string) {
    this.columns = child.columns;
    this.timestampIndex = child.timestampIndex;
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    if (this.limit.needsTotal) return this.openBuffered(input, ctx);
    const { from, to } = this.limit.range(0);
    let position = 0;
    return {
      nextBatch(): ColumnBatch | undefined {
        while (position < to) {
          const batch = input.nextBatch();
          if (batch === undefined) return undefined;
          const start = position;
          position += batch.rowCount;
          const lo = Math.max(from - start, 0);
          const hi = Math.min(to - start, batch.rowCount);
          if (hi > lo) return lo === 0 && hi === batch.rowCount ? batch : sliceBatch(batch, lo, hi);
        }
        return undefined;
      },
      close: () => input.close(),
    };
  }

  private openBuffered(input: Cursor, ctx: ExecContext): Cursor {
    let done = false;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (done) return undefined;
        done = true;
        const all = concatBatches(drain(input, ctx), this.columns.map((column) => column.type));
        const { from, to } = this.limit.range(all.rowCount);
        return to > from ? sliceBatch(all, from, to) : { rowCount: 0, vectors: all.vectors };
      },
      close: () => input.close(),
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, `Limit ${this.text}`), ...this.child.explain(depth + 1)];
  }
}
