// Entry of an import parse thread: converts pieces of uploads (complete records only) into storage-form rows
// split by partition, with the same RecordConverter the single-threaded path uses, and posts them back with
// their counters. It keeps one column plan per open session and nothing else; it never touches files.
import { parentPort } from 'node:worker_threads';
import { assert } from '../core/assert.js';
import { errorToPayload, ImportError } from '../core/errors.js';
import { splitByPartition, type PartitionedRows } from '../storage/partition-split.js';
import { buildColumnPlan } from './column-plan.js';
import { RecordAbortError, RecordConverter } from './record-converter.js';
import { rowBuffers, type ParseSetup, type PieceResult, type ToParseThread } from './parse-messages.js';

const port = parentPort;
assert(port !== null, 'parse-thread runs as a worker thread');
/** Per open session: its setup and one converter reused for every piece (its buffers are sized once). */
interface ThreadSession {
  readonly setup: ParseSetup;
  readonly converter: RecordConverter;
  /** Rows of the piece being converted, collected by the converter's onChunk. */
  rows: PartitionedRows[];
}

const sessions = new Map<number, ThreadSession>();

function beginSession(setup: ParseSetup): ThreadSession {
  const plan = buildColumnPlan(setup.planInput);
  const state: ThreadSession = {
    setup,
    rows: [],
    converter: new RecordConverter({
      plan, delimiter: setup.delimiter, width: setup.width, atomicity: setup.atomicity, skipLev: setup.skipLev,
      chunkRowsMax: setup.chunkRowsMax, recordsToSkip: 0, recordBase: 0,
      onChunk: (chunk) => { state.rows.push(splitByPartition(chunk, setup.layout)); },
    }),
  };
  return state;
}

async function convertPiece(session: number, seq: number, bytes: Uint8Array, recordsToSkip: number): Promise<PieceResult> {
  const state = sessions.get(session);
  // A session that failed here, or was closed, may still have pieces on the way: they are answered and ignored.
  if (state === undefined) return { kind: 'failed', session, seq, error: errorToPayload(new ImportError('the import was stopped')) };
  const converter = state.converter;
  state.rows = [];
  try {
    converter.reset(recordsToSkip);
    // A piece ends at a record boundary (or is the end of the upload), so its end is an end of input.
    await converter.consume(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), true);
    await converter.flush();
  } catch (error) {
    // The session fails as a whole; a converter left mid-piece is not used again.
    sessions.delete(session);
    if (error instanceof RecordAbortError) return { kind: 'abort', session, seq, line: error.line, column: error.column };
    return { kind: 'failed', session, seq, error: errorToPayload(error) };
  }
  return {
    kind: 'done', session, seq, rows: state.rows, records: converter.recordsHandled(), rowsImported: converter.rowsImported,
    columnErrors: Array.from(converter.columnErrors), pieceBuffer: bytes.buffer as ArrayBuffer,
  };
}

port.on('message', (message: ToParseThread) => {
  switch (message.kind) {
    case 'begin':
      sessions.set(message.session, beginSession(message.setup));
      return;
    case 'end':
      sessions.delete(message.session);
      return;
    case 'piece':
      void convertPiece(message.session, message.seq, message.bytes, message.recordsToSkip).then((result) => {
        port.postMessage(result, result.kind === 'done' ? [...rowBuffers(result.rows), result.pieceBuffer] : []);
      });
      return;
  }
});
