// A query child that hands out fixed column batches: operator unit tests feed an operator exact rows (batch
// boundaries, nulls, ties) without a table behind it.
import type { ColumnBatch } from '../../src/sql/exec/batch.js';
import type { Cursor, QueryFactory } from '../../src/sql/exec/operator.js';
import type { OutputColumn } from '../../src/sql/bind/bound.js';

export class FixedBatchesFactory implements QueryFactory {
  readonly timestampIndex = -1;

  constructor(readonly columns: readonly OutputColumn[], private readonly batches: readonly ColumnBatch[]) {}

  open(): Cursor {
    let next = 0;
    return { nextBatch: () => this.batches[next++], close: () => undefined };
  }

  explain(): string[] {
    return ['batches'];
  }
}
