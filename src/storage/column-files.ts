// Paths and I/O of a partition's column files: `<stem>.d` (fixed-width values, or variable-size records)
// and `<stem>.i` (rowCount + 1 int64 record offsets, variable-size columns only).
// A column file either covers every committed row of its partition or is absent (all rows null:
// the column was added after the partition was written).
import { isDecimalType, writeDecimalUnscaled } from '../types/decimal.js';
import { microsFloorOfNanos } from '../types/timestamp-ns.js';
import { sep } from 'node:path';
import type { FilesFacade } from '../core/files.js';
import type { ColumnType } from '../types/column-type.js';
import { storageWidthBytes, isVariableSize } from '../types/column-type.js';
import { writeInt64Words } from '../types/int64-words.js';
import type { ColumnMeta } from './table-meta.js';
import type { ColumnData, RowChunk } from './row-chunk.js';
import { varColumnFromArrays, varOffsets } from './row-chunk.js';
import { isGeohashType } from '../types/geohash.js';
import { isArrayType } from '../types/double-array.js';
import { assert } from '../core/assert.js';
import { freshMemory, type ScratchMemory } from '../core/scratch-memory.js';

export function columnFilePaths(partitionDir: string, stem: string): { data: string; index: string } {
  // Readers call this for every column of every partition of each statement: plain concatenation, because
  // path.join re-normalises the (already normal) directory each time and showed up in query profiles.
  return { data: `${partitionDir}${sep}${stem}.d`, index: `${partitionDir}${sep}${stem}.i` };
}

/** Storage bytes of one null value of a fixed-width type. */
export function nullValueBytes(type: ColumnType): Buffer {
  const width = storageWidthBytes(type);
  const bytes = Buffer.alloc(width);
  switch (type) {
    case 'INT': bytes.writeInt32LE(-2147483648); break;
    case 'SYMBOL': bytes.writeInt32LE(-1); break;
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': bytes.writeBigInt64LE(-9223372036854775808n); break;
    case 'FLOAT': bytes.writeFloatLE(NaN); break;
    case 'DOUBLE': bytes.writeDoubleLE(NaN); break;
    case 'UUID': bytes.writeBigInt64LE(-9223372036854775808n, 0); bytes.writeBigInt64LE(-9223372036854775808n, 8); break;
    case 'LONG256': for (let word = 0; word < 4; word++) bytes.writeBigInt64LE(-9223372036854775808n, word * 8); break;
    default:
      // GEOHASH: -1 (every bit set) at any width. BOOLEAN, BYTE, SHORT, CHAR, IPV4: zero is their null (or
      // their only value).
      if (isGeohashType(type)) bytes.fill(0xff);
      if (isDecimalType(type)) writeDecimalUnscaled(bytes, 0, width, null);
      break;
  }
  return bytes;
}

/** A column of `rowCount` nulls in storage form. */
export function nullColumnData(type: ColumnType, rowCount: number): ColumnData {
  // Array records keep 8-byte alignment (row-chunk.ts), nulls included.
  if (isArrayType(type)) return varColumnFromArrays(new Array<null>(rowCount).fill(null), rowCount);
  if (isVariableSize(type)) {
    const bytes = Buffer.allocUnsafe(4 * rowCount);
    for (let row = 0; row < rowCount; row++) bytes.writeInt32LE(-1, row * 4);
    const offsets = new Float64Array(rowCount + 1);
    for (let row = 0; row <= rowCount; row++) offsets[row] = row * 4;
    return { kind: 'var', bytes, offsets };
  }
  const one = nullValueBytes(type);
  const bytes = Buffer.allocUnsafe(one.length * rowCount);
  for (let row = 0; row < rowCount; row++) one.copy(bytes, row * one.length);
  return { kind: 'fixed', width: one.length, bytes };
}

/** Collects fds written during a commit so a sync commit can fsync them before publishing _txn. */
export interface WriteSession {
  readonly files: FilesFacade;
  readonly durable: boolean;
}

function writeFileAt(session: WriteSession, path: string, bytes: Uint8Array, position: number, truncateTo?: number): void {
  const fd = session.files.openWrite(path);
  try {
    if (truncateTo !== undefined) session.files.truncate(fd, truncateTo);
    if (bytes.length > 0) session.files.write(fd, bytes, position);
    if (session.durable) session.files.fsync(fd);
  } finally {
    session.files.close(fd);
  }
}

