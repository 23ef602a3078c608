// RowChunk: rows in storage form, one byte buffer per column, as they go into the WAL and the column files.
// Fixed-width columns are little-endian values; variable-size columns are [int32 length][bytes] records
// with row offsets. Before symbol resolution SYMBOL columns are variable-size text; after, int32 keys.
import { assert } from '../core/assert.js';
import { freshMemory, type ScratchMemory } from '../core/scratch-memory.js';

export interface FixedColumnData {
  readonly kind: 'fixed';
  readonly width: number;
  /** rowCount × width bytes. */
  readonly bytes: Buffer;
}

export interface VarColumnData {
  readonly kind: 'var';
  /** Concatenated records: int32 length (-1 = null) followed by that many bytes. */
  readonly bytes: Buffer;
  /** rowCount + 1 offsets into bytes; record k spans [offsets[k], offsets[k + 1]). */
  readonly offsets: Float64Array;
}

export type ColumnData = FixedColumnData | VarColumnData;

export interface RowChunk {
  readonly rowCount: number;
  readonly columns: readonly ColumnData[];
}

export function chunkColumnRowCount(column: ColumnData): number {
  return column.kind === 'fixed' ? column.bytes.length / column.width : column.offsets.length - 1;
}

export function assertChunk(chunk: RowChunk, why: string): void {
  for (const column of chunk.columns) {
    assert(chunkColumnRowCount(column) === chunk.rowCount, `${why}: every column holds rowCount rows`);
  }
}

/** Builds a variable-size column from text values (null → length -1). */
export function varColumnFromStrings(values: readonly (string | null)[], rowCount: number): VarColumnData {
  const lengths = new Int32Array(rowCount);
  let total = 0;
  for (let row = 0; row < rowCount; row++) {
    const value = values[row];
    const length = value === null || value === undefined ? -1 : Buffer.byteLength(value, 'utf8');
    lengths[row] = length;
    total += 4 + (length > 0 ? length : 0);
  }
  const bytes = Buffer.allocUnsafe(total);
  const offsets = new Float64Array(rowCount + 1);
  let position = 0;
  for (let row = 0; row < rowCount; row++) {
    offsets[row] = position;
    const length = lengths[row];
    bytes.writeInt32LE(length, position);
    position += 4;
    if (length > 0) position += bytes.write(values[row] as string, position, length, 'utf8');
  }
  offsets[rowCount] = position;
  return { kind: 'var', bytes, offsets };
}

/** Builds a variable-size column from binary values. */
export function varColumnFromBinary(values: readonly (Uint8Array | null)[], rowCount: number): VarColumnData {
  return varColumnOfRecords(values, rowCount, plainRecordBytes, false);
}

/**
 * DOUBLE[] values in the BINARY record layout, each record padded to a multiple of 8 bytes (a null is its -1
 * length and 4 zero bytes), so that in a file written from offset 0 every value's elements are 8-byte aligned
 * and readers can view them as a Float64Array (types/double-array.ts).
 */
export function varColumnFromArrays(values: readonly (Uint8Array | null)[], rowCount: number): VarColumnData {
  return varColumnOfRecords(values, rowCount, paddedArrayRecordBytes, true);
}

/** Records of a length (-1 for null) and the value's bytes, each `recordBytes` long (padding zero-filled when asked). */
function varColumnOfRecords(
  values: readonly (Uint8Array | null)[], rowCount: number, recordBytes: (value: Uint8Array | null | undefined) => number, zeroFilled: boolean,
): VarColumnData {
  let total = 0;
  for (let row = 0; row < rowCount; row++) total += recordBytes(values[row]);
  const bytes = zeroFilled ? Buffer.alloc(total) : Buffer.allocUnsafe(total);
  const offsets = new Float64Array(rowCount + 1);
  let position = 0;
  for (let row = 0; row < rowCount; row++) {
    offsets[row] = position;
    const value = values[row];
    if (value === null || value === undefined) {
      bytes.writeInt32LE(-1, position);
    } else {
      bytes.writeInt32LE(value.length, position);
      bytes.set(value, position + 4);
    }
    position += recordBytes(value);
  }
  offsets[rowCount] = position;
  return { kind: 'var', bytes, offsets };
}

