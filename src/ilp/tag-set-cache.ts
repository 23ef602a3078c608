// The tag sets of one table seen in one commit unit, so a line whose tags repeat an earlier line's byte for
// byte (the usual case: a host sends the same tags with every row) costs one native search and one map lookup
// of its tag section instead of a key match, a value scan and a dictionary lookup per tag. An entry keeps the SYMBOL
// builders the earlier line wrote and the ids it got; replaying it appends the same ids.
// Invariants: an entry is recorded only from a tag section parsed without error in which every tag went into a
// SYMBOL builder by the plain path, with no escape in its keys or values; the owner clears the cache whenever an id it may hold stops
// naming the same value (dictionary entries cut off, builders emptied).
import type { SymbolColumnBuilder } from './symbol-column-builder.js';
import { assert } from '../core/assert.js';

const SPACE = 32;
/** Longest tag section looked up; longer ones are parsed the general way (their text is not worth a key). */
const SECTION_BYTES_MAX = 2048;
/** Distinct tag sets kept per table; a unit with more starts over (one pass of misses, as at its start). */
const TAG_SETS_MAX = 4096;
/** Tags of one line a recording keeps; a longer tag section is parsed the general way every time. */
const RECORDED_TAGS_MAX = 64;

interface TagSetEntry {
  readonly builders: readonly SymbolColumnBuilder[];
  readonly ids: Int32Array;
  /** Tags the line had (duplicates included): the field position where its fields start. */
  readonly tagCount: number;
}

export class TagSetCache {
  private readonly entries = new Map<string, TagSetEntry>();
  /** The section lookUp() last measured: its text (the map key) and where it ended. */
  private key = '';
  private keyEnd = -1;
  private recording = false;
  private readonly recordedBuilders: SymbolColumnBuilder[] = [];
  private readonly recordedIds = new Int32Array(RECORDED_TAGS_MAX);

  /**
   * Replays the tag section starting at `from` (its first comma) when an earlier line recorded the same bytes:
   * returns its tag count and sets `end` to the space after it; -1 on a miss. The section's end is found with
   * a native search and its bytes compared by the map's own string hashing, which beat a byte loop in JS by
   * far. A recorded section holds no backslash, line break or space, so a match parses exactly as it did.
   */
  lookUp(data: Buffer, from: number): number {
    const space = data.indexOf(SPACE, from);
    this.keyEnd = -1;
    if (space < 0 || space - from > SECTION_BYTES_MAX) return -1;
    const key = data.toString('latin1', from, space);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.key = key;
      this.keyEnd = space;
      return -1;
    }
    const builders = entry.builders;
    for (let k = 0; k < builders.length; k++) builders[k].appendId(entry.ids[k]);
    this.end = space;
    return entry.tagCount;
  }

  /** Where the section lookUp() last replayed ends (the space before the fields). */
  end = 0;

  /** The general parse of a section begins, after lookUp() missed. */
  startRecording(): void {
    this.recording = this.keyEnd >= 0;
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
    if (end !== this.keyEnd) return;
    assert(this.key.indexOf('\\') < 0, 'a recorded section holds no escape');
    if (this.entries.size >= TAG_SETS_MAX) this.entries.clear();
    const count = this.recordedBuilders.length;
    this.entries.set(this.key, { builders: this.recordedBuilders.slice(), ids: this.recordedIds.slice(0, count), tagCount });
  }

  clear(): void {
    this.entries.clear();
    this.recording = false;
  }
}
