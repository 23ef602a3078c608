// A factory over rows known up front (metadata queries such as tables() and SHOW TABLES):
// JS values are laid out into vectors once per open.
import type { ColumnBatch, Vector } from './batch.js';
import { allocateVectorData } from './batch.js';
import type { Cursor, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import { dictionaryEncode } from '../codegen/symbol-output.js';
import type { CellValue } from '../plan/plan-specs.js';
export type { CellValue };

export function vectorFromValues(type: OutputColumn['type'], values: readonly CellValue[]): Vector {
  if (type === 'SYMBOL') return dictionaryEncode(values.map((value) => (value === null ? null : String(value))), values.length);
  const data = allocateVectorData(type, values.length);
  values.forEach((value, row) => {
    if (type === 'BOOLEAN') (data as Int8Array)[row] = value === true ? 1 : 0;
    else if (type === 'INT') (data as Int32Array)[row] = value === null ? -2147483648 : Number(value);
    else if (typeof value === 'number' || value === null) (data as unknown[])[row] = value === null ? (ArrayBuffer.isView(data) ? NaN : null) : value;
    else (data as unknown[])[row] = value;
  });
  return { type, data };
}

export class MaterializedFactory implements QueryFactory {
  constructor(readonly columns: readonly OutputColumn[], private readonly rows: () => readonly (readonly CellValue[])[], private readonly label: string, readonly timestampIndex = -1) {}

  open(): Cursor {
    let done = false;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (done) return undefined;
        done = true;
        const rows = this.rows();
        const vectors = this.columns.map((column, k) => vectorFromValues(column.type, rows.map((row) => row[k] ?? null)));
        return { rowCount: rows.length, vectors };
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, this.label)];
  }
}
