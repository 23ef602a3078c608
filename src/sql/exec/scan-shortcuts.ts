// Answers that come from the table layout instead of its data: count(*) without keys over a (possibly
// interval-pruned) table scan is the number of rows in the scanned ranges, read from _txn metadata; over a
// filter it is the filter's match count, with no rows gathered; LIMIT -n over a scan reads only the last n rows
// of sorted storage.
import type { ColumnBatch } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { FilterFactory } from './basic-operators.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { AggregateSpec } from './group-by.js';
import { TableScanFactory } from './scan.js';
import { assert } from '../../core/assert.js';

/** One row of count(*) values taken from the scan's row ranges; same columns as the GroupBy it replaces. */
class RowCountFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex = -1;

  constructor(private readonly scan: TableScanFactory, aggregates: readonly AggregateSpec[]) {
    this.columns = aggregates.map((spec) => ({ name: spec.name, type: spec.resultType }));
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

/**
 * A replacement for `GroupBy(input, keyCount, aggregates)` when every aggregate is count(*), there are no keys and
 * the input is a plain table scan (no residual filter); undefined otherwise. Takes ownership of nothing.
 */
export function countFromMetadata(input: QueryFactory, keyCount: number, aggregates: readonly AggregateSpec[]): QueryFactory | undefined {
  if (keyCount !== 0 || aggregates.length === 0 || !(input instanceof TableScanFactory)) return undefined;
  if (!aggregates.every((spec) => spec.kind === 'count' && spec.argIndex < 0)) return undefined;
  assert(aggregates.every((spec) => spec.resultType === 'LONG'), 'count(*) is LONG');
  return new RowCountFactory(input, aggregates);
}

/** One row of count(*) values: the rows a filter matches, counted without gathering them. */
class FilteredCountFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex = -1;

  constructor(private readonly filter: FilterFactory, aggregates: readonly AggregateSpec[]) {
    this.columns = aggregates.map((spec) => ({ name: spec.name, type: spec.resultType }));
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

/**
 * A replacement for `GroupBy(input, 0, aggregates)` when every aggregate is count(*) and the input is a filter:
 * the filter's matches are counted, never gathered into batches. Takes ownership of nothing.
 */
export function countFromFilter(input: QueryFactory, keyCount: number, aggregates: readonly AggregateSpec[]): QueryFactory | undefined {
  if (keyCount !== 0 || aggregates.length === 0 || !(input instanceof FilterFactory)) return undefined;
  if (!aggregates.every((spec) => spec.kind === 'count' && spec.argIndex < 0)) return undefined;
  return new FilteredCountFactory(input, aggregates);
}

/**
 * For LIMIT forms that keep only rows from the end (`-n`, `-m,-n`) directly over a table scan: the scan of just
 * the rows those forms can return. The LIMIT itself still applies on top. Undefined when the shortcut does not fit.
 */
export function tailScan(input: QueryFactory, lo: number, hi: number | undefined): QueryFactory | undefined {
  if (!(input instanceof TableScanFactory) || lo >= 0 || (hi !== undefined && hi >= 0)) return undefined;
  const rows = Math.max(-lo, hi === undefined ? 0 : -hi);
  return input.tail(rows);
}
