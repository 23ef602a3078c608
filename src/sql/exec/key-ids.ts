// Dense ids for key tuples (LATEST ON partitions, keyed SAMPLE BY), in order of first appearance; NULL is an
// ordinary key. A single SYMBOL key from one dictionary maps symbol key → id through an Int32Array, so the hot
// path is one array read per row; any other key shape goes through a Map (composite keys as JSON text).
import type { Vector } from './batch.js';
import type { CellValue } from './materialized.js';
import { vectorFromValues } from './materialized.js';
import { isNullAt } from './aggregate-kernels.js';
import type { ValueType } from '../../types/column-type.js';
import { assert } from '../../core/assert.js';
import { LONG_NULL_BIG } from '../../types/nulls.js';

/** A row's value as a plain JS value: null, text (SYMBOL resolved), boolean, or number. */
export function cellAt(vector: Vector, row: number): CellValue {
  if (isNullAt(vector, row)) return null;
  const raw = vector.data[row];
  if (vector.type === 'SYMBOL') return (vector.symbols as readonly string[])[raw as number] ?? null;
  if (vector.type === 'BOOLEAN') return raw !== 0;
  if (typeof raw === 'number' || typeof raw === 'string') return raw;
  return null;
}

export class KeyIds {
  /** Distinct key tuples seen so far. */
  count = 0;
  /** Per key column, the value of each id (a 64-bit integer beyond ±2^53 as its exact bigint). */
  readonly values: (CellValue | bigint)[][];
  private readonly map = new Map<unknown, number>();
  private denseSymbols: readonly string[] | undefined;
  /** Symbol key + 1 → id + 1 (0: not seen yet). */
  private dense = new Int32Array(0);

  constructor(private readonly keyCount: number) {
    assert(keyCount >= 1, 'key ids need at least one key column');
    this.values = Array.from({ length: keyCount }, () => []);
  }

  /** Writes the id of the key tuple of rows [0, rowCount) into `ids`. */
  assign(keys: readonly Vector[], rowCount: number, ids: Int32Array): void {
    assert(keys.length === this.keyCount && ids.length >= rowCount, 'key vectors and id buffer fit the batch');
    const first = keys[0];
    if (this.keyCount === 1 && first.type === 'SYMBOL' && first.symbols !== undefined && this.map.size === 0 && (this.denseSymbols === undefined || this.denseSymbols === first.symbols)) {
      this.assignDense(first, rowCount, ids);
      return;
    }
    this.convertDenseToMap();
    for (let row = 0; row < rowCount; row++) {
      const key = this.keyCount === 1 ? identityAt(first, row) : compositeKey(keys, row);
      let id = this.map.get(key);
      if (id === undefined) {
        id = this.add(keys, row);
        this.map.set(key, id);
      }
      ids[row] = id;
    }
  }

  /** How many distinct keys a single SYMBOL key column can have (its dictionary size, NULL excluded); -1 if unknown. */
  symbolKeyCountOf(keys: readonly Vector[]): number {
    const first = keys[0];
    return this.keyCount === 1 && first?.type === 'SYMBOL' && first.symbols !== undefined ? first.symbols.length : -1;
  }

  /** One vector per key column with the key values of ids [0, count). */
  keyVectors(types: readonly ValueType[]): Vector[] {
    return types.map((type, k) => keyVectorOf(type, this.values[k].slice(0, this.count)));
  }

  private assignDense(vector: Vector, rowCount: number, ids: Int32Array): void {
    const symbols = vector.symbols as readonly string[];
    this.denseSymbols = symbols;
    if (this.dense.length < symbols.length + 1) {
      const grown = new Int32Array(symbols.length + 1 + 64);
      grown.set(this.dense);
      this.dense = grown;
    }
    const dense = this.dense;
    const data = vector.data as Int32Array;
    for (let row = 0; row < rowCount; row++) {
      const slot = data[row] + 1;
      let id = dense[slot] - 1;
      if (id < 0) {
        id = this.count++;
        dense[slot] = id + 1;
        this.values[0].push(slot === 0 ? null : (symbols[slot - 1] ?? null));
      }
      ids[row] = id;
    }
  }

  private convertDenseToMap(): void {
    if (this.denseSymbols === undefined) return;
    (this.values[0] as CellValue[]).forEach((value, id) => this.map.set(value, id));
    this.denseSymbols = undefined;
    this.dense = new Int32Array(0);
  }

  private add(keys: readonly Vector[], row: number): number {
    for (let k = 0; k < this.keyCount; k++) this.values[k].push(identityAt(keys[k], row));
    return this.count++;
  }
}

/** A key column's vector; 64-bit keys beyond ±2^53 (held as bigints) keep their exact values beside the numbers. */
function keyVectorOf(type: ValueType, values: readonly (CellValue | bigint)[]): Vector {
  if (!values.some((value) => typeof value === 'bigint')) return vectorFromValues(type, values as CellValue[]);
  const vector = vectorFromValues(type, values.map((value) => (typeof value === 'bigint' ? Number(value) : value)));
  const exact = BigInt64Array.from(values, (value) => (typeof value === 'bigint' ? value : typeof value === 'number' && value === value ? BigInt(value) : LONG_NULL_BIG));
  return { ...vector, exact };
}

/** A row's identity as a key: its cell, or for a 64-bit integer beyond ±2^53 its exact value (as a bigint). */
function identityAt(vector: Vector, row: number): CellValue | bigint {
  const exact = vector.exact;
  if (exact !== undefined) {
    const value = vector.data[row] as number;
    if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) return exact[row];
  }
  return cellAt(vector, row);
}

function compositeKey(keys: readonly Vector[], row: number): string {
  const parts: CellValue[] = [];
  for (const key of keys) {
    const value = identityAt(key, row);
    // JSON has no bigint; the column decides the type, so the text cannot meet a string key.
    parts.push(typeof value === 'bigint' ? `${value}n` : value);
  }
  return JSON.stringify(parts);
}
