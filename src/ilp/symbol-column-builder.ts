// A SYMBOL column (tags) built as ids into the distinct values this builder has seen: each row costs a hash of
// its value's bytes and one compare, and the writer looks each distinct value up once instead of per row
// (storage/symbol-ids.ts). The value table is open-addressed with linear probing; entries are only ever
// removed newest first (an unfinished row cut off again), which keeps every other entry's probe chain intact.
import { isUtf8 } from 'node:buffer';
import { assert } from '../core/assert.js';
import type { ColumnType } from '../types/column-type.js';
import type { SymbolIdsColumnData } from '../storage/symbol-ids.js';
import { VarColumnBuilder } from './column-builder.js';
import { IlpValueError } from './ilp-errors.js';
import type { ArrayBufferPool } from '../core/array-buffer-pool.js';
import { builderMemory } from './builder-memory.js';

const INITIAL_ROWS = 256;
/** FNV-1a over a value's bytes: hash = Math.imul(hash ^ byte, SYMBOL_HASH_PRIME) from SYMBOL_HASH_SEED. */
export const SYMBOL_HASH_SEED = -2128831035;
export const SYMBOL_HASH_PRIME = 16777619;
const INITIAL_SLOTS = 64;

export class SymbolColumnBuilder {
  readonly kind = 'symbol';
  /** Ids of the values written so far (committed rows plus the current row's value, if set); -1 is null. */
  private ids: Int32Array;
  length = 0;
  /** The distinct values in the order they were first seen: entry k has id k. */
  private readonly dictionary: VarColumnBuilder;
  /** Entry + 1 per slot, 0 for a free slot. */
  private slots = new Int32Array(INITIAL_SLOTS);
  private entryHash = new Int32Array(INITIAL_SLOTS >> 1);
  private entrySlot = new Int32Array(INITIAL_SLOTS >> 1);
  /** The value index that added each entry: cutting values off removes the entries they added. */
  private entryFirstValue = new Int32Array(INITIAL_SLOTS >> 1);

  constructor(readonly type: ColumnType, rows: number = INITIAL_ROWS, private readonly memory: ArrayBufferPool = builderMemory) {
    this.ids = new Int32Array(memory.take(Math.max(rows, INITIAL_ROWS) * 4));
    this.dictionary = new VarColumnBuilder('VARCHAR', INITIAL_ROWS, memory);
  }

  /** Appends the value spelled by bytes [start, end) (escapes already removed). Throws on invalid UTF-8. */
  append(bytes: Uint8Array, start: number, end: number): void {
    let hash = SYMBOL_HASH_SEED;
    for (let at = start; at < end; at++) hash = Math.imul(hash ^ bytes[at], SYMBOL_HASH_PRIME);
    this.appendHashed(bytes, start, end, hash);
  }

  /** append() for a caller that computed the value's hash (FNV-1a from SYMBOL_HASH_SEED) while scanning it. */
  appendHashed(bytes: Uint8Array, start: number, end: number, hash: number): void {
    const mask = this.slots.length - 1;
    const dictionary = this.dictionary;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (;;) {
      const held = this.slots[slot];
      if (held === 0) break;
      const entry = held - 1;
      if (this.entryHash[entry] === hash && sameValue(dictionary, entry, bytes, start, end)) {
        this.push(entry);
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.addEntry(bytes, start, end, hash, slot);
  }

  private addEntry(bytes: Uint8Array, start: number, end: number, hash: number, slot: number): void {
    let high = 0;
    for (let at = start; at < end; at++) high |= bytes[at];
    if (high >= 0x80 && !isUtf8(bytes.subarray(start, end))) throw new IlpValueError('invalid UTF-8 in a value');
    const entry = this.dictionary.length;
    const payload = this.dictionary.reserve(end - start);
    this.dictionary.bytes.set(bytes.subarray(start, end), payload);
    if (entry >= this.entryHash.length) this.growEntries();
    this.entryHash[entry] = hash;
    this.entrySlot[entry] = slot;
    this.entryFirstValue[entry] = this.length;
    this.slots[slot] = entry + 1;
    this.push(entry);
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
  }

  /** Appends an id this builder gave out earlier (a repeated tag set, tag-set-cache.ts). */
  appendId(id: number): void {
    assert(id >= -1 && id < this.dictionary.length, 'a replayed id names a value this builder still holds');
    this.push(id);
  }

  /** The id of the last value appended. */
  lastId(): number {
    assert(this.length > 0, 'a value was appended');
    return this.ids[this.length - 1];
  }

  /** Distinct values held: cutting values off that added some lowers it. */
  get entryCount(): number {
    return this.dictionary.length;
  }

  private push(id: number): void {
    if (this.length === this.ids.length) {
      const ids = new Int32Array(this.memory.take(Math.max(this.ids.length * 2, INITIAL_ROWS) * 4));
      ids.set(this.ids);
      const old = this.ids.buffer;
      this.ids = ids;
      this.memory.give(old);
    }
    this.ids[this.length++] = id;
  }

  private growEntries(): void {
    const size = this.entryHash.length * 2;
    this.entryHash = grown(this.entryHash, size);
    this.entrySlot = grown(this.entrySlot, size);
    this.entryFirstValue = grown(this.entryFirstValue, size);
  }

  /** Places every entry again, in the order they were added (so removal newest first stays valid). */
  private rehash(slotCount: number): void {
    const slots = new Int32Array(slotCount);
    const mask = slotCount - 1;
    for (let entry = 0; entry < this.dictionary.length; entry++) {
      const hash = this.entryHash[entry];
      let slot = (hash ^ (hash >>> 15)) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
      this.entrySlot[entry] = slot;
    }
    this.slots = slots;
  }

  appendNull(): void {
    this.push(-1);
  }

  /** Keeps the first `rows` values, and drops the dictionary entries only the others used. */
  truncate(rows: number): void {
    assert(rows <= this.length, 'truncate only shortens a column');
    this.length = rows;
    let entries = this.dictionary.length;
    while (entries > 0 && this.entryFirstValue[entries - 1] >= rows) {
      entries--;
      this.slots[this.entrySlot[entries]] = 0;
    }
    this.dictionary.truncate(entries);
  }

  sizeBytes(): number {
    return this.length * 4 + this.dictionary.sizeBytes();
  }

  /** Gives the id and dictionary buffers back to the pool once the rows are staged. Safe to repeat. */
  release(): void {
    const old = this.ids.buffer;
    this.ids = new Int32Array(0);
    this.length = 0;
    this.memory.give(old);
    this.dictionary.release();
  }

  toColumnData(): SymbolIdsColumnData {
    return { kind: 'symbolIds', ids: Buffer.from(this.ids.buffer, 0, this.length * 4), dictionary: this.dictionary.toColumnData() };
  }
}

function sameValue(dictionary: VarColumnBuilder, entry: number, bytes: Uint8Array, start: number, end: number): boolean {
  const payload = dictionary.offsets[entry] + 4;
  const held = dictionary.bytes;
  const length = end - start;
  if (dictionary.offsets[entry + 1] - payload !== length) return false;
  for (let k = 0; k < length; k++) if (held[payload + k] !== bytes[start + k]) return false;
  return true;
}

function grown(values: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(size);
  out.set(values);
  return out;
}
