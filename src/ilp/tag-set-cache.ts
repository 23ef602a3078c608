// The tag sets of one table seen in one commit unit, so a line whose tags repeat an earlier line's byte for
// byte (the usual case: a host sends the same tags with every row) costs one byte compare of its tag section
// instead of a key match, a value scan and a dictionary lookup per tag. An entry keeps the SYMBOL builders the
// earlier line wrote and the ids it got; replaying it appends the same ids.
// Invariants: an entry is recorded only from a tag section parsed without error in which every tag went into a
// SYMBOL builder by the plain path, with no escape in its keys or values; the owner clears the cache whenever an id it may hold stops
// naming the same value (dictionary entries cut off, builders emptied).
import type { SymbolColumnBuilder } from './symbol-column-builder.js';
import { assert } from '../core/assert.js';

const SPACE = 32;
const BACKSLASH = 92;
/** Longest tag section looked up; longer ones are parsed the general way (their bytes are not worth keeping). */
const SECTION_BYTES_MAX = 2048;
/** Distinct tag sets kept per table; a unit with more starts over (one pass of misses, as at its start). */
const TAG_SETS_MAX = 4096;
/** Hash slots to start with: a power of two, kept at least twice the entries so probe chains stay short. */
const INITIAL_SLOT_COUNT = 64;
/** Tags of one line a recording keeps; a longer tag section is parsed the general way every time. */
const RECORDED_TAGS_MAX = 64;
const INITIAL_ARENA_BYTES = 4096;
/** Golden-ratio multiplier of the word hash (Fibonacci hashing): spreads each word's bits over the result. */
const HASH_MULTIPLIER = -1640531535;

interface TagSetEntry {
  /** Where the section's bytes (from its first comma, without the space after it) start in the arena. */
  readonly start: number;
  readonly sizeBytes: number;
  readonly hash: number;
  readonly builders: readonly SymbolColumnBuilder[];
  readonly ids: Int32Array;
  /** Tags the line had (duplicates included): the field position where its fields start. */
  readonly tagCount: number;
  /** The entry the line after this one repeated last time (-1: none yet): tried first, before any hashing. */
  successor: number;
}

export class TagSetCache {
  private readonly entries: TagSetEntry[] = [];
  /** Entry + 1 per slot, 0 for a free one; open addressing with linear probing. */
  private slots = new Int32Array(INITIAL_SLOT_COUNT);
  /** The recorded sections' bytes, end to end, with a view for reading them four bytes at a time. */
  private arena = Buffer.allocUnsafe(INITIAL_ARENA_BYTES);
  private arenaView: DataView = new DataView(this.arena.buffer, this.arena.byteOffset, this.arena.length);
  private arenaEnd = 0;
  /** The bytes lookUp() last read, with the parser's view of them (the parser makes one per chunk). */
  private data: Buffer = this.arena;
  private dataView: DataView = this.arenaView;
  /** The entry the previous line replayed or recorded (-1: none). */
  private lastEntry = -1;
  /** The section lookUp() last missed: where it starts and ends (-1: not recordable) and its hash. */
  private missStart = 0;
  private missEnd = -1;
  private missHash = 0;
  private recording = false;
  /** The line lookUp() last looked up recorded its section, after `lastEntry` was `previousEntry`. */
  private recordedThisLine = false;
  private previousEntry = -1;
  private readonly recordedBuilders: SymbolColumnBuilder[] = [];
  private readonly recordedIds = new Int32Array(RECORDED_TAGS_MAX);

  /** Where the section lookUp() last replayed ends (the space before the fields). */
  end = 0;

