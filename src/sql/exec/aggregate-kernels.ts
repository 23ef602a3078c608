// Aggregate kernels over typed arrays: per-group state in growable arrays, updated batch by batch.
// Each update loop is a standalone function over arrays and numbers (no closures, no allocation per row).
import type { ValueType } from '../../types/column-type.js';
import type { AggregateKind } from '../functions/signature.js';
import type { Vector } from './batch.js';
import { allocateVectorData } from './batch.js';
import { unreachable } from '../../core/assert.js';

export interface AggregateKernel {
  /** Adds a batch: `groups[row]` is the group of each row (undefined: every row is group 0). */
  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void;
  /** One value per group, groups [0, groupCount). */
  result(groupCount: number): Vector;
}

function grow(array: Float64Array, size: number, fill: number): Float64Array {
  if (array.length >= size) return array;
  const next = new Float64Array(Math.max(size, array.length * 2, 16));
  next.fill(fill, array.length);
  next.set(array);
  return next;
}

/** Reads row values of a numeric vector as numbers with NaN for null. */
function numericValue(arg: Vector, row: number): number {
  const value = (arg.data as Float64Array)[row] as number;
  if (arg.type === 'INT') return value === -2147483648 ? NaN : value;
  if (arg.type === 'IPV4') return value === 0 ? NaN : value;
  return value;
}

class CountKernel implements AggregateKernel {
  private counts: Float64Array = new Float64Array(16);
  constructor(private readonly nonNullOnly: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    this.counts = grow(this.counts, groupCount, 0);
    if (groups === undefined && (!this.nonNullOnly || arg === undefined)) {
      this.counts[0] = (this.counts[0] as number) + rowCount;
      return;
    }
    for (let row = 0; row < rowCount; row++) {
      if (this.nonNullOnly && arg !== undefined && isNullAt(arg, row)) continue;
      const group = groups === undefined ? 0 : (groups[row] as number);
      this.counts[group] = (this.counts[group] as number) + 1;
    }
  }

  result(groupCount: number): Vector {
    return { type: 'LONG', data: grow(this.counts, groupCount, 0).slice(0, groupCount) };
  }
}

export function isNullAt(vector: Vector, row: number): boolean {
  const value = vector.data[row];
  switch (vector.type) {
    case 'INT': return value === -2147483648;
    case 'SYMBOL': return (value as number) < 0;
    case 'IPV4': case 'CHAR': return value === 0;
    case 'BOOLEAN': case 'BYTE': case 'SHORT': return false;
    case 'STRING': case 'VARCHAR': case 'UUID': case 'BINARY': case 'NULL': return value === null;
    default: return value !== value;
  }
}

/** Sum of a DOUBLE column without groups: four accumulators to keep the loop at memory speed. */
function sumFloat64(data: Float64Array, rowCount: number): { sum: number; count: number } {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let count = 0;
  let row = 0;
  for (; row + 4 <= rowCount; row += 4) {
    const a = data[row] as number, b = data[row + 1] as number, c = data[row + 2] as number, d = data[row + 3] as number;
    if (a === a) { s0 += a; count++; }
    if (b === b) { s1 += b; count++; }
    if (c === c) { s2 += c; count++; }
    if (d === d) { s3 += d; count++; }
  }
  for (; row < rowCount; row++) {
    const a = data[row] as number;
    if (a === a) { s0 += a; count++; }
  }
  return { sum: s0 + s1 + s2 + s3, count };
}

class SumAvgKernel implements AggregateKernel {
  private sums: Float64Array = new Float64Array(16);
  private counts: Float64Array = new Float64Array(16);
  constructor(private readonly resultType: ValueType, private readonly average: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.sums = grow(this.sums, groupCount, 0);
    this.counts = grow(this.counts, groupCount, 0);
    if (groups === undefined && (arg.type === 'DOUBLE' || arg.type === 'LONG' || arg.type === 'TIMESTAMP')) {
      const partial = sumFloat64(arg.data as Float64Array, rowCount);
      this.sums[0] = (this.sums[0] as number) + partial.sum;
      this.counts[0] = (this.counts[0] as number) + partial.count;
      return;
    }
    for (let row = 0; row < rowCount; row++) {
      const value = numericValue(arg, row);
      if (value !== value) continue;
      const group = groups === undefined ? 0 : (groups[row] as number);
      this.sums[group] = (this.sums[group] as number) + value;
      this.counts[group] = (this.counts[group] as number) + 1;
    }
  }