/**
 * Writes `data` as rows [existingRows, existingRows + n) of a column in a partition directory.
 * `existingRows` = 0 creates the files. Bytes past the committed rows (left by a crash) are overwritten.
 */
export function appendColumn(session: WriteSession, partitionDir: string, column: ColumnMeta, data: ColumnData, existingRows: number): void {
  const paths = columnFilePaths(partitionDir, column.fileStem);
  if (existingRows > 0 && !session.files.exists(paths.data)) {
    appendColumn(session, partitionDir, column, nullColumnData(column.type, existingRows), 0);
  }
  if (data.kind === 'fixed') {
    const position = existingRows * data.width;
    writeFileAt(session, paths.data, data.bytes, position, position);
    return;
  }
  const dataEnd = existingRows === 0 ? 0 : readIndexEntry(session.files, paths.index, existingRows);
  writeFileAt(session, paths.data, data.bytes, dataEnd, dataEnd);
  writeFileAt(session, paths.index, int64Offsets(data.offsets, dataEnd), existingRows * 8, existingRows * 8);
}

/**
 * The `.i` bytes of record offsets shifted by `base`: int64 little-endian, written as int32 word pairs
 * because a BigInt per row cost more than the rest of the commit.
 */
export function int64Offsets(offsets: Float64Array, base: number): Uint8Array {
  const words = new Int32Array(offsets.length * 2);
  for (let row = 0; row < offsets.length; row++) writeInt64Words(words, row, base + offsets[row]);
  return new Uint8Array(words.buffer);
}

function readIndexEntry(files: FilesFacade, path: string, entry: number): number {
  const fd = files.openRead(path);
  try {
    const bytes = Buffer.alloc(8);
    files.read(fd, bytes, entry * 8);
    return Number(bytes.readBigInt64LE(0));
  } finally {
    files.close(fd);
  }
}

function readRange(files: FilesFacade, path: string, start: number, length: number, memory: ScratchMemory = freshMemory): Buffer {
  const bytes = memory.bytes(length);
  if (length === 0) return bytes;
  const fd = files.openRead(path);
  try {
    let done = 0;
    while (done < length) {
      const read = files.read(fd, bytes.subarray(done), start + done);
      if (read <= 0) break;
      done += read;
    }
    return bytes;
  } finally {
    files.close(fd);
  }
}

/** Reads rows [0, rowCount) of the given columns of a partition into memory (for O3 merges and rewrites). */
export function readPartitionChunk(files: FilesFacade, partitionDir: string, columns: readonly ColumnMeta[], rowCount: number): RowChunk {
  return readPartitionRows(files, partitionDir, columns, 0, rowCount);
}

/** Reads rows [from, to) of the given columns of a partition into `memory`. */
export function readPartitionRows(files: FilesFacade, partitionDir: string, columns: readonly ColumnMeta[], from: number, to: number, memory: ScratchMemory = freshMemory): RowChunk {
  const rowCount = to - from;
  const data = columns.map((column): ColumnData => {
    const paths = columnFilePaths(partitionDir, column.fileStem);
    if (!files.exists(paths.data)) return nullColumnData(column.type, rowCount);
    if (!isVariableSize(column.type)) {
      const width = storageWidthBytes(column.type);
      return { kind: 'fixed', width, bytes: readRange(files, paths.data, from * width, rowCount * width, memory) };
    }
    const start = readIndexEntry(files, paths.index, from);
    const end = readIndexEntry(files, paths.index, to);
    const bytes = readRange(files, paths.data, start, end - start, memory);
    return { kind: 'var', bytes, offsets: varOffsets(bytes, rowCount) };
  });
  return { rowCount, columns: data };
}

/**
 * Copies `length` bytes at `fromOffset` of one file to `toOffset` of another, cutting the target there first
 * (bytes past it are leftovers of an interrupted commit), inside the kernel (FilesFacade.copyRange;
 * bench/micro/column-copy.bench.ts).
 */
function copyFileRange(session: WriteSession, from: string, to: string, length: number, fromOffset = 0, toOffset = 0): void {
  const files = session.files;
  const source = files.openRead(from);
  const target = files.openWrite(to);
  try {
    files.truncate(target, toOffset);
    const copied = files.copyRange(source, target, length, fromOffset, toOffset);
    if (copied < length) throw new Error(`${from} is shorter than its committed rows (${copied} of ${length} bytes)`);
    if (session.durable) files.fsync(target);
  } finally {
    files.close(source);
    files.close(target);
  }
}