function plainRecordBytes(value: Uint8Array | null | undefined): number {
  return 4 + (value?.length ?? 0);
}

function paddedArrayRecordBytes(value: Uint8Array | null | undefined): number {
  const length = 4 + (value?.length ?? 0);
  return length + ((8 - (length % 8)) % 8);
}

/** Records [start, start + count) of a variable-size column: views of their bytes when `binary`, else text; null for length -1. */
export function varColumnValues(column: VarColumnData, start: number, count: number, binary: boolean): (string | Uint8Array | null)[] {
  const values = new Array<string | Uint8Array | null>(count);
  for (let k = 0; k < count; k++) {
    const offset = column.offsets[start + k];
    const length = column.bytes.readInt32LE(offset);
    values[k] = length < 0 ? null : binary ? column.bytes.subarray(offset + 4, offset + 4 + length) : column.bytes.toString('utf8', offset + 4, offset + 4 + length);
  }
  return values;
}

/** Reads record `row` of a variable-size column as text (null for length -1). */
export function varValueAsString(column: VarColumnData, row: number): string | null {
  const start = column.offsets[row];
  const length = column.bytes.readInt32LE(start);
  if (length < 0) return null;
  return column.bytes.toString('utf8', start + 4, start + 4 + length);
}

/**
 * Fixed-width values of rows `indexes[from..from+count)`: word copies through typed views when both buffers
 * are aligned (an 8-byte value as two int32 words, so no value passes through a double and a NaN payload
 * can never be changed), else a byte loop. A native copy call per row cost more than the copy itself.
 */
function gatherFixed(source: Buffer, width: number, indexes: Int32Array, from: number, count: number, memory: ScratchMemory): Buffer {
  const out = memory.bytes(count * width);
  const wordWidth = width === 8 || width === 16 ? 4 : width;
  const aligned = (source.byteOffset % wordWidth === 0) && (out.byteOffset % wordWidth === 0) && (wordWidth === 4 || wordWidth === 2 || wordWidth === 1);
  if (aligned && wordWidth === 4) {
    const words = width / 4;
    const input = new Int32Array(source.buffer, source.byteOffset, source.length >> 2);
    const output = new Int32Array(out.buffer, out.byteOffset, count * words);
    for (let k = 0; k < count; k++) {
      const base = indexes[from + k] * words;
      for (let w = 0; w < words; w++) output[k * words + w] = input[base + w];
    }
    return out;
  }
  if (aligned && wordWidth === 2) {
    const input = new Int16Array(source.buffer, source.byteOffset, source.length >> 1);
    const output = new Int16Array(out.buffer, out.byteOffset, count);
    for (let k = 0; k < count; k++) output[k] = input[indexes[from + k]];
    return out;
  }
  for (let k = 0; k < count; k++) {
    const start = indexes[from + k] * width;
    for (let b = 0; b < width; b++) out[k * width + b] = source[start + b];
  }
  return out;
}

/**
 * Rows gathered in runs of consecutive source rows averaging at least this many are copied run by run: a
 * group commit's overlapping units, a merge's sorted rows and deduplication's survivors mostly keep long runs.
 */
const GATHER_RUN_ROWS_MIN = 32;

/**
 * Where each run of consecutive source rows in `indexes[from..to)` starts (and `to` last), or undefined when
 * they average fewer than GATHER_RUN_ROWS_MIN rows (stops counting there, so random orders cost little).
 */
export function consecutiveRuns(indexes: Int32Array, from: number, to: number, memory: ScratchMemory): Int32Array | undefined {
  const runsMax = Math.floor((to - from) / GATHER_RUN_ROWS_MIN);
  if (runsMax === 0) return undefined;
  const starts = memory.int32(runsMax + 1);
  let runs = 0;
  for (let k = from; k < to; k++) {
    if (k > from && indexes[k] === indexes[k - 1] + 1) continue;
    if (runs === runsMax) return undefined;
    starts[runs++] = k;
  }
  starts[runs] = to;
  return starts.subarray(0, runs + 1);
}

