// SYMBOL values as ids into a small dictionary of their distinct texts: the form the line protocol's tags take
// from the worker to the writer. A request repeats a few tag values over many rows, so the writer looks each
// distinct value up once (instead of hashing every row's text), and the staged file and the WAL record carry
// 4 bytes per row plus the dictionary instead of every row's text. Rows in this form are "incoming": the
// writer turns them into keys of the table's dictionary before anything but the WAL sees them.
import { assert, assertNever } from '../core/assert.js';
import type { ColumnData, VarColumnData } from './row-chunk.js';
import { chunkColumnRowCount, concatColumnList } from './row-chunk.js';
import { freshMemory, type ScratchMemory } from '../core/scratch-memory.js';

export interface SymbolIdsColumnData {
  readonly kind: 'symbolIds';
  /** One int32 little-endian id per row into `dictionary`; -1 is null. */
  readonly ids: Buffer;
  /** The distinct values, as text records ([int32 length][utf8]), each non-null. */
  readonly dictionary: VarColumnData;
}

export type IncomingColumnData = ColumnData | SymbolIdsColumnData;

/** Rows on their way into a table writer: like RowChunk, but SYMBOL columns may still be dictionary-coded. */
export interface IncomingChunk {
  readonly rowCount: number;
  readonly columns: readonly IncomingColumnData[];
}

export function incomingColumnRowCount(column: IncomingColumnData): number {
  return column.kind === 'symbolIds' ? column.ids.length >> 2 : chunkColumnRowCount(column);
}

export function dictionarySize(column: SymbolIdsColumnData): number {
  return column.dictionary.offsets.length - 1;
}

export function assertIncomingChunk(chunk: IncomingChunk, why: string): void {
  for (const column of chunk.columns) {
    assert(incomingColumnRowCount(column) === chunk.rowCount, `${why}: every column holds rowCount rows`);
  }
}

/** Ids of a column, as int32 values (the buffer is copied when it is not 4-byte aligned). */
export function idsOf(column: SymbolIdsColumnData): Int32Array {
  const ids = column.ids;
  if (ids.byteOffset % 4 === 0) return new Int32Array(ids.buffer, ids.byteOffset, ids.length >> 2);
  return new Int32Array(new Uint8Array(ids).buffer);
}

/** `rowCount` nulls. */
export function nullSymbolIds(rowCount: number): SymbolIdsColumnData {
  const ids = Buffer.alloc(rowCount * 4, 0xff);
  return { kind: 'symbolIds', ids, dictionary: { kind: 'var', bytes: Buffer.alloc(0), offsets: new Float64Array(1) } };
}

/**
 * Keys (int32 little-endian, -1 for null) of every row, written `into` when given: `keyOf` is asked once per
 * dictionary entry. Ids outside the dictionary are refused (the column came from a file).
 */
export function symbolIdsToKeys(column: SymbolIdsColumnData, keyOf: (value: string) => number, into?: Int32Array): Buffer {
  const dictionary = column.dictionary;
  const entries = dictionarySize(column);
  const keyOfEntry = new Int32Array(entries);
  for (let entry = 0; entry < entries; entry++) {
    const start = dictionary.offsets[entry];
    const length = dictionary.bytes.readInt32LE(start);
    assert(length >= 0, 'symbol dictionary entries are not null');
    keyOfEntry[entry] = keyOf(dictionary.bytes.toString('utf8', start + 4, start + 4 + length));
  }
  const ids = idsOf(column);
  assert(into === undefined || into.length === ids.length, 'keys are written into an array of one value per row');
  const keys = into ?? new Int32Array(ids.length);
  assert(mapIdsToKeys(ids, keyOfEntry, keys) === 0, 'symbol ids point into their dictionary');
  return Buffer.from(keys.buffer, keys.byteOffset, keys.byteLength);
}

/**
 * `keys[row]` = the key of `ids[row]`'s entry, -1 for a null id; returns how many ids were past the dictionary.
 * A loop of its own with no call in it: with the per-row assertion inside, it ran at ~25 ns a row.
 */
function mapIdsToKeys(ids: Int32Array, keyOfEntry: Int32Array, keys: Int32Array): number {
  const entries = keyOfEntry.length;
  let outside = 0;
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row];
    if (id >= entries) outside++;
    keys[row] = id < 0 ? -1 : keyOfEntry[id];
  }
  return outside;
}