  result(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group] ?? 0;
      out[group] = count === 0 ? NaN : this.average ? (this.sums[group] as number) / count : (this.sums[group] as number);
    }
    return { type: this.resultType, data: out };
  }
}

/** min, max, first, last: keeps one input value per group, in the input's own vector layout. */
class PickKernel implements AggregateKernel {
  private values: unknown[] = [];
  private symbols: readonly string[] | undefined;
  constructor(private readonly kind: 'min' | 'max' | 'first' | 'last', private readonly type: ValueType) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined): void {
    if (arg === undefined) return;
    const text = arg.type === 'SYMBOL' && arg.symbols !== undefined ? arg.symbols : undefined;
    for (let row = 0; row < rowCount; row++) {
      const group = groups === undefined ? 0 : (groups[row] as number);
      if (this.kind === 'first' && group < this.values.length && this.values[group] !== undefined) continue;
      const isNull = isNullAt(arg, row);
      const raw = arg.data[row];
      const value = isNull ? null : text !== undefined ? text[raw as number] : arg.type === 'INT' || arg.type === 'IPV4' ? raw : raw;
      const current = this.values[group];
      if (this.kind === 'first' || this.kind === 'last') {
        this.values[group] = value;
        continue;
      }
      if (value === null) {
        if (current === undefined) this.values[group] = null;
        continue;
      }
      if (current === undefined || current === null || (this.kind === 'min' ? (value as number) < (current as number) : (value as number) > (current as number))) {
        this.values[group] = value;
      }
    }
    this.symbols = text;
  }

  result(groupCount: number): Vector {
    const resultType: ValueType = this.type === 'SYMBOL' ? 'STRING' : this.type;
    const data = allocateVectorData(resultType, groupCount);
    for (let group = 0; group < groupCount; group++) {
      const value = this.values[group];
      (data as unknown[])[group] = value === undefined || value === null ? nullFor(resultType) : value;
    }
    if (this.type !== 'SYMBOL') return { type: resultType, data };
    return symbolsFromText(data as (string | null)[], groupCount, this.symbols);
  }
}

function symbolsFromText(values: (string | null)[], count: number, _source: readonly string[] | undefined): Vector {
  const keys = new Int32Array(count);
  const symbols: string[] = [];
  const index = new Map<string, number>();
  for (let k = 0; k < count; k++) {
    const value = values[k];
    if (value === null || value === undefined) { keys[k] = -1; continue; }
    let key = index.get(value);
    if (key === undefined) { key = symbols.length; symbols.push(value); index.set(value, key); }
    keys[k] = key;
  }
  return { type: 'SYMBOL', data: keys, symbols };
}

function nullFor(type: ValueType): unknown {
  switch (type) {
    case 'INT': return -2147483648;
    case 'STRING': case 'VARCHAR': case 'UUID': case 'BINARY': return null;
    case 'BOOLEAN': case 'BYTE': case 'SHORT': case 'CHAR': case 'IPV4': return 0;
    default: return NaN;
  }
}

export function createKernel(kind: AggregateKind, argType: ValueType | undefined, resultType: ValueType): AggregateKernel {
  switch (kind) {
    case 'count': return new CountKernel(false);
    case 'count_col': return new CountKernel(true);
    case 'sum': return new SumAvgKernel(resultType, false);
    case 'avg': return new SumAvgKernel(resultType, true);
    case 'min': case 'max': case 'first': case 'last': return new PickKernel(kind, argType ?? resultType);
    default: return unreachable(`aggregate kernel ${kind} is not registered`);
  }
}