/** gatherColumn for rows that form `runs` (consecutiveRuns): one block copy per run. */
function gatherColumnRuns(column: ColumnData, indexes: Int32Array, runs: Int32Array, from: number, to: number, memory: ScratchMemory): ColumnData {
  const count = to - from;
  if (column.kind === 'fixed') {
    const width = column.width;
    const out = memory.bytes(count * width);
    for (let r = 0; r + 1 < runs.length; r++) {
      const source = indexes[runs[r]] * width;
      column.bytes.copy(out, (runs[r] - from) * width, source, source + (runs[r + 1] - runs[r]) * width);
    }
    return { kind: 'fixed', width, bytes: out };
  }
  let total = 0;
  for (let r = 0; r + 1 < runs.length; r++) total += column.offsets[indexes[runs[r + 1] - 1] + 1] - column.offsets[indexes[runs[r]]];
  const out = memory.bytes(total);
  const offsets = memory.float64(count + 1);
  let position = 0;
  for (let r = 0; r + 1 < runs.length; r++) {
    const first = indexes[runs[r]];
    const rows = runs[r + 1] - runs[r];
    const base = column.offsets[first];
    const end = column.offsets[first + rows];
    for (let k = 0; k < rows; k++) offsets[runs[r] - from + k] = position + column.offsets[first + k] - base;
    column.bytes.copy(out, position, base, end);
    position += end - base;
  }
  offsets[count] = position;
  return { kind: 'var', bytes: out, offsets };
}

/** Rows `indexes[from..to)` of a column, in that order, in `memory`. */
export function gatherColumn(column: ColumnData, indexes: Int32Array, from: number, to: number, memory: ScratchMemory = freshMemory): ColumnData {
  return gatherColumnInRuns(column, indexes, consecutiveRuns(indexes, from, to, memory), from, to, memory);
}

/**
 * gatherColumn with the runs of `indexes[from..to)` found already (consecutiveRuns, undefined for none): the
 * columns of one chunk share them, and finding them per column cost a tenth of a wide table's gather.
 */
export function gatherColumnInRuns(column: ColumnData, indexes: Int32Array, runs: Int32Array | undefined, from: number, to: number, memory: ScratchMemory): ColumnData {
  return runs === undefined ? gatherColumnRows(column, indexes, from, to, memory) : gatherColumnRuns(column, indexes, runs, from, to, memory);
}

/** gatherColumn row by row. */
function gatherColumnRows(column: ColumnData, indexes: Int32Array, from: number, to: number, memory: ScratchMemory): ColumnData {
  const count = to - from;
  if (column.kind === 'fixed') {
    return { kind: 'fixed', width: column.width, bytes: gatherFixed(column.bytes, column.width, indexes, from, count, memory) };
  }
  let total = 0;
  for (let k = from; k < to; k++) {
    const row = indexes[k];
    total += column.offsets[row + 1] - column.offsets[row];
  }
  const out = memory.bytes(total);
  const offsets = memory.float64(count + 1);
  let position = 0;
  for (let k = 0; k < count; k++) {
    const row = indexes[from + k];
    const start = column.offsets[row];
    const end = column.offsets[row + 1];
    offsets[k] = position;
    // Records are short (a length and a few bytes): a loop beats a native copy call per row.
    if (end - start <= 64) {
      const source = column.bytes;
      for (let at = start; at < end; at++) out[position++] = source[at];
    } else {
      column.bytes.copy(out, position, start, end);
      position += end - start;
    }
  }
  offsets[count] = position;
  return { kind: 'var', bytes: out, offsets };
}

/** Rows `indexes[from..to)` of a chunk, in that order, in `memory`. */
export function gatherChunk(chunk: RowChunk, indexes: Int32Array, from: number, to: number, memory: ScratchMemory = freshMemory): RowChunk {
  // The runs are found once for every column.
  const runs = consecutiveRuns(indexes, from, to, memory);
  const columns = chunk.columns.map((column) => gatherColumnInRuns(column, indexes, runs, from, to, memory));
  return { rowCount: to - from, columns };
}

