// The merged rows of a parallel query as a QueryFactory with the compiled query's columns, so the ordinary
// ORDER BY and LIMIT operators (and the result writers) take it from here. 64-bit cells that stayed exact are
// laid out with their exact vector beside the numbers, as storage vectors are.
import type { ColumnBatch, Vector } from '../exec/batch.js';
import type { Cursor, QueryFactory } from '../exec/operator.js';
import { indent } from '../exec/operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { CellValue } from '../exec/materialized.js';
import { vectorFromValues } from '../exec/materialized.js';
import type { MergedCell } from './partial-merge.js';
import { batchRowsMax } from '../../core/limits.js';
import { LONG_NULL_BIG } from '../../types/nulls.js';

export class MergedRowsFactory implements QueryFactory {
  constructor(readonly columns: readonly OutputColumn[], private readonly rows: readonly (readonly MergedCell[])[], readonly timestampIndex: number) {}

  open(): Cursor {
    let next = 0;
    const rows = this.rows;
    const columns = this.columns;
    return {
      nextBatch(): ColumnBatch | undefined {
        if (next >= rows.length) return undefined;
        const chunk = rows.slice(next, next + batchRowsMax);
        next += chunk.length;
        return { rowCount: chunk.length, vectors: columns.map((column, k) => vectorOfCells(column.type, chunk.map((row) => row[k] ?? null))) };
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, 'Parallel merge')];
  }
}

function vectorOfCells(type: OutputColumn['type'], cells: readonly MergedCell[]): Vector {
  if (!cells.some((cell) => typeof cell === 'bigint')) return vectorFromValues(type, cells.filter(isCellValue));
  const exact = new BigInt64Array(cells.length);
  const data = new Float64Array(cells.length);
  for (let row = 0; row < cells.length; row++) {
    const cell = cells[row];
    const value = cell === null || cell === undefined ? LONG_NULL_BIG : BigInt(cell);
    exact[row] = value;
    data[row] = value === LONG_NULL_BIG ? NaN : Number(value);
  }
  return { type, data, exact };
}

function isCellValue(cell: MergedCell): cell is CellValue {
  return typeof cell !== 'bigint';
}
