// The messages between the HTTP thread and the Parquet encoding thread, and the functions that narrow them
// from `unknown` on arrival. A malformed message is a bug in this pair of modules, so it fails an assert.
import { assert, unreachable } from '../core/assert.js';
import type { ErrorPayload } from '../core/errors.js';
import { isColumnTypeName, vectorKindOfType } from '../types/column-type.js';
import type { ValueType } from '../types/column-type.js';
import type { ColumnBatch, Vector, VectorData } from '../sql/exec/batch.js';
import type { ExportColumn, ParquetExportOptions } from './parquet-params.js';

/** What one export needs to set up its writer; sent in the `start` message. */
export interface ParquetThreadInit {
  readonly columns: readonly ExportColumn[];
  readonly options: ParquetExportOptions;
  readonly timestampIndex: number;
}

export interface WireVector {
  readonly type: ValueType;
  readonly data: VectorData;
  readonly exact?: BigInt64Array;
  readonly symbolTableId?: number;
  /** Index of the first entry in symbolsAdded within the table (the count the thread already has). */
  readonly symbolsFrom?: number;
  readonly symbolsAdded?: readonly string[];
}

export interface WireBatch {
  readonly kind: 'batch';
  readonly rowCount: number;
  readonly vectors: readonly WireVector[];
}

/** A thread runs exports one after another: start, batches, end; then it waits for the next start. */
export type ToParquetThread = { readonly kind: 'start'; readonly init: ParquetThreadInit } | WireBatch | { readonly kind: 'end' };

export type FromParquetThread =
  | { readonly kind: 'chunk'; readonly bytes: Uint8Array }
  /** One batch was encoded; the sender may post another. */
  | { readonly kind: 'ack' }
  | { readonly kind: 'done'; readonly rowCount: number }
  | { readonly kind: 'error'; readonly error: ErrorPayload };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function parseFromParquetThread(raw: unknown): FromParquetThread {
  assert(isRecord(raw), 'parquet thread messages are objects');
  switch (raw['kind']) {
    case 'chunk':
      assert(raw['bytes'] instanceof Uint8Array, 'a chunk message carries bytes');
      return { kind: 'chunk', bytes: raw['bytes'] };
    case 'ack': return { kind: 'ack' };
    case 'done':
      assert(typeof raw['rowCount'] === 'number', 'a done message carries the row count');
      return { kind: 'done', rowCount: raw['rowCount'] };
    case 'error': {
      const error = raw['error'];
      assert(isRecord(error) && typeof error['message'] === 'string' && typeof error['code'] === 'string', 'an error message carries an ErrorPayload');
      return { kind: 'error', error: error as unknown as ErrorPayload };
    }
    default: return unreachable(`unknown parquet thread message kind ${String(raw['kind'])}`);
  }
}

export function parseToParquetThread(raw: unknown): ToParquetThread {
  assert(isRecord(raw), 'messages to the parquet thread are objects');
  if (raw['kind'] === 'end') return { kind: 'end' };
  if (raw['kind'] === 'start') {
    const init = raw['init'];
    assert(isRecord(init) && Array.isArray(init['columns']) && isRecord(init['options']) && typeof init['timestampIndex'] === 'number', 'a start message carries columns, options and the timestamp index');
    return { kind: 'start', init: init as unknown as ParquetThreadInit };
  }
  assert(raw['kind'] === 'batch' && typeof raw['rowCount'] === 'number' && Array.isArray(raw['vectors']), 'a batch message has rows and vectors');
  const vectors = raw['vectors'].map((vector: unknown): WireVector => {
    assert(isRecord(vector) && (isColumnTypeName(vector['type']) || vector['type'] === 'NULL' || vector['type'] === 'INTERVAL'), 'a wire vector has a value type');
    return vector as unknown as WireVector;
  });
  return { kind: 'batch', rowCount: raw['rowCount'], vectors };
}

/** Thread side: rebuilds batches, keeping one growing copy of every symbol table the sender has shown. */
export class WireBatchReader {
  private readonly symbolTables = new Map<number, string[]>();

  toBatch(wire: WireBatch): ColumnBatch {
    const vectors = wire.vectors.map((vector): Vector => {
      assert(vector.data.length === wire.rowCount, `a wire vector of ${vectorKindOfType(vector.type)} holds exactly the batch rows`);
      if (vector.symbolTableId === undefined) return { type: vector.type, data: vector.data, exact: vector.exact };
      return { type: vector.type, data: vector.data, symbols: this.symbolTable(vector) };
    });
    return { rowCount: wire.rowCount, vectors };
  }

  private symbolTable(vector: WireVector): readonly string[] {
    const id = vector.symbolTableId;
    assert(id !== undefined, 'symbol vectors name their table');
    let table = this.symbolTables.get(id);
    if (table === undefined) {
      table = [];
      this.symbolTables.set(id, table);
    }
    assert(table.length === vector.symbolsFrom, 'symbol table growth arrives in order');
    if (vector.symbolsAdded !== undefined) for (const symbol of vector.symbolsAdded) table.push(symbol);
    return table;
  }
}
