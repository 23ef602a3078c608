// The lexer for input known to hold no quote character (the pieces parse threads convert): the same records,
// fields and counters as lexCsvBlock at the end of input, from one loop over the bytes without quote states.
// Bytes above every special byte (delimiter, CR, LF) take one comparison, which is most bytes with `,` or TAB.
// The per-record verdict (header, too long, too wide) repeats lexCsvBlock's on purpose: a shared helper made
// both loops measurably slower. test/unit/import/plain-lexer.test.ts keeps the two in agreement.
import { assert } from '../core/assert.js';
import type { CsvLexer } from './csv-lexer.js';

/**
 * Lexes the complete input buf[start, end) (no quotes in it; its end ends a record) into lx's slots, at most
 * min(rowLimit, rowCapacity) rows; returns the offset after the last record lexed.
 * A tight codec loop, exempt from the 70-line rule: counters live in locals and are written back once.
 */
export function lexPlainBlock(lx: CsvLexer, buf: Uint8Array, start: number, end: number, rowLimit: number): number {
  assert(start >= 0 && end <= buf.length && start <= end, 'lexer range must lie inside the buffer');
  const LF = 0x0a;
  const CR = 0x0d;
  const delimiter = lx.delimiter;
  const special = delimiter > CR ? delimiter : CR;
  const width = lx.width;
  const fieldStart = lx.fieldStart;
  const fieldEnd = lx.fieldEnd;
  if (lx.escapedDirty) {
    lx.fieldEscaped.fill(0);
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
  let stoppedAtLimit = false;
  while (pos < end) {
    let b = buf[pos];
    if (b === LF || b === CR) {
      pos++;
      continue;
    }
    if (row >= rowMax) {
      stoppedAtLimit = true;
      break;
    }
    const recordStart = pos;
    const slotBase = row * width;
    let fieldCount = 0;
    let fieldFrom = pos;
    for (;;) {
      if (b <= special) {
        if (b === delimiter) {
          if (fieldCount < width) {
            fieldStart[slotBase + fieldCount] = fieldFrom;
            fieldEnd[slotBase + fieldCount] = pos;
          }
          fieldCount++;
          fieldFrom = pos + 1;
        } else if (b === LF || b === CR) {
          break;
        }
      }
      if (++pos >= end) break;
      b = buf[pos];
    }
    // The last field ends at the line end or the end of input (empty after a trailing delimiter).
    if (fieldCount < width) {
      fieldStart[slotBase + fieldCount] = fieldFrom;
      fieldEnd[slotBase + fieldCount] = pos;
    }
    fieldCount++;
    if (pos < end) {
      pos++;
      if (b === CR && pos < end && buf[pos] === LF) pos++;
    }
    recordCount++;
    lastFieldCount = fieldCount;
    let skipped = true;
    if (recordsToSkip > 0) recordsToSkip--;
    else if (pos - recordStart > lineBytesMax) lx.rejectedLongCount++;
    else if (fieldCount > width && !skipExtraValues) lx.rejectedExtraCount++;
    else skipped = false;
    if (skipped) continue;
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
  return pos;
}
