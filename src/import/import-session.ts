// Drives one upload: buffers the first chunks until analysisMaxLines records (or the end) have arrived,
// detects delimiter, header and types, then streams every record into storage-form row chunks of at most
// batchRowsMax rows, split by partition and handed to onBatch in upload order (awaited, so a slow consumer
// slows the upload).
// With a parse pool, records are converted on its threads while the upload has no quotes, and the threads
// write them into staging where the pool's placer puts them, bypassing onBatch (see parallel-parse.ts);
// otherwise, and from the first quote on, a RecordConverter on this thread converts them for onBatch. Both
// give the same rows, counts and errors. Once a call has failed the session stays failed and rethrows that error.
import { assert } from '../core/assert.js';
import { batchRowsMax } from '../core/limits.js';
import { storageWidthBytes, type ColumnType } from '../types/column-type.js';
import type { RowChunk } from '../storage/row-chunk.js';
import { splitByPartition, UNSPLIT_LAYOUT, type PartitionedRows, type StagingLayout } from '../storage/partition-split.js';
import { analyseUpload, RecordCounter, type AnalysisResult } from './import-analysis.js';
import { importAnalysisBytesMax, importBatchBytesMax, importPieceBytes } from './import-limits.js';
import type { ImportSchema } from './schema-part.js';
import { RecordConverter, type ImportAtomicity } from './record-converter.js';
import { ParallelParse } from './parallel-parse.js';
import type { ParsePool } from './parse-pool.js';
import type { StagingPlacer } from './staging.js';
import { isTextCodedType } from '../types/coded-columns.js';

export type { ImportAtomicity };

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
  /**
   * Threads to convert large uploads on, with the staging placer their rows are written through (they never
   * pass through onBatch); absent: everything is converted on the caller's thread and goes to onBatch.
   */
  readonly parallel?: { readonly pool: ParsePool; readonly placer: StagingPlacer };
  /** How rows are split by partition once the output columns are known; absent: not split. */
  readonly layoutOf?: (columns: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>) => StagingLayout;
  readonly onBatch: (rows: PartitionedRows) => Promise<void> | void;
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
  /** Stops using the parse threads after a failure elsewhere (a disconnect); idempotent. */
  abort(): void;
}

const EMPTY = Buffer.alloc(0);

/** Rows per batch that keep its buffers within importBatchBytesMax (a text value counts as 24 bytes: offset and a short record). */
function batchRowsForBudget(types: ReadonlyArray<ColumnType>): number {
  let rowBytes = 0;
  for (const type of types) rowBytes += storageWidthBytes(type) === 0 || type === 'SYMBOL' || isTextCodedType(type) ? 24 : storageWidthBytes(type);
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
  private analysis: AnalysisResult | undefined;
  private chunkRowsMax = batchRowsMax;
  private layout: StagingLayout = UNSPLIT_LAYOUT;
  private parallel: ParallelParse | undefined;
  private converter: RecordConverter | undefined;
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
      await this.converter?.flush();
      return this.summary();
    });
  }

  columns(): ReadonlyArray<{ name: string; type: ColumnType }> {
    assert(this.analysis !== undefined, 'columns() is valid only after detection');
    return this.analysis.plan.outputColumns;
  }

  abort(): void {
    this.parallel?.close();
  }

  /** Runs a step; the first failure poisons the session so later calls report it rather than continue. */
  private async guard<T>(step: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) throw this.failure;
    try {
      return await step();
    } catch (error) {
      this.failure = error;
      this.abort();
      throw error;
    }
  }

  private async startStreaming(atEof: boolean): Promise<void> {
    const sample = this.sampleChunks.length === 1 ? this.sampleChunks[0] : Buffer.concat(this.sampleChunks);
    this.sampleChunks = [];
    const analysis = analyseUpload(sample, atEof, this.options);
    this.analysis = analysis;
    this.layout = this.options.layoutOf?.(analysis.plan.outputColumns) ?? UNSPLIT_LAYOUT;
    // A file that has fully arrived gets a batch sized to it; a wide one gets fewer rows per batch.
    const rowsMax = Math.min(batchRowsMax, batchRowsForBudget(analysis.plan.outputColumns.map((c) => c.type)));
    this.chunkRowsMax = atEof ? Math.max(1, Math.min(rowsMax, this.sampleRecords.records + 1)) : rowsMax;
    const parallel = this.options.parallel;
    if (parallel !== undefined && !(atEof && analysis.body.length <= importPieceBytes)) {
      const setup = {
        planInput: analysis.planInput, delimiter: analysis.delimiter, width: analysis.width, atomicity: this.options.atomicity,
        skipLev: this.options.skipLev, chunkRowsMax: rowsMax, layout: this.layout,
      };
      this.parallel = new ParallelParse(parallel.pool, setup, analysis.plan.outputColumns.length, analysis.header, parallel.placer);
    } else {
      this.converter = this.newConverter(analysis.header ? 1 : 0, 0);
    }
    await this.consume(analysis.body, atEof);
  }

  private newConverter(recordsToSkip: number, recordBase: number): RecordConverter {
    const analysis = this.analysis;
    assert(analysis !== undefined, 'converters exist after detection');
    return new RecordConverter({
      plan: analysis.plan, delimiter: analysis.delimiter, width: analysis.width, atomicity: this.options.atomicity,
      skipLev: this.options.skipLev, chunkRowsMax: this.chunkRowsMax, recordsToSkip, recordBase,
      onChunk: (chunk: RowChunk) => this.options.onBatch(splitByPartition(chunk, this.layout)),
    });
  }

  private async consume(chunk: Buffer, atEof: boolean): Promise<void> {
    let rest = chunk;
    const parallel = this.parallel;
    if (this.converter === undefined) {
      assert(parallel !== undefined, 'without a converter the threads convert');
      const stopped = await parallel.push(chunk);
      if (stopped === undefined) {
        if (atEof) await parallel.finish();
        return;
      }
      // From here on this thread converts, after every piece already sent has been handed on.
      await parallel.drain();
      parallel.close();
      this.converter = this.newConverter(parallel.piecesSent === 0 && this.analysis?.header === true ? 1 : 0, parallel.recordsHandled);
      rest = stopped;
    }
    await this.converter.consume(rest, atEof);
  }

  private summary(): ImportSummary {
    const analysis = this.analysis;
    assert(analysis !== undefined, 'summary after detection');
    const { parallel, converter } = this;
    const records = (parallel?.recordsHandled ?? 0) + (converter?.recordsHandled() ?? 0);
    const rowsHandled = records - (analysis.header ? 1 : 0);
    const rowsImported = (parallel?.rowsImported ?? 0) + (converter?.rowsImported ?? 0);
    assert(rowsHandled >= rowsImported, 'imported rows are a subset of handled rows');
    return {
      header: analysis.header,
      rowsHandled,
      rowsImported,
      rowsRejected: rowsHandled - rowsImported,
      columns: analysis.plan.outputColumns.map((c, i) => ({
        name: c.name, type: c.type, errors: (parallel?.columnErrors[i] ?? 0) + (converter?.columnErrors[i] ?? 0),
      })),
    };
  }
}
