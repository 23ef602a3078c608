// Messages between an import session and the parse threads: a session's setup (plain data: the thread
// rebuilds the column plan from it), pieces of the upload that start and end at record boundaries, and each
// piece's rows (split by partition) and counters. Row buffers travel as transferred ArrayBuffers, not copies.
import type { ErrorPayload } from '../core/errors.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import type { PartitionedRows, StagingLayout } from '../storage/partition-split.js';
import type { ColumnPlanInput } from './column-plan.js';
import type { ImportAtomicity } from './record-converter.js';

export interface ParseSetup {
  readonly planInput: ColumnPlanInput;
  readonly delimiter: number;
  readonly width: number;
  readonly atomicity: ImportAtomicity;
  readonly skipLev: boolean;
  readonly chunkRowsMax: number;
  readonly layout: StagingLayout;
}

export type ToParseThread =
  | { readonly kind: 'begin'; readonly session: number; readonly setup: ParseSetup }
  | { readonly kind: 'piece'; readonly session: number; readonly seq: number; readonly bytes: Uint8Array; readonly recordsToSkip: number }
  | { readonly kind: 'end'; readonly session: number };

/** What converting one piece gave; line numbers in `abort` count from the piece's first record (1-based). */
export type PieceResult =
  | {
    readonly kind: 'done'; readonly session: number; readonly seq: number; readonly rows: PartitionedRows[];
    readonly records: number; readonly rowsImported: number; readonly columnErrors: number[];
    /** The piece's buffer, handed back for the next piece (fewer large allocations, less garbage collection). */
    readonly pieceBuffer: ArrayBuffer;
  }
  | { readonly kind: 'abort'; readonly session: number; readonly seq: number; readonly line: number; readonly column: number }
  | { readonly kind: 'failed'; readonly session: number; readonly seq: number; readonly error: ErrorPayload };

/** The distinct ArrayBuffers under split rows: the transfer list of a message carrying them. */
export function rowBuffers(rows: readonly PartitionedRows[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const split of rows) {
    for (const part of split.parts) {
      for (const column of part.rows.columns) {
        buffers.add(column.bytes.buffer as ArrayBuffer);
        if (column.kind === 'var') buffers.add(column.offsets.buffer as ArrayBuffer);
      }
    }
  }
  return [...buffers];
}

/** Rows as they arrive from a thread: structured cloning turned their Buffers into plain Uint8Arrays. */
export function rowsFromMessage(rows: PartitionedRows): PartitionedRows {
  return { droppedRows: rows.droppedRows, parts: rows.parts.map((part) => ({ ...part, rows: chunkFromMessage(part.rows) })) };
}

function chunkFromMessage(chunk: RowChunk): RowChunk {
  const columns = chunk.columns.map((column): ColumnData => {
    const bytes = Buffer.from(column.bytes.buffer, column.bytes.byteOffset, column.bytes.byteLength);
    return column.kind === 'fixed' ? { kind: 'fixed', width: column.width, bytes } : { kind: 'var', bytes, offsets: column.offsets };
  });
  return { rowCount: chunk.rowCount, columns };
}
