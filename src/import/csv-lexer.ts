// Byte-level CSV/TSV/PSV tokenizer. It splits complete records of a byte buffer into field offsets
// (fixed `width` slots per row) without allocating per row; an incomplete trailing record is left unconsumed
// so the caller can prepend it to the next chunk. Pure: bytes in, offsets out; it never touches files or sockets.
// Quoting follows RFC 4180 as QuestDB reads it: a quote opens only at the start of a field, `""` inside quotes
// is one quote (flagged, unescaped by the string parsers), and bytes after a closing quote up to the delimiter
// are dropped. LF, CR and CRLF end records; empty lines are skipped.
import { assert } from '../core/assert.js';
import { ImportError } from '../core/errors.js';

export const BYTE_QUOTE = 0x22;
export const BYTE_LF = 0x0a;
export const BYTE_CR = 0x0d;

export interface CsvLexerOptions {
  /** Field separator byte (`,` TAB `|` or any other single byte that is not a quote or line end). */
  readonly delimiter: number;
  /** Field slots per row; fields past it are counted, not stored. */
  readonly width: number;
  /** Rows one block can hold. */
  readonly rowCapacity: number;
  /** true: a record with more fields than `width` keeps its first `width` fields (QuestDB skipLev). */
  readonly skipExtraValues: boolean;
  /** Longest accepted record in bytes; longer complete records are rejected. */
  readonly lineBytesMax: number;
}

/** Lexer configuration, reusable offset arrays, and the counters that survive across blocks. */
export class CsvLexer {
  readonly delimiter: number;
  readonly width: number;
  readonly rowCapacity: number;
  readonly skipExtraValues: boolean;
  readonly lineBytesMax: number;
  /** Row r, field c lives in slot r * width + c; a missing field has start === end. */
  readonly fieldStart: Int32Array;
  readonly fieldEnd: Int32Array;
  /** 1 when the quoted field contains doubled quotes that still need unescaping. */
  readonly fieldEscaped: Uint8Array;
  /** Some fieldEscaped entry is 1; the next block clears the array first (plain fields never write it). */
  escapedDirty = false;
  /** 1-based record number (header and rejected records included) of each stored row, for error messages. */
  readonly rowRecord: Float64Array;
  /** Rows stored by the last lexCsvBlock call. */
  rowCount = 0;
  /** The last call stopped because the block was full, not because the input ran out. */
  stoppedAtLimit = false;
  /** Fields in the last complete record (not capped by width); detection reads the file width from it. */
  lastFieldCount = 0;
  /** Records seen so far, blank lines excluded. */
  recordCount = 0;
  /** Records still to be skipped without storing (the header). */
  recordsToSkip = 0;
  /** Records rejected because they had more values than the header (and skipExtraValues is off). */
  rejectedExtraCount = 0;
  /** Records rejected because they were longer than lineBytesMax. */
  rejectedLongCount = 0;
  /** Records rejected because a quote was still open at the end of the input. */
  rejectedQuoteCount = 0;

  constructor(options: CsvLexerOptions) {
    checkDelimiter(options.delimiter);
    assert(options.width >= 1 && options.rowCapacity >= 1, 'lexer needs at least one field slot and one row');
    this.delimiter = options.delimiter;
    this.width = options.width;
    this.rowCapacity = options.rowCapacity;
    this.skipExtraValues = options.skipExtraValues;
    this.lineBytesMax = options.lineBytesMax;
    const slots = options.width * options.rowCapacity;
    this.fieldStart = new Int32Array(slots);
    this.fieldEnd = new Int32Array(slots);
    this.fieldEscaped = new Uint8Array(slots);
    this.rowRecord = new Float64Array(options.rowCapacity);
  }

