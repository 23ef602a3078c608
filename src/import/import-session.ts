// Drives one upload: buffers the first chunks until analysisMaxLines records (or the end) have arrived,
// detects delimiter, header and types, then streams every record through the lexer and column parsers into
// storage-form row chunks of at most batchRowsMax rows, handed to onBatch (awaited, so a slow consumer slows
// the upload).
// Invariants: rowsHandled = rowsImported + rowsRejected at every step; once a call has failed the session
// stays failed and rethrows that error; nothing is reused in a batch after it has been emitted.
// Row rules (QuestDB's where it has one): skipCol nulls a bad value and counts it in its column; skipRow drops
// the row and counts every bad value of it in its column; abort fails with "bad syntax [line=<n>, col=<i>]"
// (n = 1-based record number, header included; i = 0-based file column). A line with more values than the
// header is rejected (or trimmed with skipLev); a line with fewer has nulls in the missing columns; a row whose
// designated timestamp is empty or bad is always rejected. Lexer rejections (extra values, over-long or
// unterminated records) count as handled and rejected under every atomicity mode, as in QuestDB.
import { assert } from '../core/assert.js';
import { ImportError } from '../core/errors.js';
import { batchRowsMax } from '../core/limits.js';
import { STORAGE_WIDTH_BYTES, type ColumnType } from '../types/column-type.js';
import { assertChunk, type RowChunk } from '../storage/row-chunk.js';
import { BatchBuilder } from './batch-builder.js';
import type { ColumnPlan } from './column-plan.js';
import type { ParseJob } from './column-target.js';
import { CsvLexer, indexAfterLineEnd, lexCsvBlock } from './csv-lexer.js';
import { analyseUpload, RecordCounter } from './import-analysis.js';
import { importAnalysisBytesMax, importBatchBytesMax, importBlockFieldSlotsMax, importLineBytesMax } from './import-limits.js';
import type { ImportSchema } from './schema-part.js';

export type ImportAtomicity = 'abort' | 'skipRow' | 'skipCol';

export interface ImportSessionOptions {
  readonly analysisMaxLines: number;
  /** A single character; when given it is used as is (no detection), which also makes 1-line files work. */
  readonly delimiter?: string;
  readonly forceHeader: boolean;
  readonly atomicity: ImportAtomicity;
  /** true: values beyond the header's width are dropped instead of rejecting the line. */
  readonly skipLev: boolean;
  readonly schema?: ImportSchema;
  readonly timestampColumn?: string;
  /** The target table's columns when appending; batches then carry exactly these columns, in this order. */
  readonly existingColumns?: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>;
  readonly onBatch: (chunk: RowChunk) => Promise<void> | void;
}

export interface ImportSummary {
  readonly header: boolean;
  readonly rowsHandled: number;
  readonly rowsImported: number;
  readonly rowsRejected: number;
  readonly columns: Array<{ name: string; type: ColumnType; errors: number }>;
}

export interface ImportSession {
  push(chunk: Buffer): Promise<void>;
  finish(): Promise<ImportSummary>;
  /** The output columns; valid once detection has run (after enough data, or after finish). */
  columns(): ReadonlyArray<{ name: string; type: ColumnType }>;
}

const EMPTY = Buffer.alloc(0);

/** Rows per batch that keep its buffers within importBatchBytesMax (a text value counts as 24 bytes: offset and a short record). */
function batchRowsForBudget(types: ReadonlyArray<ColumnType>): number {
  let rowBytes = 0;
  for (const type of types) rowBytes += STORAGE_WIDTH_BYTES[type] === 0 || type === 'SYMBOL' || type === 'UUID' ? 24 : STORAGE_WIDTH_BYTES[type];
  return Math.max(1, Math.floor(importBatchBytesMax / Math.max(1, rowBytes)));
}

export function createImportSession(options: ImportSessionOptions): ImportSession {
  return new CsvImportSession(options);
}

class CsvImportSession implements ImportSession {
  private readonly options: ImportSessionOptions;
  private sampleChunks: Buffer[] = [];
  private sampleBytes = 0;
  private readonly sampleRecords = new RecordCounter();
  /** What detection decided; the sample bytes themselves are not kept (up to importAnalysisBytesMax). */
  private analysis: { readonly plan: ColumnPlan; readonly header: boolean } | undefined;
  private lexer: CsvLexer | undefined;
  private builder: BatchBuilder | undefined;
  private job: ParseJob | undefined;
  private tail: Buffer = EMPTY;
  private skippingLongRecord = false;
  private droppedLongRecords = 0;
  private rowsImported = 0;
  private columnErrors: Float64Array = new Float64Array(0);
  private failure: unknown = undefined;
  private finished = false;

  constructor(options: ImportSessionOptions) {
    assert(options.analysisMaxLines >= 1, 'analysisMaxLines must be positive');
    this.options = options;
  }

  async push(chunk: Buffer): Promise<void> {
    await this.guard(async () => {
      assert(!this.finished, 'push after finish');
      if (chunk.length === 0) return;
      if (this.analysis === undefined) {
        this.sampleChunks.push(chunk);
        this.sampleBytes += chunk.length;
        this.sampleRecords.count(chunk);
        if (this.sampleRecords.records >= Math.max(2, this.options.analysisMaxLines) || this.sampleBytes >= importAnalysisBytesMax) {
          await this.startStreaming(false);
        }
        return;
      }
      await this.consume(chunk, false);
    });
  }