/**
 * Copies rows [from, to) of each column of one partition directory to rows [at, at + to - from) of another
 * whose column files hold `at` rows: an out-of-order merge moves the committed rows that follow new ones file
 * to file instead of reading and rewriting them. A column absent from the source gets nulls.
 */
export function copyColumnRows(session: WriteSession, fromDir: string, toDir: string, columns: readonly ColumnMeta[], from: number, to: number, at: number): void {
  assert(from <= to && at >= 0, 'a row range to copy');
  if (from === to) return;
  for (const column of columns) {
    const source = columnFilePaths(fromDir, column.fileStem);
    if (!session.files.exists(source.data)) {
      appendColumn(session, toDir, column, nullColumnData(column.type, to - from), at);
      continue;
    }
    const target = columnFilePaths(toDir, column.fileStem);
    if (at > 0 && !session.files.exists(target.data)) appendColumn(session, toDir, column, nullColumnData(column.type, at), 0);
    if (!isVariableSize(column.type)) {
      const width = storageWidthBytes(column.type);
      copyFileRange(session, source.data, target.data, (to - from) * width, from * width, at * width);
      continue;
    }
    const read = readRange(session.files, source.index, from * 8, (to - from + 1) * 8);
    const entries = read.byteOffset % 4 === 0 ? read : Buffer.from(Uint8Array.from(read).buffer);
    const words = new Int32Array(entries.buffer, entries.byteOffset, (to - from + 1) * 2);
    const sourceStart = int64WordsValue(words, 0);
    const relative = new Float64Array(to - from + 1);
    for (let row = 0; row <= to - from; row++) relative[row] = int64WordsValue(words, row) - sourceStart;
    const targetStart = at === 0 ? 0 : readIndexEntry(session.files, target.index, at);
    copyFileRange(session, source.data, target.data, relative[to - from], sourceStart, targetStart);
    writeFileAt(session, target.index, int64Offsets(relative, targetStart), at * 8, at * 8);
  }
}

/** Entry `row` of little-endian int64 words (file offsets: below 2^53). */
function int64WordsValue(words: Int32Array, row: number): number {
  return words[2 * row + 1] * 4294967296 + (words[2 * row] >>> 0);
}

/**
 * Copies rows [0, rows) of each column from one partition directory into another (a new version of it), so
 * that an out-of-order merge rewrites only the rows from its first out-of-order timestamp on. Columns whose
 * files are absent stay absent (appendColumn fills them with nulls).
 */
export function copyColumnPrefixes(session: WriteSession, fromDir: string, toDir: string, columns: readonly ColumnMeta[], rows: number): void {
  if (rows === 0) return;
  for (const column of columns) {
    const from = columnFilePaths(fromDir, column.fileStem);
    if (!session.files.exists(from.data)) continue;
    const to = columnFilePaths(toDir, column.fileStem);
    if (!isVariableSize(column.type)) {
      copyFileRange(session, from.data, to.data, rows * storageWidthBytes(column.type));
      continue;
    }
    copyFileRange(session, from.data, to.data, readIndexEntry(session.files, from.index, rows));
    // Entry `rows` too: appendColumn reads it as the end of the copied records.
    copyFileRange(session, from.index, to.index, (rows + 1) * 8);
  }
}

/** The first row of a partition whose designated timestamp is at or after `micros` (rowCount when none is). */
export function firstRowAtOrAfter(files: FilesFacade, partitionDir: string, timestamp: ColumnMeta, rowCount: number, micros: number): number {
  const fd = files.openRead(columnFilePaths(partitionDir, timestamp.fileStem).data);
  try {
    const value = Buffer.allocUnsafe(8);
    let low = 0;
    let high = rowCount;
    while (low < high) {
      const middle = (low + high) >>> 1;
      files.read(fd, value, middle * 8);
      const stored = value.readBigInt64LE(0);
      // A TIMESTAMP_NS column compares by its µs floor: the rows before are then strictly older in ns too.
      const storedMicros = timestamp.type === 'TIMESTAMP_NS' ? microsFloorOfNanos(stored) : Number(stored);
      if (storedMicros < micros) low = middle + 1;
      else high = middle;
    }
    return low;
  } finally {
    files.close(fd);
  }
}