  /** Forgets the counters of earlier input (a parse thread reuses one lexer for every piece of an upload). */
  resetCounters(recordsToSkip: number): void {
    this.rowCount = 0;
    this.stoppedAtLimit = false;
    this.lastFieldCount = 0;
    this.recordCount = 0;
    this.recordsToSkip = recordsToSkip;
    this.rejectedExtraCount = 0;
    this.rejectedLongCount = 0;
    this.rejectedQuoteCount = 0;
  }

  rejectedCount(): number {
    return this.rejectedExtraCount + this.rejectedLongCount + this.rejectedQuoteCount;
  }
}

/** Rejects delimiters the record grammar cannot use; user input, so an ImportError rather than an assert. */
export function checkDelimiter(delimiter: number): void {
  if (!Number.isInteger(delimiter) || delimiter <= 0 || delimiter > 0x7f || delimiter === BYTE_QUOTE
    || delimiter === BYTE_LF || delimiter === BYTE_CR) {
    throw new ImportError(`invalid delimiter [code=${delimiter}]`);
  }
}

/**
 * Lexes complete records of buf[start, end) into lx's slots, at most min(rowLimit, rowCapacity) rows.
 * Returns the offset just past the last complete record; with atEof the end of input also ends a record.
 * A tight codec loop, exempt from the 70-line rule: counters live in locals and are written back once.
 */
export function lexCsvBlock(lx: CsvLexer, buf: Uint8Array, start: number, end: number, atEof: boolean, rowLimit: number): number {
  assert(start >= 0 && end <= buf.length && start <= end, 'lexer range must lie inside the buffer');
  // Function-local copies: V8 folds these into the comparisons, but reloads module-level constants (~25% slower).
  const LF = 0x0a;
  const CR = 0x0d;
  const QUOTE = 0x22;
  const delimiter = lx.delimiter;
  const width = lx.width;
  const fieldStart = lx.fieldStart;
  const fieldEnd = lx.fieldEnd;
  const fieldEscaped = lx.fieldEscaped;
  if (lx.escapedDirty) {
    fieldEscaped.fill(0);
    lx.escapedDirty = false;
  }
  const rowRecord = lx.rowRecord;
  const lineBytesMax = lx.lineBytesMax;
  const skipExtraValues = lx.skipExtraValues;
  const rowMax = rowLimit < lx.rowCapacity ? rowLimit : lx.rowCapacity;
  let recordCount = lx.recordCount;
  let recordsToSkip = lx.recordsToSkip;
  let lastFieldCount = lx.lastFieldCount;
  let row = 0;
  let pos = start;
  let consumed = start;
  let stoppedAtLimit = false;
  records: while (pos < end) {
    if (row >= rowMax) {
      stoppedAtLimit = true;
      break;
    }
    let b = buf[pos];
    if (b === LF || b === CR) {
      consumed = ++pos;
      continue;
    }
    const recordStart = pos;
    const slotBase = row * width;
    let fieldCount = 0;
    for (;;) {
      if (b !== QUOTE) {
        const fs = pos;
        while (b !== delimiter && b !== LF && b !== CR && ++pos < end) b = buf[pos];
        if (fieldCount < width) {
          fieldStart[slotBase + fieldCount] = fs;
          fieldEnd[slotBase + fieldCount] = pos;
        }
      } else {
        // Quoted fields take a separate function so their code does not weigh on the plain-field loop.
        pos = lexQuotedField(buf, pos, end, atEof, delimiter);
        if (pos === QUOTE_NEEDS_MORE) break records;
        if (pos === QUOTE_UNCLOSED) {
          // The input ended inside quotes: the record is rejected, as QuestDB's "quote is missing".
          recordCount++;
          lx.rejectedQuoteCount++;
          if (lx.escapedDirty) fieldEscaped.fill(0, slotBase, slotBase + width);
          consumed = pos = end;
          continue records;
        }
        b = pos < end ? buf[pos] : 0;
        if (fieldCount < width) {
          fieldStart[slotBase + fieldCount] = quotedStart;
          fieldEnd[slotBase + fieldCount] = quotedEnd;
          if (quotedEscaped !== 0) {
            fieldEscaped[slotBase + fieldCount] = 1;
            lx.escapedDirty = true;
          }
        }
      }
      fieldCount++;
      if (pos >= end) {
        if (!atEof) break records;
        pos = end;
        break;
      }
      pos++;
      if (b !== delimiter) {
        if (b === CR && pos < end && buf[pos] === LF) pos++;
        break;
      }
      if (pos >= end) {
        if (!atEof) break records;
        // A delimiter ending the input leaves one more, empty, field.
        if (fieldCount < width) {
          fieldStart[slotBase + fieldCount] = end;
          fieldEnd[slotBase + fieldCount] = end;
        }
        fieldCount++;
        break;
      }
      b = buf[pos];
    }
    consumed = pos;
    recordCount++;
    lastFieldCount = fieldCount;
    let skipped = true;
    if (recordsToSkip > 0) recordsToSkip--;
    else if (pos - recordStart > lineBytesMax) lx.rejectedLongCount++;
    else if (fieldCount > width && !skipExtraValues) lx.rejectedExtraCount++;
    else skipped = false;
    if (skipped) {
      // The next record reuses these slots: a stale escaped flag must not leak into it.
      if (lx.escapedDirty) fieldEscaped.fill(0, slotBase, slotBase + width);
      continue;
    }
    for (let k = fieldCount; k < width; k++) {
      fieldStart[slotBase + k] = 0;
      fieldEnd[slotBase + k] = 0;
    }
    rowRecord[row] = recordCount;
    row++;
  }
  lx.recordCount = recordCount;
  lx.recordsToSkip = recordsToSkip;
  lx.lastFieldCount = lastFieldCount;
  lx.rowCount = row;
  lx.stoppedAtLimit = stoppedAtLimit;
  return consumed;
}

