// Join keys → dense ids. The build (right) side assigns ids to its distinct key values; the probe side looks
// them up (-1: no such key). SYMBOL keys compare by text because both sides have their own dictionaries: each
// dictionary is translated to ids once, so the per-row work is an array read. NULL is a key value like any
// other (QuestDB's `=` treats NULL = NULL as true), and INT/LONG/DOUBLE keys compare as numbers.
import type { ColumnBatch, Vector } from './batch.js';
import { assert } from '../../core/assert.js';
import { isTextHeldType } from '../../types/column-type.js';

/** Composite key parts are JSON-quoted text or `n<number>` or `N`, so a comma cannot be confused with data. */
const PART_SEPARATOR = ',';

export class JoinKeyIndex {
  private readonly numbers = new Map<number, number>();
  private readonly texts = new Map<string, number>();
  private nullTextId = -1;
  private idCount = 0;
  /** The last dictionary translated for each side, with its key → id table. */
  private readonly symbolCache: { symbols: readonly string[] | undefined; ids: Int32Array }[] = [
    { symbols: undefined, ids: new Int32Array(0) },
    { symbols: undefined, ids: new Int32Array(0) },
  ];

  get size(): number {
    return this.idCount;
  }

  /**
   * Writes the key id of rows [0, rowCount) of `keys` (one vector per key column) into `out`.
   * `insert` (build side) gives unseen keys new ids; otherwise unseen keys get -1.
   */
  assign(keys: ColumnBatch, out: Int32Array, insert: boolean): void {
    assert(out.length >= keys.rowCount, 'the id array holds one id per row');
    const rowCount = keys.rowCount;
    if (keys.vectors.length !== 1) {
      this.assignComposite(keys, out, insert);
      return;
    }
    const vector = keys.vectors[0];
    if (vector.type === 'SYMBOL' && vector.symbols !== undefined) {
      const ids = this.symbolIds(vector.symbols, insert ? 0 : 1, insert);
      const data = vector.data as Int32Array;
      const nullId = insert ? this.textId(null, true) : this.nullTextId;
      for (let row = 0; row < rowCount; row++) {
        const key = data[row];
        out[row] = key < 0 ? nullId : ids[key];
      }
      return;
    }
    if (isTextVector(vector)) {
      for (let row = 0; row < rowCount; row++) out[row] = this.textId(textAt(vector, row), insert);
      return;
    }
    for (let row = 0; row < rowCount; row++) out[row] = this.numberId(numberAt(vector, row), insert);
  }

  private symbolIds(symbols: readonly string[], side: number, insert: boolean): Int32Array {
    const cache = this.symbolCache[side] as { symbols: readonly string[] | undefined; ids: Int32Array };
    // The build side may still add ids, so only the probe side's translation can be kept across batches.
    if (cache.symbols === symbols && !insert) return cache.ids;
    const ids = new Int32Array(symbols.length);
    for (let key = 0; key < symbols.length; key++) ids[key] = this.textId(symbols[key], insert);
    cache.symbols = symbols;
    cache.ids = ids;
    return ids;
  }

  private textId(text: string | null, insert: boolean): number {
    if (text === null) {
      if (this.nullTextId < 0 && insert) this.nullTextId = this.idCount++;
      return this.nullTextId;
    }
    let id = this.texts.get(text);
    if (id === undefined) {
      if (!insert) return -1;
      id = this.idCount++;
      this.texts.set(text, id);
    }
    return id;
  }

  private numberId(value: number, insert: boolean): number {
    let id = this.numbers.get(value);
    if (id === undefined) {
      if (!insert) return -1;
      id = this.idCount++;
      this.numbers.set(value, id);
    }
    return id;
  }

  private assignComposite(keys: ColumnBatch, out: Int32Array, insert: boolean): void {
    const parts: string[] = new Array<string>(keys.vectors.length);
    for (let row = 0; row < keys.rowCount; row++) {
      for (let k = 0; k < keys.vectors.length; k++) parts[k] = encodePart(keys.vectors[k], row);
      out[row] = this.textId(parts.join(PART_SEPARATOR), insert);
    }
  }
}

function isTextVector(vector: Vector): boolean {
  const type = vector.type;
  return type === 'STRING' || type === 'VARCHAR' || type === 'CHAR' || type === 'SYMBOL' || type === 'NULL' || isTextHeldType(type);
}

function textAt(vector: Vector, row: number): string | null {
  const value = vector.data[row];
  switch (vector.type) {
    case 'CHAR': return value === 0 ? null : String.fromCharCode(value as number);
    case 'SYMBOL': return (value as number) < 0 ? null : ((vector.symbols as readonly string[])[value as number] ?? null);
    default: return (value as string | null | undefined) ?? null;
  }
}

/** Numeric, time, boolean and IPv4 keys as numbers, NaN for NULL (so INT and LONG keys meet). */
function numberAt(vector: Vector, row: number): number {
  const value = vector.data[row] as number;
  if (vector.type === 'INT') return value === -2147483648 ? NaN : value;
  if (vector.type === 'IPV4') return value === 0 ? NaN : value;
  return value;
}

function encodePart(vector: Vector, row: number): string {
  if (isTextVector(vector)) {
    const text = textAt(vector, row);
    return text === null ? 'N' : `s${JSON.stringify(text)}`;
  }
  const value = numberAt(vector, row);
  return value !== value ? 'N' : `n${value}`;
}

/** A whole row as one string key (set operations): values compare like join keys, NULL equals NULL. */
export function encodeRowKey(vectors: readonly Vector[], row: number): string {
  let key = '';
  for (let k = 0; k < vectors.length; k++) key += (k === 0 ? '' : PART_SEPARATOR) + encodePart(vectors[k], row);
  return key;
}