  /**
   * Replays the tag section starting at `from` (its first comma) when an earlier line recorded the same bytes:
   * returns its tag count and sets `end` to the space after it; -1 on a miss. The entry that followed the
   * previous line's last time is compared first; otherwise the section's end is found by a native search and
   * its bytes hashed four at a time. No string is made: a string key per line had cost more than the parse.
   * A recorded section holds no backslash, line break or space, so a match parses exactly as it did.
   */
  lookUp(data: Buffer, view: DataView, from: number): number {
    this.data = data;
    this.dataView = view;
    this.recordedThisLine = false;
    const previous = this.lastEntry;
    const predicted = previous < 0 ? -1 : this.entries[previous].successor;
    if (predicted >= 0 && this.matches(this.entries[predicted], from)) return this.replay(previous, predicted, from);
    this.missEnd = -1;
    const space = data.indexOf(SPACE, from);
    if (space < 0 || space - from > SECTION_BYTES_MAX) return -1;
    const hash = hashBytes(this.dataView, from, space);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot];
      if (held === 0) break;
      const entry = this.entries[held - 1];
      if (entry.hash === hash && this.matches(entry, from)) return this.replay(previous, held - 1, from);
    }
    this.missStart = from;
    this.missEnd = space;
    this.missHash = hash;
    return -1;
  }

  /** Whether the bytes at `from` are the entry's section followed by a space. */
  private matches(entry: TagSetEntry, from: number): boolean {
    const size = entry.sizeBytes;
    if (from + size >= this.data.length || this.data[from + size] !== SPACE) return false;
    return sameBytes(this.arenaView, entry.start, this.dataView, from, size);
  }

  private replay(previous: number, index: number, from: number): number {
    const entry = this.entries[index];
    if (previous >= 0) this.entries[previous].successor = index;
    this.lastEntry = index;
    const builders = entry.builders;
    for (let k = 0; k < builders.length; k++) builders[k].appendId(entry.ids[k]);
    this.end = from + entry.sizeBytes;
    return entry.tagCount;
  }

  /** The general parse of a section begins, after lookUp() missed. */
  startRecording(): void {
    this.recording = this.missEnd >= 0;
    this.recordedBuilders.length = 0;
  }

  /** A tag went into `builder` by the plain path: its last id is part of the section's outcome. */
  recordSymbol(builder: SymbolColumnBuilder): void {
    if (!this.recording) return;
    if (this.recordedBuilders.length === RECORDED_TAGS_MAX) {
      this.recording = false;
      return;
    }
    this.recordedIds[this.recordedBuilders.length] = builder.lastId();
    this.recordedBuilders.push(builder);
  }

  /** A tag took another path (an escape, a column that is not SYMBOL): this section is not recorded. */
  spoil(): void {
    this.recording = false;
  }

  /** The section from the last lookUp() to `end` was parsed without error, `tagCount` tags; kept when it qualified. */
  finishRecording(end: number, tagCount: number): void {
    if (!this.recording) return;
    this.recording = false;
    // Tags that ended at a line break (no fields) leave `end` short of the space lookUp() found: not recorded.
    if (end !== this.missEnd) return;
    if (this.entries.length >= TAG_SETS_MAX) this.clear();
    const size = end - this.missStart;
    const start = this.reserve(size);
    // A loop, not Buffer.copy and a search: two native calls and a view cost more than 200 bytes in JS.
    const data = this.data;
    const arena = this.arena;
    let escapes = 0;
    for (let k = 0; k < size; k++) {
      const code = data[this.missStart + k];
      escapes += code === BACKSLASH ? 1 : 0;
      arena[start + k] = code;
    }
    assert(escapes === 0, 'a recorded section holds no escape');
    const index = this.entries.length;
    const count = this.recordedBuilders.length;
    this.entries.push({
      start, sizeBytes: size, hash: this.missHash, builders: this.recordedBuilders.slice(), ids: this.recordedIds.slice(0, count), tagCount, successor: -1,
    });
    if ((index + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(this.slots, index);
    if (this.lastEntry >= 0) this.entries[this.lastEntry].successor = index;
    this.previousEntry = this.lastEntry;
    this.lastEntry = index;
    this.recordedThisLine = true;
  }

  /**
   * The line lookUp() last looked up is cut off (the rest of it comes with the next chunk): an entry it recorded
   * holds ids its cut-off values may have added, so it goes. Entries of earlier lines only hold ids those lines
   * added, which stay: so the cache need not start over at every chunk boundary while it fills.
   */
  discardLine(): void {
    if (!this.recordedThisLine) return;
    this.recordedThisLine = false;
    const index = this.entries.length - 1;
    const entry = this.entries[index];
    const mask = this.slots.length - 1;
    let slot = entry.hash & mask;
    while (this.slots[slot] !== index + 1) slot = (slot + 1) & mask;
    // The newest entry is the last of its probe chain, so freeing its slot leaves every other chain whole.
    this.slots[slot] = 0;
    this.entries.length = index;
    this.arenaEnd = entry.start;
    if (this.previousEntry >= 0 && this.entries[this.previousEntry].successor === index) this.entries[this.previousEntry].successor = -1;
    this.lastEntry = this.previousEntry;
  }

  /** Puts entry `index` into the first free slot of its probe chain. */
  private place(slots: Int32Array, index: number): void {
    const mask = slots.length - 1;
    let slot = this.entries[index].hash & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = index + 1;
  }

  private rehash(slotCount: number): void {
    const slots = new Int32Array(slotCount);
    for (let index = 0; index < this.entries.length; index++) this.place(slots, index);
    this.slots = slots;
  }

  /** Room for `size` more arena bytes; returns where they go. */
  private reserve(size: number): number {
    const start = this.arenaEnd;
    if (start + size > this.arena.length) {
      const arena = Buffer.allocUnsafe(Math.max(start + size, this.arena.length * 2));
      this.arena.copy(arena, 0, 0, start);
      this.arena = arena;
      this.arenaView = new DataView(arena.buffer, arena.byteOffset, arena.length);
    }
    this.arenaEnd = start + size;
    return start;
  }

  clear(): void {
    this.entries.length = 0;
    this.slots.fill(0);
    this.arenaEnd = 0;
    this.lastEntry = -1;
    this.missEnd = -1;
    this.recording = false;
    this.recordedThisLine = false;
  }
}

/** A hash of bytes [from, end) read four at a time (a JS byte loop over a whole section cost more than the rest of its line). */
function hashBytes(view: DataView, from: number, end: number): number {
  let hash = end - from;
  let at = from;
  for (; at + 4 <= end; at += 4) hash = Math.imul(hash ^ view.getInt32(at, true), HASH_MULTIPLIER);
  for (; at < end; at++) hash = Math.imul(hash ^ view.getUint8(at), HASH_MULTIPLIER);
  return hash ^ (hash >>> 16);
}

/** Whether `size` bytes at `left` of one view equal those at `right` of the other, compared four at a time. */
function sameBytes(leftView: DataView, left: number, rightView: DataView, right: number, size: number): boolean {
  let k = 0;
  for (; k + 4 <= size; k += 4) if (leftView.getInt32(left + k, true) !== rightView.getInt32(right + k, true)) return false;
  for (; k < size; k++) if (leftView.getUint8(left + k) !== rightView.getUint8(right + k)) return false;
  return true;
}
