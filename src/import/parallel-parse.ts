// Parallel conversion of one upload: cuts the byte stream into pieces at line ends and has the process's
// parse threads convert them. It runs only while no quote has appeared, because then every line end is a
// record boundary. Each converted piece is placed in the staging segment in upload order (its rows and text
// bytes reserved there), and the thread that holds its rows then writes them. At the first quote, or when no
// line end arrives within the piece buffer, it stops and hands back the bytes not yet sent (they start at a
// record boundary); the session converts the rest itself. Invariant: pieces are placed in upload order, once.
// Piece buffers are shared with the threads (SharedArrayBuffer), never transferred, so that no buffer of this
// thread is ever detached (V8 then keeps its fast typed-array code for every query the process answers). Ownership
// is still handed over: a sent buffer is not written here until its thread hands it back with the piece's result.
import { assert } from '../core/assert.js';
import { errorFromPayload, ImportError } from '../core/errors.js';
import { importPieceBytes, importPiecesInFlightPerThread } from './import-limits.js';
import type { ParseSetup, PieceResult } from './parse-messages.js';
import type { ParsePool, PoolSession } from './parse-pool.js';
import { RecordAbortError } from './record-converter.js';
import type { StagingPlacer } from './staging.js';

const BYTE_QUOTE = 0x22;
const BYTE_LF = 0x0a;
/** The piece buffer holds a full piece plus the incomplete record after it; a line longer than that stops parallel parsing. */
const PIECE_BUFFER_BYTES = 2 * importPieceBytes;

/** A piece buffer the threads can read without a transfer; its memory is faulted in as it is first filled. */
function newPieceBuffer(): Buffer<SharedArrayBuffer> {
  return Buffer.from(new SharedArrayBuffer(PIECE_BUFFER_BYTES));
}

type Converted = Extract<PieceResult, { kind: 'done' | 'abort' | 'failed' }>;

export class ParallelParse {
  /** Records of the pieces already placed (header and rejected records included). */
  recordsHandled = 0;
  rowsImported = 0;
  readonly columnErrors: Float64Array;
  piecesSent = 0;
  private readonly session: PoolSession;
  private piece: Buffer<SharedArrayBuffer> = newPieceBuffer();
  private filled = 0;
  /** Pieces placed, in order, and pieces whose rows are written. */
  private placed = 0;
  private written = 0;
  private readonly converted = new Map<number, { readonly result: Converted; readonly thread: number }>();
  private failure: unknown = undefined;
  private waiters: (() => void)[] = [];
  private closed = false;
  /** Piece buffers the threads handed back, for reuse. */
  private readonly spareBuffers: Buffer<SharedArrayBuffer>[] = [];

  constructor(pool: ParsePool, setup: ParseSetup, outputColumnCount: number, private readonly header: boolean, private readonly placer: StagingPlacer) {
    this.columnErrors = new Float64Array(outputColumnCount);
    this.session = pool.openSession(setup, (result, thread) => this.receive(result, thread));
  }

  /**
   * Takes the next bytes of the upload. Returns undefined while parsing stays parallel, or, once it stopped,
   * the bytes not sent to a thread; the caller converts those (and everything after) itself.
   */
  async push(chunk: Buffer): Promise<Buffer | undefined> {
    this.throwIfFailed();
    if (chunk.indexOf(BYTE_QUOTE) >= 0) return this.stop(chunk);
    let offset = 0;
    while (offset < chunk.length) {
      const count = Math.min(PIECE_BUFFER_BYTES - this.filled, chunk.length - offset);
      this.piece.set(chunk.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled < importPieceBytes) continue;
      const cut = this.piece.lastIndexOf(BYTE_LF, this.filled - 1) + 1;
      if (cut === 0) {
        if (this.filled < PIECE_BUFFER_BYTES) continue;
        return this.stop(chunk.subarray(offset));
      }
      await this.send(cut);
    }
    return undefined;
  }

  /** The end of the upload: sends what is left and waits until every piece is written. */
  async finish(): Promise<void> {
    this.throwIfFailed();
    if (this.filled > 0) await this.send(this.filled);
    await this.drain();
    this.close();
  }

  /** Waits until every piece sent is placed and written (or one failed). */
  async drain(): Promise<void> {
    await this.until(() => this.written === this.piecesSent);
    this.throwIfFailed();
  }

  /** Stops: results still on the way are ignored, and a caller waiting for pieces is released with an error. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.close();
    if (this.written !== this.piecesSent) this.fail(new ImportError('the import was stopped'));
  }

  private stop(rest: Buffer): Buffer {
    const pending = Buffer.concat([this.piece.subarray(0, this.filled), rest]);
    this.piece = Buffer.from(new SharedArrayBuffer(0));
    this.filled = 0;
    return pending;
  }

  /** Sends piece bytes [0, cut) to a thread; the rest moves to another buffer because the thread now owns this one. */
  private async send(cut: number): Promise<void> {
    await this.until(() => this.piecesSent - this.written < this.session.threadCount * importPiecesInFlightPerThread);
    this.throwIfFailed();
    const sent = this.piece;
    this.piece = this.spareBuffers.pop() ?? newPieceBuffer();
    this.piece.set(sent.subarray(cut, this.filled));
    this.filled -= cut;
    const seq = this.piecesSent++;
    this.session.send(seq, sent.subarray(0, cut), seq === 0 && this.header ? 1 : 0);
  }

  private receive(result: PieceResult, thread: number): void {
    if (this.failure !== undefined) return;
    switch (result.kind) {
      case 'written':
        this.written++;
        this.wake();
        return;
      case 'write-failed':
        this.fail(errorFromPayload(result.error));
        return;
      default:
        if (result.seq < 0 && result.kind === 'failed') {
          this.fail(errorFromPayload(result.error));
          return;
        }
        this.converted.set(result.seq, { result, thread });
        this.placeReady();
    }
  }

  /** Places every converted piece whose predecessors are placed, and tells its thread where to write. */
  private placeReady(): void {
    for (let next = this.converted.get(this.placed); next !== undefined && this.failure === undefined; next = this.converted.get(this.placed)) {
      this.converted.delete(this.placed);
      const { result, thread } = next;
      if (result.kind === 'abort') {
        this.fail(new RecordAbortError(this.recordsHandled + result.line, result.column));
        return;
      }
      if (result.kind === 'failed') {
        this.fail(errorFromPayload(result.error));
        return;
      }
      try {
        this.placer.addDroppedRows(result.droppedRows);
        this.session.write(thread, result.seq, result.parts.map((part) => this.placer.place(part)));
      } catch (error) {
        this.fail(error);
        return;
      }
      if (this.spareBuffers.length < this.session.threadCount * importPiecesInFlightPerThread) this.spareBuffers.push(Buffer.from(result.pieceBuffer));
      this.recordsHandled += result.records;
      this.rowsImported += result.rowsImported;
      result.columnErrors.forEach((errors, k) => { this.columnErrors[k] = this.columnErrors[k] + errors; });
      this.placed++;
    }
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.close();
    this.wake();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private async until(condition: () => boolean): Promise<void> {
    while (!condition() && this.failure === undefined) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    assert(this.failure !== undefined || condition(), 'a wait ends when its condition holds or parsing failed');
  }
}
