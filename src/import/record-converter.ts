// Turns the records of an upload, after detection, into storage-form row chunks: lexes the bytes it is given
// (carrying an incomplete trailing record over to the next call), runs the column parsers over each lexed
// block, applies the atomicity mode and hands full chunks to onChunk. The import session runs one for a
// whole upload, a parse thread one per piece. Invariant: every record it lexed is counted exactly once, as
// imported (rowsImported) or rejected (the rest of recordCount, header excepted, plus droppedLongRecords).
// Row rules (QuestDB's where it has one): skipCol nulls a bad value and counts it in its column; skipRow drops
// the row and counts every bad value of it in its column; abort fails with "bad syntax [line=<n>, col=<i>]"
// (n = 1-based record number, header included; i = 0-based file column). A line with more values than the
// header is rejected (or trimmed with skipLev); a line with fewer has nulls in the missing columns; a row whose
// designated timestamp is empty or bad is always rejected. Lexer rejections (extra values, over-long or
// unterminated records) count as handled and rejected under every atomicity mode, as in QuestDB.
import { assert } from '../core/assert.js';
import { ImportError } from '../core/errors.js';
import { batchRowsMax } from '../core/limits.js';
import { assertChunk, type RowChunk } from '../storage/row-chunk.js';
import { BatchBuilder } from './batch-builder.js';
import type { ColumnPlan } from './column-plan.js';
import type { ParseJob } from './column-target.js';
import { CsvLexer, indexAfterLineEnd, lexCsvBlock } from './csv-lexer.js';
import { lexPlainBlock } from './plain-lexer.js';
import { importBlockFieldSlotsMax, importLineBytesMax } from './import-limits.js';

export type ImportAtomicity = 'abort' | 'skipRow' | 'skipCol';

/** atomicity=abort: the first bad value, by record number and file column. */
export class RecordAbortError extends ImportError {
  constructor(readonly line: number, readonly column: number) {
    super(`bad syntax [line=${line}, col=${column}]`);
  }
}

export interface RecordConverterOptions {
  readonly plan: ColumnPlan;
  readonly delimiter: number;
  /** Fields per record, from the first record. */
  readonly width: number;
  readonly atomicity: ImportAtomicity;
  readonly skipLev: boolean;
  /** Rows per emitted chunk, at most batchRowsMax. */
  readonly chunkRowsMax: number;
  /** Records to skip before the first stored row (the header). */
  readonly recordsToSkip: number;
  /** Records of the upload before the first one this converter sees, for the line numbers of errors. */
  readonly recordBase: number;
  /** The input holds no quote character (a parse thread's pieces): complete input takes the plain lexer. */
  readonly quoteFree?: boolean;
  /** Gets each chunk; `release` hands its buffers back for reuse once the consumer no longer reads them. */
  readonly onChunk: (chunk: RowChunk, release: () => void) => Promise<void> | void;
}

const EMPTY = Buffer.alloc(0);

export class RecordConverter {
  readonly lexer: CsvLexer;
  /** Rows stored so far. */
  rowsImported = 0;
  /** Records rejected for being longer than importLineBytesMax while incomplete (not seen by the lexer as records). */
  droppedLongRecords = 0;
  /** Bad values per output column. */
  readonly columnErrors: Float64Array;
  private readonly builder: BatchBuilder;
  private readonly job: ParseJob;
  private tail: Buffer = EMPTY;
  private skippingLongRecord = false;

  constructor(private readonly options: RecordConverterOptions) {
    const { plan, width } = options;
    const rowCapacity = Math.max(1, Math.min(batchRowsMax, Math.floor(importBlockFieldSlotsMax / width)));
    this.lexer = new CsvLexer({ delimiter: options.delimiter, width, rowCapacity, skipExtraValues: options.skipLev, lineBytesMax: importLineBytesMax });
    this.lexer.recordsToSkip = options.recordsToSkip;
    this.builder = new BatchBuilder(plan.outputColumns.map((c) => c.type), options.chunkRowsMax);
    this.columnErrors = new Float64Array(plan.outputColumns.length);
    this.job = {
      buf: EMPTY, fieldStart: this.lexer.fieldStart, fieldEnd: this.lexer.fieldEnd, fieldEscaped: this.lexer.fieldEscaped,
      width, col: 0, rowCount: 0, base: 0, rowBad: new Uint8Array(rowCapacity), markRows: false, nullIsError: false,
      stats: { firstBadRow: -1 },
    };
  }

  /** Starts over on a new, unrelated piece of input; the previous one must have been flushed. */
  reset(recordsToSkip: number): void {
    assert(this.builder.rowCount === 0 && this.tail.length === 0, 'a converter is reset only between complete pieces');
    this.lexer.resetCounters(recordsToSkip);
    this.rowsImported = 0;
    this.droppedLongRecords = 0;
    this.columnErrors.fill(0);
    this.skippingLongRecord = false;
  }

