// Messages between an import session and the parse threads: a session's setup (plain data: the thread
// rebuilds the column plan from it), pieces of the upload that start and end at record boundaries, each
// piece's counters and the sizes of its rows per partition, and where to write those rows. The rows never
// cross threads: the thread that converted a piece writes it into staging once the session has placed it.
// Piece bytes live in SharedArrayBuffers, which a post shares instead of detaching: the first detached buffer of an
// isolate makes V8 recompile its typed-array loops with a detach check per access, for the rest of its life.
import type { ErrorPayload } from '../core/errors.js';
import type { StagingLayout } from '../storage/partition-split.js';
import type { PartPlacement, PartSummary } from '../storage/staged-part-writes.js';
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
  | { readonly kind: 'piece'; readonly session: number; readonly seq: number; readonly bytes: Uint8Array<SharedArrayBuffer>; readonly recordsToSkip: number }
  | { readonly kind: 'write'; readonly session: number; readonly seq: number; readonly placements: PartPlacement[] }
  | { readonly kind: 'end'; readonly session: number };

/** What converting one piece gave; line numbers in `abort` count from the piece's first record (1-based). */
export type PieceResult =
  | {
    readonly kind: 'done'; readonly session: number; readonly seq: number;
    /** The piece's rows, split by partition, stay in the thread until they are placed and written. */
    readonly parts: PartSummary[]; readonly droppedRows: number;
    readonly records: number; readonly rowsImported: number; readonly columnErrors: number[];
    /**
     * The piece's buffer, handed back for the next piece (fewer large allocations, less garbage collection). The
     * thread no longer reads it once it posted this, and the session writes it only after receiving it.
     */
    readonly pieceBuffer: SharedArrayBuffer;
  }
  | { readonly kind: 'abort'; readonly session: number; readonly seq: number; readonly line: number; readonly column: number }
  | { readonly kind: 'failed'; readonly session: number; readonly seq: number; readonly error: ErrorPayload }
  | { readonly kind: 'written'; readonly session: number; readonly seq: number }
  | { readonly kind: 'write-failed'; readonly session: number; readonly seq: number; readonly error: ErrorPayload };