const QUOTE_NEEDS_MORE = -1;
const QUOTE_UNCLOSED = -2;
// Results of lexQuotedField besides its return value (module scratch, so the call allocates nothing).
let quotedStart = 0;
let quotedEnd = 0;
let quotedEscaped = 0;

/**
 * Lexes a quoted field whose opening quote is at `open`: sets quotedStart/End/Escaped and returns the offset
 * of the byte that ends the field (delimiter, line end, or end of input). Bytes between the closing quote and
 * that byte are dropped, as QuestDB does. QUOTE_NEEDS_MORE when the buffer ends before the field can be
 * decided (a quote in the last byte may be half of a `""` pair); QUOTE_UNCLOSED when the input ends inside it.
 */
function lexQuotedField(buf: Uint8Array, open: number, end: number, atEof: boolean, delimiter: number): number {
  let q = open + 1;
  let escaped = 0;
  for (;;) {
    while (q < end && buf[q] !== BYTE_QUOTE) q++;
    if (q >= end) return atEof ? QUOTE_UNCLOSED : QUOTE_NEEDS_MORE;
    if (q + 1 >= end) {
      if (!atEof) return QUOTE_NEEDS_MORE;
      break;
    }
    if (buf[q + 1] !== BYTE_QUOTE) break;
    escaped = 1;
    q += 2;
  }
  quotedStart = open + 1;
  quotedEnd = q;
  quotedEscaped = escaped;
  let pos = q + 1;
  for (; pos < end; pos++) {
    const b = buf[pos];
    if (b === delimiter || b === BYTE_LF || b === BYTE_CR) break;
  }
  return pos;
}

/** Offset just past the first line end (LF or CR) at or after start, ignoring quotes; -1 when there is none. */
export function indexAfterLineEnd(buf: Uint8Array, start: number): number {
  for (let i = start; i < buf.length; i++) {
    const b = buf[i];
    if (b === BYTE_LF || b === BYTE_CR) return i + 1;
  }
  return -1;
}

/** Length of a leading UTF-8 byte order mark (EF BB BF), or 0. */
export function utf8BomLength(buf: Uint8Array): number {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
}
