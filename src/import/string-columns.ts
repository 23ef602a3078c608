// Parsers for text-valued columns: VARCHAR/STRING and SYMBOL (text records; the table's dictionary assigns
// SYMBOL keys at commit), UUID (canonical text, converted at commit) and CHAR. ASCII fields are copied byte
// for byte into the records; a field with other bytes goes through a UTF-8 decode and encode, so invalid
// sequences become U+FFFD exactly as a JS string would store them, and doubled quotes are unescaped.
import { assert } from '../core/assert.js';
import type { ColumnTarget, ParseJob, TextRecords } from './column-target.js';
import { targetText } from './column-target.js';
import { decodeField, parseUuidBytes } from './value-parsers.js';
import type { ColumnType } from '../types/column-type.js';
import { toTextCoded } from '../types/coded-columns.js';

/** Worst-case UTF-8 bytes per input byte: an invalid byte becomes U+FFFD (3 bytes). */
const UTF8_EXPANSION_MAX = 3;

/** Writes a record's int32 length prefix byte by byte (Buffer#writeInt32LE checks its arguments on every call). */
function writeLength(out: Uint8Array, position: number, length: number): void {
  out[position] = length & 0xff;
  out[position + 1] = (length >> 8) & 0xff;
  out[position + 2] = (length >> 16) & 0xff;
  out[position + 3] = (length >> 24) & 0xff;
}

/**
 * Appends the field buf[s, e) as a record at `position` of `out` (an empty field is null); returns the position
 * after it. The caller has reserved 4 + (e - s) * UTF8_EXPANSION_MAX bytes. A tight codec loop: the ASCII copy
 * is inline because most fields are a few bytes long.
 */
function appendField(out: Buffer, position: number, buf: Buffer, s: number, e: number, escaped: number): number {
  if (s === e) {
    writeLength(out, position, -1);
    return position + 4;
  }
  if (escaped === 0) {
    let bits = 0;
    let p = position + 4;
    for (let i = s; i < e; i++) {
      const b = buf[i];
      bits |= b;
      out[p++] = b;
    }
    if (bits < 0x80) {
      writeLength(out, position, e - s);
      return p;
    }
  }
  const written = out.write(decodeField(buf, s, e, escaped), position + 4, 'utf8');
  writeLength(out, position, written);
  return position + 4 + written;
}

/** VARCHAR, STRING and SYMBOL: empty field → null. Never fails. */
export function parseTextColumn(job: ParseJob, target: ColumnTarget): number {
  const records = targetText(target);
  const offsets = records.offsets;
  const { buf, fieldStart, fieldEnd, fieldEscaped, width, rowCount, base } = job;
  let position = offsets[base];
  let out = records.bytes;
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const need = 4 + (e - s) * UTF8_EXPANSION_MAX;
    if (position + need > out.length) out = records.reserve(position, need);
    position = appendField(out, position, buf, s, e, fieldEscaped[slot]);
    offsets[base + r + 1] = position;
  }
  return 0;
}

/** UUID: canonical hex text, stored lower-case; anything else is an error (null). */
export function parseUuidColumn(job: ParseJob, target: ColumnTarget): number {
  return parseConvertedTextColumn(job, target, 36, parseUuidBytes);
}

/**
 * LONG256 and GEOHASH: the field's text in the type's canonical form (toTextCoded), staged as text and encoded
 * at commit; a value that does not convert is an error (null).
 */
export function parseTextCodedColumn(job: ParseJob, target: ColumnTarget, type: ColumnType): number {
  return parseConvertedTextColumn(job, target, 80, (buf, s, e) => toTextCoded(type, 'STRING', buf.toString('latin1', s, e)));
}

/**
 * Fields converted to canonical latin-1 text of at most `textBytesMax` bytes; an empty field is null, one that
 * does not convert (undefined) is null and an error.
 */
function parseConvertedTextColumn(
  job: ParseJob, target: ColumnTarget, textBytesMax: number, convert: (buf: Buffer, start: number, end: number) => string | null | undefined,
): number {
  const records = targetText(target);
  const offsets = records.offsets;
  const { buf, fieldStart, fieldEnd, width, rowCount, base } = job;
  let errors = 0;
  let position = offsets[base];
  for (let r = 0, slot = job.col; r < rowCount; r++, slot += width) {
    const s = fieldStart[slot];
    const e = fieldEnd[slot];
    const value = s === e ? null : convert(buf, s, e);
    const out = records.reserve(position, 4 + textBytesMax);
    if (value === null || value === undefined) {
      out.writeInt32LE(-1, position);
      position += 4;
      if (value === undefined) errors = reportBad(job, r, errors);
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
