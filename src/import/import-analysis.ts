// The analysis step of an import, run once on the buffered first chunk(s): byte-order mark, binary check,
// delimiter, file width (from the first record), header and column types, and the column plan. Its failures
// are request-level ImportErrors whose messages the route completes with " [table=<name>]".
import { ImportError } from '../core/errors.js';
import type { ColumnType } from '../types/column-type.js';
import { buildColumnPlan, type ColumnPlan, type ColumnPlanInput } from './column-plan.js';
import { CsvLexer, checkDelimiter, lexCsvBlock, utf8BomLength } from './csv-lexer.js';
import { detectDelimiter } from './detect-delimiter.js';
import { buildTypeProbes, detectFormat } from './detect-format.js';
import { isDeclaredHeader } from './declared-header.js';
import { importColumnsMax, importControlByteShareMax, importLineBytesMax } from './import-limits.js';
import type { ImportSchema } from './schema-part.js';

export interface AnalysisOptions {
  readonly analysisMaxLines: number;
  readonly delimiter?: string;
  readonly forceHeader: boolean;
  readonly skipLev: boolean;
  readonly schema?: ImportSchema;
  readonly timestampColumn?: string;
  readonly existingColumns?: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>;
}

export interface AnalysisResult {
  readonly delimiter: number;
  /** Fields per record, from the first record. */
  readonly width: number;
  readonly header: boolean;
  readonly plan: ColumnPlan;
  /** What the plan was built from (plain data): parse threads rebuild the plan from it. */
  readonly planInput: ColumnPlanInput;
  /** The sample without its byte-order mark: the first bytes to stream. */
  readonly body: Buffer;
}

/** Bytes of the sample inspected by the binary check. */
const BINARY_CHECK_BYTES = 64 * 1024;

/** Rejects uploads that are not text: any NUL byte, or more than 1% other control bytes (TAB/LF/CR/FF allowed). */
export function checkNotBinary(sample: Uint8Array): void {
  const n = Math.min(sample.length, BINARY_CHECK_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = sample[i];
    if (b === 0) throw new ImportError(`binary data is not supported, expected delimited text [offset=${i}]`);
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  if (control > n * importControlByteShareMax) {
    throw new ImportError(`binary data is not supported, expected delimited text [controlBytes=${control}]`);
  }
}

function hasContent(buf: Uint8Array): boolean {
  for (let i = 0; i < buf.length; i++) if (buf[i] !== 0x0a && buf[i] !== 0x0d) return true;
  return false;
}

function chooseDelimiter(body: Buffer, atEof: boolean, options: AnalysisOptions): number {
  // Like QuestDB, only a single-character delimiter parameter is used; anything longer means "detect".
  if (options.delimiter !== undefined && options.delimiter.length === 1) {
    const code = options.delimiter.charCodeAt(0);
    checkDelimiter(code);
    return code;
  }
  // Detection needs two lines even when fewer are analysed for types.
  return detectDelimiter(body, Math.max(2, options.analysisMaxLines), atEof);
}

/** Field count of the first complete record. */
function measureWidth(body: Buffer, delimiter: number, atEof: boolean): number {
  const probe = new CsvLexer({ delimiter, width: importColumnsMax, rowCapacity: 1, skipExtraValues: true, lineBytesMax: importLineBytesMax });
  lexCsvBlock(probe, body, 0, body.length, atEof, 1);
  if (probe.rowCount === 0) {
    throw new ImportError(atEof ? 'not enough lines' : `no complete line in the first ${body.length} bytes`);
  }
  if (probe.lastFieldCount > importColumnsMax) {
    throw new ImportError(`too many columns [count=${probe.lastFieldCount}, max=${importColumnsMax}]`);
  }
  return probe.lastFieldCount;
}

export function analyseUpload(sample: Buffer, atEof: boolean, options: AnalysisOptions): AnalysisResult {
  const body = sample.subarray(utf8BomLength(sample));
  if (!hasContent(body)) throw new ImportError('not enough lines');
  checkNotBinary(body);
  const delimiter = chooseDelimiter(body, atEof, options);
  const width = measureWidth(body, delimiter, atEof);
  const lexer = new CsvLexer({
    delimiter, width, rowCapacity: options.analysisMaxLines, skipExtraValues: options.skipLev, lineBytesMax: importLineBytesMax,
  });
  lexCsvBlock(lexer, body, 0, body.length, atEof, options.analysisMaxLines);
  // Declared types (an existing table, a schema) can make the first line a header that detection misses.
  const declaredHeader = isDeclaredHeader(body, lexer, { ...(options.existingColumns === undefined ? {} : { existingColumns: options.existingColumns }), ...(options.schema === undefined ? {} : { schema: options.schema }) });
  const detected = detectFormat(body, lexer, buildTypeProbes(options.schema), options.forceHeader || declaredHeader);
  const planInput: ColumnPlanInput = {
    detected: detected.columns, schema: options.schema, existingColumns: options.existingColumns, timestampColumn: options.timestampColumn,
  };
  return { delimiter, width, header: detected.header, plan: buildColumnPlan(planInput), planInput, body };
}

/**
 * Counts complete non-empty records while the first chunks are buffered, so detection always sees the same
 * analysisMaxLines records however the upload is chunked. Quote-aware like the delimiter scan: a quote
 * toggles quoting (a doubled quote toggles twice), and line ends inside quotes do not end a record.
 */
export class RecordCounter {
  records = 0;
  private inQuotes = false;
  private hasContent = false;

  count(chunk: Buffer): void {
    let inQuotes = this.inQuotes;
    let hasContent = this.hasContent;
    let records = this.records;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x22) {
        inQuotes = !inQuotes;
        hasContent = true;
      } else if (!inQuotes && (b === 0x0a || b === 0x0d)) {
        if (hasContent) records++;
        hasContent = false;
      } else {
        hasContent = true;
      }
    }
    this.inQuotes = inQuotes;
    this.hasContent = hasContent;
    this.records = records;
  }
}