  async finish(): Promise<ImportSummary> {
    return this.guard(async () => {
      assert(!this.finished, 'finish called twice');
      this.finished = true;
      if (this.analysis === undefined) await this.startStreaming(true);
      else await this.consume(EMPTY, true);
      await this.emitBatch();
      return this.summary();
    });
  }

  columns(): ReadonlyArray<{ name: string; type: ColumnType }> {
    assert(this.analysis !== undefined, 'columns() is valid only after detection');
    return this.analysis.plan.outputColumns;
  }

  /** Runs a step; the first failure poisons the session so later calls report it rather than continue. */
  private async guard<T>(step: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) throw this.failure;
    try {
      return await step();
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  private async startStreaming(atEof: boolean): Promise<void> {
    const sample = this.sampleChunks.length === 1 ? this.sampleChunks[0] : Buffer.concat(this.sampleChunks);
    this.sampleChunks = [];
    const analysis = analyseUpload(sample, atEof, this.options);
    this.analysis = { plan: analysis.plan, header: analysis.header };
    const plan = analysis.plan;
    const width = analysis.width;
    const rowCapacity = Math.max(1, Math.min(batchRowsMax, Math.floor(importBlockFieldSlotsMax / width)));
    this.lexer = new CsvLexer({
      delimiter: analysis.delimiter, width, rowCapacity, skipExtraValues: this.options.skipLev, lineBytesMax: importLineBytesMax,
    });
    this.lexer.recordsToSkip = analysis.header ? 1 : 0;
    // A file that has fully arrived gets a batch sized to it; a wide one gets fewer rows per batch.
    const types = plan.outputColumns.map((c) => c.type);
    const rowsMax = Math.min(batchRowsMax, batchRowsForBudget(types));
    const capacity = atEof ? Math.max(1, Math.min(rowsMax, this.sampleRecords.records + 1)) : rowsMax;
    this.builder = new BatchBuilder(types, capacity);
    this.columnErrors = new Float64Array(plan.outputColumns.length);
    this.job = {
      buf: sample, fieldStart: this.lexer.fieldStart, fieldEnd: this.lexer.fieldEnd, fieldEscaped: this.lexer.fieldEscaped,
      width, col: 0, rowCount: 0, base: 0, rowBad: new Uint8Array(rowCapacity), markRows: false, nullIsError: false,
      stats: { firstBadRow: -1 },
    };
    await this.consume(analysis.body, atEof);
  }

  /** Lexes chunk (after the carried incomplete record) and converts every complete record. */
  private async consume(chunk: Buffer, atEof: boolean): Promise<void> {
    const lexer = this.lexer;
    const builder = this.builder;
    assert(lexer !== undefined && builder !== undefined, 'consume runs only after detection');
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
    for (;;) {
      assert(builder.remaining() > 0, 'a full batch is emitted before lexing continues');
      const next = lexCsvBlock(lexer, buf, pos, buf.length, atEof, builder.remaining());
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

  /** Parses the lexer's rows into the batch, applies the atomicity mode, emits the batch when full. */
  private async convertBlock(buf: Buffer): Promise<void> {
    const { lexer, builder, job, analysis } = this;
    assert(lexer !== undefined && builder !== undefined && job !== undefined && analysis !== undefined, 'convertBlock after detection');
    const plan = analysis.plan;
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
    this.fillMissingColumns(plan, base, rows);
    if (anyBad && this.options.atomicity === 'abort') {
      throw new ImportError(`bad syntax [line=${lexer.rowRecord[firstBadRow]}, col=${firstBadColumn}]`);
    }
    const kept = anyBad ? builder.compact(base, rows, job.rowBad) : rows;
    if (anyBad) job.rowBad.fill(0, 0, rows);
    builder.rowCount += kept;
    this.rowsImported += kept;
    if (builder.remaining() === 0) await this.emitBatch();
  }

  private fillMissingColumns(plan: ColumnPlan, base: number, rows: number): void {
    const builder = this.builder;
    assert(builder !== undefined, 'builder exists while converting');
    if (plan.fileToOutput.length === plan.outputColumns.length) return;
    const supplied = new Uint8Array(plan.outputColumns.length);
    for (const out of plan.fileToOutput) supplied[out] = 1;
    for (let c = 0; c < supplied.length; c++) if (supplied[c] === 0) builder.fillNull(c, base, rows);
  }

  private async emitBatch(): Promise<void> {
    const { builder, analysis } = this;
    if (builder === undefined || analysis === undefined || builder.rowCount === 0) return;
    const chunk = builder.build();
    assert(chunk.columns.length === analysis.plan.outputColumns.length, 'an import chunk has one column per output column');
    assertChunk(chunk, 'import chunk leaving the session');
    builder.begin();
    await this.options.onBatch(chunk);
  }

  private summary(): ImportSummary {
    const { lexer, analysis } = this;
    assert(lexer !== undefined && analysis !== undefined, 'summary after detection');
    const rowsHandled = lexer.recordCount - (analysis.header ? 1 : 0) + this.droppedLongRecords;
    assert(rowsHandled >= this.rowsImported, 'imported rows are a subset of handled rows');
    return {
      header: analysis.header,
      rowsHandled,
      rowsImported: this.rowsImported,
      rowsRejected: rowsHandled - this.rowsImported,
      columns: analysis.plan.outputColumns.map((c, i) => ({ name: c.name, type: c.type, errors: this.columnErrors[i] })),
    };
  }
}
