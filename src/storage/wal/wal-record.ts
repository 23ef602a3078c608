// WAL record codec (pure: bytes in, bytes out). A record is
//   [u32 payload length][u32 crc32 of everything after this field][u8 kind][f64 seq][payload]
// where the payload of a group record (kind 2) starts with its f64 group id: its rows count only if that group
// committed (storage/group-commit.ts). A torn or corrupt tail fails the length or checksum test, and readers
// stop there.
import { crc32 } from 'node:zlib';
import { varOffsets } from '../row-chunk.js';
import type { IncomingChunk, IncomingColumnData } from '../symbol-ids.js';
import { assert } from '../../core/assert.js';

export const WAL_RECORD_ROWS = 1;
/** Rows of one table written by a commit across several tables. */
export const WAL_RECORD_GROUP_ROWS = 2;
const HEADER_BYTES = 4 + 4 + 1 + 8;
const GROUP_ID_BYTES = 8;
/** Column layouts: fixed-width values, text records, SYMBOL ids then their dictionary's records. */
const LAYOUT_FIXED = 0;
const LAYOUT_VAR = 1;
const LAYOUT_SYMBOL_IDS = 2;

export interface WalRecord {
  readonly kind: number;
  readonly seq: number;
  /** The cross-table commit the record belongs to (group records only). */
  readonly groupId?: number;
  readonly chunk: IncomingChunk;
}

/**
 * Encodes a row chunk: [u32 rows][u16 columns] then per column [u8 layout][u32 width][f64 bytes][bytes], preceded
 * by the group id when there is one. A SYMBOL ids column (layout 2) has its dictionary's entry count as width
 * and its bytes are the rows' int32 ids followed by the dictionary's records.
 */
export function encodeWalRecord(seq: number, chunk: IncomingChunk, groupId?: number): Buffer {
  return Buffer.concat(encodeWalRecordParts(seq, chunk, groupId));
}

/**
 * The record as the buffers that make it, in order: the headers are new, the column bytes are the chunk's own
 * (a writer hands them to one gathering write instead of copying every row into one buffer first).
 */
export function encodeWalRecordParts(seq: number, chunk: IncomingChunk, groupId?: number): Uint8Array[] {
  assert(groupId === undefined || (Number.isSafeInteger(groupId) && groupId > 0), 'a group id is a positive integer');
  const prefixBytes = groupId === undefined ? 0 : GROUP_ID_BYTES;
  let payloadBytes = prefixBytes + 6;
  for (const column of chunk.columns) payloadBytes += 13 + columnBytes(column);
  const head = Buffer.allocUnsafe(HEADER_BYTES + prefixBytes + 6);
  head.writeUInt32LE(payloadBytes, 0);
  head.writeUInt8(groupId === undefined ? WAL_RECORD_ROWS : WAL_RECORD_GROUP_ROWS, 8);
  head.writeDoubleLE(seq, 9);
  if (groupId !== undefined) head.writeDoubleLE(groupId, HEADER_BYTES);
  head.writeUInt32LE(chunk.rowCount, HEADER_BYTES + prefixBytes);
  head.writeUInt16LE(chunk.columns.length, HEADER_BYTES + prefixBytes + 4);
  const columnHeads = Buffer.allocUnsafe(13 * chunk.columns.length);
  const parts: Uint8Array[] = [head];
  chunk.columns.forEach((column, k) => {
    const columnHead = columnHeads.subarray(13 * k, 13 * (k + 1));
    columnHead.writeDoubleLE(columnBytes(column), 5);
    parts.push(columnHead);
    if (column.kind === 'symbolIds') {
      columnHead.writeUInt8(LAYOUT_SYMBOL_IDS, 0);
      columnHead.writeUInt32LE(column.dictionary.offsets.length - 1, 1);
      parts.push(column.ids, column.dictionary.bytes);
    } else {
      columnHead.writeUInt8(column.kind === 'fixed' ? LAYOUT_FIXED : LAYOUT_VAR, 0);
      columnHead.writeUInt32LE(column.kind === 'fixed' ? column.width : 0, 1);
      parts.push(column.bytes);
    }
  });
  let crc = crc32(head.subarray(8));
  for (let k = 1; k < parts.length; k++) crc = crc32(parts[k], crc);
  head.writeUInt32LE(crc, 4);
  return parts;
}

/** Decodes the record at `offset`; undefined when the bytes there are incomplete or corrupt. */
export function decodeWalRecord(bytes: Buffer, offset: number): { record: WalRecord; next: number } | undefined {
  if (offset + HEADER_BYTES > bytes.length) return undefined;
  const payloadBytes = bytes.readUInt32LE(offset);
  const end = offset + HEADER_BYTES + payloadBytes;
  if (end > bytes.length) return undefined;
  if (crc32(bytes.subarray(offset + 8, end)) !== bytes.readUInt32LE(offset + 4)) return undefined;
  const kind = bytes.readUInt8(offset + 8);
  const seq = bytes.readDoubleLE(offset + 9);
  if (kind !== WAL_RECORD_ROWS && kind !== WAL_RECORD_GROUP_ROWS) return undefined;
  let position = offset + HEADER_BYTES;
  let groupId: number | undefined;
  if (kind === WAL_RECORD_GROUP_ROWS) {
    groupId = bytes.readDoubleLE(position);
    position += GROUP_ID_BYTES;
  }
  const rowCount = bytes.readUInt32LE(position);
  const columnCount = bytes.readUInt16LE(position + 4);
  position += 6;
  const columns: IncomingColumnData[] = [];
  for (let k = 0; k < columnCount; k++) {
    const layout = bytes.readUInt8(position);
    const width = bytes.readUInt32LE(position + 1);
    const length = bytes.readDoubleLE(position + 5);
    const data = Buffer.from(bytes.subarray(position + 13, position + 13 + length));
    columns.push(decodeColumn(layout, width, data, rowCount));
    position += 13 + length;
  }
  assert(position === end, 'WAL record payload is fully consumed');
  const chunk: IncomingChunk = { rowCount, columns };
  return { record: groupId === undefined ? { kind, seq, chunk } : { kind, seq, groupId, chunk }, next: end };
}

function columnBytes(column: IncomingColumnData): number {
  return column.kind === 'symbolIds' ? column.ids.length + column.dictionary.bytes.length : column.bytes.length;
}

function decodeColumn(layout: number, width: number, data: Buffer, rowCount: number): IncomingColumnData {
  if (layout === LAYOUT_FIXED) return { kind: 'fixed', width, bytes: data };
  if (layout === LAYOUT_VAR) return { kind: 'var', bytes: data, offsets: varOffsets(data, rowCount) };
  assert(layout === LAYOUT_SYMBOL_IDS && data.length >= rowCount * 4, 'a WAL column has a known layout');
  const dictionary = data.subarray(rowCount * 4);
  return { kind: 'symbolIds', ids: data.subarray(0, rowCount * 4), dictionary: { kind: 'var', bytes: dictionary, offsets: varOffsets(dictionary, width) } };
}