  /** Records seen (header and rejected ones included), plus over-long ones dropped before lexing. */
  recordsHandled(): number {
    return this.lexer.recordCount + this.droppedLongRecords;
  }

  /** Lexes chunk (after the carried incomplete record) and converts every complete record. */
  async consume(chunk: Buffer, atEof: boolean): Promise<void> {
    const { lexer, builder } = this;
    const buf = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    let pos = 0;
    if (this.skippingLongRecord) {
      const next = indexAfterLineEnd(buf, 0);
      if (next < 0) {
        this.tail = EMPTY;
        return;
      }
      this.skippingLongRecord = false;
      pos = next;
    }
    const plain = atEof && this.options.quoteFree === true;
    for (;;) {
      assert(builder.remaining() > 0, 'a full batch is emitted before lexing continues');
      const next = plain ? lexPlainBlock(lexer, buf, pos, buf.length, builder.remaining()) : lexCsvBlock(lexer, buf, pos, buf.length, atEof, builder.remaining());
      if (lexer.rowCount > 0) await this.convertBlock(buf);
      pos = next;
      if (!lexer.stoppedAtLimit) break;
    }
    assert(!atEof || pos === buf.length, 'at the end of input every byte belongs to a record');
    this.tail = pos === buf.length ? EMPTY : Buffer.from(buf.subarray(pos));
    if (this.tail.length > importLineBytesMax) {
      // The record cannot fit: count it as rejected and resynchronise at the first line end past the limit
      // (quotes ignored), as QuestDB does when its roll buffer overflows; the bytes after it are lexed again.
      this.droppedLongRecords++;
      const resume = indexAfterLineEnd(this.tail, importLineBytesMax);
      const rest = resume < 0 ? EMPTY : this.tail.subarray(resume);
      this.tail = EMPTY;
      this.skippingLongRecord = resume < 0;
      if (rest.length > 0) await this.consume(rest, atEof);
    }
  }

  /** Emits the rows converted so far as a (possibly short) chunk. */
  async flush(): Promise<void> {
    const builder = this.builder;
    if (builder.rowCount === 0) return;
    const { chunk, release } = builder.build();
    assert(chunk.columns.length === this.options.plan.outputColumns.length, 'an import chunk has one column per output column');
    assertChunk(chunk, 'import chunk leaving the converter');
    builder.begin();
    await this.options.onChunk(chunk, release);
  }

  /** Parses the lexer's rows into the batch, applies the atomicity mode, emits the batch when full. */
  private async convertBlock(buf: Buffer): Promise<void> {
    const { lexer, builder, job } = this;
    const plan = this.options.plan;
    const rows = lexer.rowCount;
    const base = builder.rowCount;
    assert(rows <= builder.remaining(), 'a block never overflows the batch');
    job.buf = buf;
    job.rowCount = rows;
    job.base = base;
    let anyBad = false;
    let firstBadRow = -1;
    let firstBadColumn = -1;
    for (let col = 0; col < plan.parsers.length; col++) {
      const out = plan.fileToOutput[col];
      job.col = col;
      job.nullIsError = out === plan.timestampIndex;
      job.markRows = job.nullIsError || this.options.atomicity !== 'skipCol';
      job.stats.firstBadRow = -1;
      const errors = plan.parsers[col].parse(job, builder.targets[out]);
      if (errors === 0) continue;
      this.columnErrors[out] += errors;
      anyBad ||= job.markRows;
      if (firstBadRow < 0 || job.stats.firstBadRow < firstBadRow) {
        firstBadRow = job.stats.firstBadRow;
        firstBadColumn = col;
      }
    }
    this.fillMissingColumns(base, rows);
    if (anyBad && this.options.atomicity === 'abort') {
      throw new RecordAbortError(this.options.recordBase + lexer.rowRecord[firstBadRow], firstBadColumn);
    }
    const kept = anyBad ? builder.compact(base, rows, job.rowBad) : rows;
    if (anyBad) job.rowBad.fill(0, 0, rows);
    builder.rowCount += kept;
    this.rowsImported += kept;
    if (builder.remaining() === 0) await this.flush();
  }

  private fillMissingColumns(base: number, rows: number): void {
    const plan = this.options.plan;
    if (plan.fileToOutput.length === plan.outputColumns.length) return;
    const supplied = new Uint8Array(plan.outputColumns.length);
    for (const out of plan.fileToOutput) supplied[out] = 1;
    for (let c = 0; c < supplied.length; c++) if (supplied[c] === 0) this.builder.fillNull(c, base, rows);
  }
}