/** The values as text records, for a place that needs the plain form (concatenation with text). */
export function symbolIdsToText(column: SymbolIdsColumnData): VarColumnData {
  const dictionary = column.dictionary;
  const ids = idsOf(column);
  const entries = dictionarySize(column);
  let total = 0;
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row];
    assert(id < entries, 'symbol ids point into their dictionary');
    total += id < 0 ? 4 : dictionary.offsets[id + 1] - dictionary.offsets[id];
  }
  const bytes = Buffer.allocUnsafe(total);
  const offsets = new Float64Array(ids.length + 1);
  let position = 0;
  for (let row = 0; row < ids.length; row++) {
    offsets[row] = position;
    const id = ids[row];
    if (id < 0) {
      bytes.writeInt32LE(-1, position);
      position += 4;
      continue;
    }
    const start = dictionary.offsets[id];
    const end = dictionary.offsets[id + 1];
    dictionary.bytes.copy(bytes, position, start, end);
    position += end - start;
  }
  offsets[ids.length] = position;
  return { kind: 'var', bytes, offsets };
}

/**
 * Columns of several chunks, one after another. Dictionary-coded parts keep their form (dictionaries
 * concatenated, ids shifted; a value two parts share is in the dictionary twice and costs one more lookup);
 * mixed with text, every part becomes text. The result is in `memory`.
 */
export function concatIncomingColumns(parts: readonly IncomingColumnData[], memory: ScratchMemory = freshMemory): IncomingColumnData {
  const first = parts[0];
  assert(first !== undefined, 'at least one column');
  if (parts.length === 1) return first;
  const coded: SymbolIdsColumnData[] = [];
  const plain: ColumnData[] = [];
  for (const part of parts) {
    if (part.kind === 'symbolIds') coded.push(part);
    else plain.push(part);
  }
  if (coded.length === 0) return concatColumnList(plain, memory);
  if (plain.length > 0) return concatColumnList(parts.map((part) => (part.kind === 'symbolIds' ? symbolIdsToText(part) : part)), memory);
  const rowCount = coded.reduce((sum, part) => sum + (part.ids.length >> 2), 0);
  const ids = memory.int32(rowCount);
  let row = 0;
  let base = 0;
  for (const part of coded) {
    const partIds = idsOf(part);
    for (let k = 0; k < partIds.length; k++) {
      const id = partIds[k];
      ids[row + k] = id < 0 ? -1 : id + base;
    }
    row += partIds.length;
    base += dictionarySize(part);
  }
  const dictionary = concatColumnList(coded.map((part) => part.dictionary), memory);
  assert(dictionary.kind === 'var', 'dictionaries are text records');
  return { kind: 'symbolIds', ids: Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength), dictionary };
}

/** Concatenates several chunks with one copy per column, into `memory`. */
export function concatIncomingChunks(chunks: readonly IncomingChunk[], memory: ScratchMemory = freshMemory): IncomingChunk {
  const first = chunks[0];
  assert(first !== undefined, 'at least one chunk');
  if (chunks.length === 1) return first;
  assert(chunks.every((chunk) => chunk.columns.length === first.columns.length), 'concatenated chunks have the same columns');
  const rowCount = chunks.reduce((sum, chunk) => sum + chunk.rowCount, 0);
  return { rowCount, columns: first.columns.map((_, k) => concatIncomingColumns(chunks.map((chunk) => chunk.columns[k]), memory)) };
}

/** Memory of its own, 8-aligned like a staged read's, holding `bytes`. */
function ownedCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

function ownVarColumn(column: VarColumnData): VarColumnData {
  return { kind: 'var', bytes: ownedCopy(column.bytes), offsets: column.offsets.slice() };
}

/** A copy of `chunk` in memory of its own: for a chunk kept past the call that lent it (its views may be reused memory). */
export function ownIncomingChunk(chunk: IncomingChunk): IncomingChunk {
  const columns = chunk.columns.map((column): IncomingColumnData => {
    switch (column.kind) {
      case 'fixed': return { kind: 'fixed', width: column.width, bytes: ownedCopy(column.bytes) };
      case 'var': return ownVarColumn(column);
      case 'symbolIds': return { kind: 'symbolIds', ids: ownedCopy(column.ids), dictionary: ownVarColumn(column.dictionary) };
      default: return assertNever(column);
    }
  });
  return { rowCount: chunk.rowCount, columns };
}