/** Rows [from, to) without reordering. */
export function sliceColumn(column: ColumnData, from: number, to: number): ColumnData {
  if (column.kind === 'fixed') {
    return { kind: 'fixed', width: column.width, bytes: column.bytes.subarray(from * column.width, to * column.width) };
  }
  const base = column.offsets[from];
  const offsets = new Float64Array(to - from + 1);
  for (let k = 0; k <= to - from; k++) offsets[k] = column.offsets[from + k] - base;
  return { kind: 'var', bytes: column.bytes.subarray(base, column.offsets[to]), offsets };
}

export function sliceChunk(chunk: RowChunk, from: number, to: number): RowChunk {
  if (from === 0 && to === chunk.rowCount) return chunk;
  return { rowCount: to - from, columns: chunk.columns.map((column) => sliceColumn(column, from, to)) };
}

/** Columns of the same layout, one after another, in one copy into `memory`. */
export function concatColumnList(parts: readonly ColumnData[], memory: ScratchMemory = freshMemory): ColumnData {
  const first = parts[0];
  assert(first !== undefined, 'at least one column');
  if (parts.length === 1) return first;
  if (first.kind === 'fixed') {
    assert(parts.every((part) => part.kind === 'fixed'), 'concatenated columns have the same layout');
    return { kind: 'fixed', width: first.width, bytes: concatBytes(parts.map((part) => part.bytes), memory) };
  }
  const rowCount = parts.reduce((sum, part) => sum + columnRows(part), 0);
  const offsets = memory.float64(rowCount + 1);
  let row = 0;
  let base = 0;
  for (const part of parts) {
    assert(part.kind === 'var', 'concatenated columns have the same layout');
    const partRows = part.offsets.length - 1;
    for (let k = 0; k < partRows; k++) offsets[row + k] = part.offsets[k] + base;
    row += partRows;
    base += part.bytes.length;
  }
  offsets[rowCount] = base;
  return { kind: 'var', bytes: concatBytes(parts.map((part) => part.bytes), memory), offsets };
}

/** Buffer.concat into `memory`. */
function concatBytes(parts: readonly Uint8Array[], memory: ScratchMemory): Buffer {
  const out = memory.bytes(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function columnRows(column: ColumnData): number {
  return column.kind === 'fixed' ? column.bytes.length / column.width : column.offsets.length - 1;
}

export function concatColumns(a: ColumnData, b: ColumnData): ColumnData {
  return concatColumnList([a, b]);
}

export function concatChunks(a: RowChunk, b: RowChunk): RowChunk {
  return concatChunkList([a, b]);
}

/** Concatenates several chunks with one copy per column (pairwise concatenation would copy the prefix again each time). */
export function concatChunkList(chunks: readonly RowChunk[], memory: ScratchMemory = freshMemory): RowChunk {
  const first = chunks[0];
  assert(first !== undefined, 'at least one chunk');
  if (chunks.length === 1) return first;
  assert(chunks.every((chunk) => chunk.columns.length === first.columns.length), 'concatenated chunks have the same columns');
  const rowCount = chunks.reduce((sum, chunk) => sum + chunk.rowCount, 0);
  return { rowCount, columns: first.columns.map((_, k) => concatColumnList(chunks.map((chunk) => chunk.columns[k]), memory)) };
}

/** Record offsets of a variable-size column ([int32 length][bytes] records, length -1 = null) by walking its length prefixes. */
export function varOffsets(bytes: Buffer, rowCount: number): Float64Array {
  const offsets = new Float64Array(rowCount + 1);
  let position = 0;
  for (let row = 0; row < rowCount; row++) {
    offsets[row] = position;
    const length = bytes.readInt32LE(position);
    position += 4 + (length > 0 ? length : 0);
  }
  offsets[rowCount] = position;
  return offsets;
}
