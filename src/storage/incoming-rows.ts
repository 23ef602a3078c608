// Reordering and keeping incoming rows (symbol-ids.ts): rows gathered in a new order, sliced, and copied into
// memory that outlives a write turn with each SYMBOL column's dictionary reduced to the values its rows use.
// The copy is what the TCP hold (engine/tcp-row-hold.ts) keeps between group commits: without the reduction a
// dictionary held across many groups would keep every group's dictionaries, concatenated.
import { assert, assertNever } from '../core/assert.js';
import type { ScratchMemory } from '../core/scratch-memory.js';
import { consecutiveRuns, gatherColumnInRuns, sliceColumn, type VarColumnData } from './row-chunk.js';
import { dictionarySize, idsOf, type IncomingChunk, type IncomingColumnData, type SymbolIdsColumnData } from './symbol-ids.js';

/** Rows `order[from..to)` of `chunk`, in that order, in `memory`; dictionaries are shared, not copied. */
export function gatherIncomingChunk(chunk: IncomingChunk, order: Int32Array, from: number, to: number, memory: ScratchMemory): IncomingChunk {
  // The runs are found once for every column.
  const runs = consecutiveRuns(order, from, to, memory);
  const columns = chunk.columns.map((column): IncomingColumnData => {
    if (column.kind !== 'symbolIds') return gatherColumnInRuns(column, order, runs, from, to, memory);
    const ids = gatherColumnInRuns({ kind: 'fixed', width: 4, bytes: column.ids }, order, runs, from, to, memory);
    assert(ids.kind === 'fixed', 'ids gather as a fixed-width column');
    return { kind: 'symbolIds', ids: ids.bytes, dictionary: column.dictionary };
  });
  return { rowCount: to - from, columns };
}

/** Rows [from, to) of `chunk` as views (offsets of text columns are new arrays). */
export function sliceIncomingChunk(chunk: IncomingChunk, from: number, to: number): IncomingChunk {
  if (from === 0 && to === chunk.rowCount) return chunk;
  const columns = chunk.columns.map((column): IncomingColumnData => {
    if (column.kind !== 'symbolIds') return sliceColumn(column, from, to);
    return { kind: 'symbolIds', ids: column.ids.subarray(from * 4, to * 4), dictionary: column.dictionary };
  });
  return { rowCount: to - from, columns };
}

/** `chunk` copied into `memory`, each dictionary holding only the distinct values its rows use. */
export function copyIncomingChunk(chunk: IncomingChunk, memory: ScratchMemory): IncomingChunk {
  const columns = chunk.columns.map((column): IncomingColumnData => {
    switch (column.kind) {
      case 'fixed': return { kind: 'fixed', width: column.width, bytes: copyBytes(column.bytes, memory) };
      case 'var': return copyVarColumn(column, memory);
      case 'symbolIds': return compactSymbolIds(column, memory);
      default: return assertNever(column);
    }
  });
  return { rowCount: chunk.rowCount, columns };
}

function copyBytes(bytes: Buffer, memory: ScratchMemory): Buffer {
  const copy = memory.bytes(bytes.length);
  bytes.copy(copy);
  return copy;
}

function copyVarColumn(column: VarColumnData, memory: ScratchMemory): VarColumnData {
  const rows = column.offsets.length - 1;
  const base = column.offsets[0];
  const bytes = copyBytes(column.bytes.subarray(base, column.offsets[rows]), memory);
  const offsets = memory.float64(rows + 1);
  for (let k = 0; k <= rows; k++) offsets[k] = column.offsets[k] - base;
  return { kind: 'var', bytes, offsets };
}

/** The column with new ids into a dictionary of the distinct values its rows use, in order of first use. */
function compactSymbolIds(column: SymbolIdsColumnData, memory: ScratchMemory): SymbolIdsColumnData {
  const ids = idsOf(column);
  const dictionary = column.dictionary;
  const entries = dictionarySize(column);
  // -2: not seen yet. Entries with the same text (one per concatenated part) get one new id.
  const newIdOf = new Int32Array(entries).fill(-2);
  const idOfText = new Map<string, number>();
  const kept: number[] = [];
  const newIds = memory.int32(ids.length);
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row];
    if (id < 0) {
      newIds[row] = -1;
      continue;
    }
    assert(id < entries, 'symbol ids point into their dictionary');
    let newId = newIdOf[id];
    if (newId === -2) {
      const text = dictionary.bytes.toString('latin1', dictionary.offsets[id], dictionary.offsets[id + 1]);
      newId = idOfText.get(text) ?? kept.length;
      if (newId === kept.length) {
        idOfText.set(text, newId);
        kept.push(id);
      }
      newIdOf[id] = newId;
    }
    newIds[row] = newId;
  }
  let total = 0;
  for (const id of kept) total += dictionary.offsets[id + 1] - dictionary.offsets[id];
  const bytes = memory.bytes(total);
  const offsets = memory.float64(kept.length + 1);
  let position = 0;
  kept.forEach((id, k) => {
    offsets[k] = position;
    position += dictionary.bytes.copy(bytes, position, dictionary.offsets[id], dictionary.offsets[id + 1]);
  });
  offsets[kept.length] = position;
  return { kind: 'symbolIds', ids: Buffer.from(newIds.buffer, newIds.byteOffset, newIds.byteLength), dictionary: { kind: 'var', bytes, offsets } };
}

