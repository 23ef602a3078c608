// Entry of an import parse thread: converts pieces of uploads (complete records only) into storage-form rows
// split by partition, with the same RecordConverter the single-threaded path uses, reports their sizes and
// counters, and writes them into the staging segment where the session placed them. Rows stay here between
// the two steps; a session that ends (or fails) drops whatever it still holds.
import { parentPort } from 'node:worker_threads';
import { assert } from '../core/assert.js';
import { asStorageError, errorToPayload, ImportError } from '../core/errors.js';
import { realFiles } from '../core/files.js';
import { filesFromEnvironment } from '../core/fault-files.js';
import type { RowChunk } from '../storage/row-chunk.js';
import type { ColumnMeta } from '../storage/table-meta.js';
import { splitByPartition } from '../storage/partition-split.js';
import { stagedColumnMetas } from '../storage/staging-segment.js';
import { summarizePart, writePlacedPart, type PartPlacement, type PartSummary } from '../storage/staged-part-writes.js';
import { buildColumnPlan } from './column-plan.js';
import { RecordAbortError, RecordConverter } from './record-converter.js';
import type { ParseSetup, PieceResult, ToParseThread } from './parse-messages.js';

const port = parentPort;
assert(port !== null, 'parse-thread runs as a worker thread');
/** The same facade as the request's thread, so fault-injection tests reach these writes too. */
const files = filesFromEnvironment(realFiles, process.env);

/** Per open session: one converter reused for every piece, and the rows of pieces not written yet. */
interface ThreadSession {
  readonly converter: RecordConverter;
  readonly metas: readonly ColumnMeta[];
  readonly unwritten: Map<number, { readonly rows: RowChunk[]; readonly releases: (() => void)[] }>;
  /** Collected by the converter's onChunk while a piece is converted. */
  parts: PartSummary[];
  rows: RowChunk[];
  releases: (() => void)[];
  droppedRows: number;
  /**
   * Set when a piece failed to convert: later pieces of the session are refused, but the session stays until
   * its 'end', because pieces converted before the failed one may still be placed and written (the request's
   * thread places in upload order and reports the first failure in that order, so an abort in a late piece
   * must not turn an earlier piece's write into a 'stopped' error that wins over it).
   */
  conversionFailed: boolean;
}

const sessions = new Map<number, ThreadSession>();

function beginSession(setup: ParseSetup): ThreadSession {
  const plan = buildColumnPlan(setup.planInput);
  const state: ThreadSession = {
    metas: stagedColumnMetas(plan.outputColumns),
    unwritten: new Map(),
    parts: [],
    rows: [],
    releases: [],
    droppedRows: 0,
    conversionFailed: false,
    converter: new RecordConverter({
      plan, delimiter: setup.delimiter, width: setup.width, atomicity: setup.atomicity, skipLev: setup.skipLev,
      chunkRowsMax: setup.chunkRowsMax, recordsToSkip: 0, recordBase: 0, quoteFree: true,
      onChunk: (chunk, release) => {
        state.releases.push(release);
        const split = splitByPartition(chunk, setup.layout);
        state.droppedRows += split.droppedRows;
        for (const part of split.parts) {
          state.parts.push(summarizePart(part));
          state.rows.push(part.rows);
        }
      },
    }),
  };
  return state;
}

async function convertPiece(session: number, seq: number, bytes: Uint8Array<SharedArrayBuffer>, recordsToSkip: number): Promise<PieceResult> {
  const state = sessions.get(session);
  // A session that failed here, or was closed, may still have pieces on the way: they are answered and ignored.
  if (state === undefined || state.conversionFailed) return { kind: 'failed', session, seq, error: errorToPayload(new ImportError('the import was stopped')) };
  const converter = state.converter;
  state.parts = [];
  state.rows = [];
  state.releases = [];
  state.droppedRows = 0;
  try {
    converter.reset(recordsToSkip);
    // A piece ends at a record boundary (or is the end of the upload), so its end is an end of input.
    await converter.consume(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), true);
    await converter.flush();
  } catch (error) {
    // The session fails as a whole; a converter left mid-piece is not used again.
    state.conversionFailed = true;
    state.parts = [];
    state.rows = [];
    state.releases = [];
    if (error instanceof RecordAbortError) return { kind: 'abort', session, seq, line: error.line, column: error.column };
    return { kind: 'failed', session, seq, error: errorToPayload(error) };
  }
  state.unwritten.set(seq, { rows: state.rows, releases: state.releases });
  return {
    kind: 'done', session, seq, parts: state.parts, droppedRows: state.droppedRows, records: converter.recordsHandled(),
    rowsImported: converter.rowsImported, columnErrors: Array.from(converter.columnErrors), pieceBuffer: bytes.buffer,
  };
}

function writePiece(session: number, seq: number, placements: readonly PartPlacement[]): PieceResult {
  const state = sessions.get(session);
  const piece = state?.unwritten.get(seq);
  if (state === undefined || piece === undefined) return { kind: 'write-failed', session, seq, error: errorToPayload(new ImportError('the import was stopped')) };
  state.unwritten.delete(seq);
  assert(piece.rows.length === placements.length, 'every part of a piece is placed');
  try {
    piece.rows.forEach((chunk, k) => writePlacedPart(files, state.metas, placements[k], chunk));
  } catch (error) {
    return { kind: 'write-failed', session, seq, error: errorToPayload(asStorageError(error)) };
  }
  // Written: the converter may reuse the buffers of the piece's chunks.
  for (const release of piece.releases) release();
  return { kind: 'written', session, seq };
}

port.on('message', (message: ToParseThread) => {
  switch (message.kind) {
    case 'begin':
      sessions.set(message.session, beginSession(message.setup));
      return;
    case 'end':
      sessions.delete(message.session);
      return;
    case 'write':
      port.postMessage(writePiece(message.session, message.seq, message.placements));
      return;
    case 'piece':
      void convertPiece(message.session, message.seq, message.bytes, message.recordsToSkip).then((result) => {
        // The piece buffer is shared, so posting it back detaches nothing; nothing here keeps a view of it.
        port.postMessage(result);
      });
      return;
  }
});
