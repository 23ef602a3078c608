// Parsers for text-valued columns: VARCHAR/STRING and SYMBOL (text records; the table's dictionary assigns
// SYMBOL keys at commit), UUID (canonical text, converted at commit) and CHAR. ASCII fields are copied byte
// for byte into the records; a field with other bytes goes through a UTF-8 decode and encode, so invalid
// sequences become U+FFFD exactly as a JS string would store them, and doubled quotes are unescaped.
import { assert } from '../core/assert.js';
import type { ColumnTarget, ParseJob, TextRecords } from './column-target.js';
import { targetText } from './column-target.js';
import { decodeField, parseUuidBytes } from './value-parsers.js';

/** Worst-case UTF-8 bytes per input byte: an invalid byte becomes U+FFFD (3 bytes). */
const UTF8_EXPANSION_MAX = 3;

/**
 * Appends the field buf[s, e) as a record at `position` (an empty field is null); returns the position after
 * it. A tight codec loop: the ASCII copy is inline because most fields are a few bytes long.
 */
function appendField(records: TextRecords, position: number, buf: Buffer, s: number, e: number, escaped: number): number {
  if (s === e) {
    const out = records.reserve(position, 4);
    out.writeInt32LE(-1, position);
    return position + 4;
  }
  const out = records.reserve(position, 4 + (e - s) * UTF8_EXPANSION_MAX);
  if (escaped === 0) {
    let bits = 0;
    let p = position + 4;
    for (let i = s; i < e; i++) {
      const b = buf[i];
      bits |= b;
      out[p++] = b;
    }
    if (bits < 0x80) {
      out.writeInt32LE(e - s, position);
      return p;
    }
  }
  const written = out.write(decodeField(buf, s, e, escaped), position + 4, 'utf8');
  out.writeInt32LE(written, position);
  return position + 4 + written;
}

/** VARCHAR, STRING and SYMBOL: empty field → null. Never fails. */
export function parseTextColumn(job: ParseJob, target: ColumnTarget): number {
  const records = targetText(target);
  const offsets = records.offsets;
  const { buf, fieldStart, fieldEnd, fieldEscaped, width, rowCount, base } = job;
  let position = offsets[base];
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    position = appendField(records, position, buf, fieldStart[slot], fieldEnd[slot], fieldEscaped[slot]);
    offsets[base + r + 1] = position;
  }
  return 0;
}

/** UUID: canonical hex text, stored lower-case; anything else is an error (null). */
export function parseUuidColumn(job: ParseJob, target: ColumnTarget): number {
  const records = targetText(target);
  const offsets = records.offsets;
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  let position = offsets[base];
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const value = s === e ? undefined : parseUuidBytes(buf, s, e);
    const out = records.reserve(position, 4 + 36);
    if (value === undefined) {
      out.writeInt32LE(-1, position);
      position += 4;
      if (s !== e) errors = reportBad(job, r, errors);
    } else {
      out.writeInt32LE(out.write(value, position + 4, 'latin1'), position);
      position += 4 + value.length;
    }
    offsets[base + r + 1] = position;
  }
  return errors;
}

/** CHAR: exactly one UTF-16 code unit; empty → 0 (the CHAR null); longer text is an error. */
export function parseCharColumn(job: ParseJob, target: ColumnTarget): number {
  const out = target.data;
  assert(out instanceof Uint16Array, 'CHAR column target must be a Uint16Array');
  const { buf, fieldStart, fieldEnd, fieldEscaped, width, rowCount, base } = job;
  let errors = 0;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    if (s === e) {
      out[base + r] = 0;
      continue;
    }
    const text = e - s === 1 && buf[s] < 0x80 ? '' : decodeField(buf, s, e, fieldEscaped[slot]);
    if (text === '' || text.length === 1) {
      out[base + r] = text === '' ? buf[s] : text.charCodeAt(0);
    } else {
      out[base + r] = 0;
      errors = reportBad(job, r, errors);
    }
  }
  return errors;
}

/** Records a bad value at block row r; returns the new error count. */
export function reportBad(job: ParseJob, r: number, errors: number): number {
  if (errors === 0) job.stats.firstBadRow = r;
  if (job.markRows) job.rowBad[r] = 1;
  return errors + 1;
}
