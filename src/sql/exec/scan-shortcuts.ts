// Answers that come from the table layout instead of its data (chosen by optimize/count-rows.ts): count(*)
// without keys over a (possibly interval-pruned) table scan is the number of rows in the scanned ranges, read
// from _txn metadata; over a filter it is the filter's match count, with no rows gathered.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import type { FilterFactory } from './basic-operators.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { TableScanFactory } from './scan.js';
import { assert } from '../../core/assert.js';

/** One row of count(*) values taken from the scan's row ranges; same columns as the GroupBy it replaces. */
export class RowCountFactory implements QueryFactory {
  readonly timestampIndex = -1;

  constructor(private readonly scan: TableScanFactory, readonly columns: readonly OutputColumn[]) {
    assert(columns.every((column) => column.type === 'LONG'), 'count(*) is LONG');
  }

  open(): Cursor {
    let done = false;
    const scan = this.scan;
    const width = this.columns.length;
    return {
      nextBatch(): ColumnBatch | undefined {
        if (done) return undefined;
        done = true;
        const count = scan.rowCount();
        const vectors = [];
        for (let k = 0; k < width; k++) vectors.push({ type: 'LONG' as const, data: Float64Array.of(count) });
        return { rowCount: 1, vectors };
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, 'Count from metadata'), ...this.scan.explain(depth + 1)];
  }
}


/** One row of count(*) values: the rows a filter matches, counted without gathering them. */
export class FilteredCountFactory implements QueryFactory {
  readonly timestampIndex = -1;

  constructor(private readonly filter: FilterFactory, readonly columns: readonly OutputColumn[]) {
    assert(columns.every((column) => column.type === 'LONG'), 'count(*) is LONG');
  }

  open(ctx: ExecContext): Cursor {
    let done = false;
    const width = this.columns.length;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (done) return undefined;
        done = true;
        const count = this.filter.countMatches(ctx);
        const vectors = [];
        for (let k = 0; k < width; k++) vectors.push({ type: 'LONG' as const, data: Float64Array.of(count) });
        return { rowCount: 1, vectors };
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, 'Count filtered rows'), ...this.filter.explain(depth + 1)];
  }
}


