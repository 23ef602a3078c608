// Aggregates that keep one input value per group: min, max, first, last, first_not_null, last_not_null.
// Numeric min/max run over typed arrays into a Float64Array per group; every other case keeps plain values
// (symbol text, strings, raw numbers) in an array. Results keep the input type; SYMBOL results are re-encoded.
import type { ValueType } from '../../../types/column-type.js';
import type { NumericVectorData, Vector } from '../batch.js';
import { allocateVectorData } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { INT_NULL, growFloat64, isNullAt, plainValue, storedNull } from './aggregate-kernel.js';
import { dictionaryEncode } from '../../codegen/symbol-output.js';
import { LONG_NULL_BIG } from '../../../types/nulls.js';

export type PickKind = 'min' | 'max' | 'first' | 'last' | 'first_not_null' | 'last_not_null';

/** Types whose vectors hold plain numbers with NaN (or INT's sentinel, or nothing) as null. */
export function hasNumericMinMax(type: ValueType): boolean {
  switch (type) {
    case 'BYTE': case 'SHORT': case 'INT': case 'LONG': case 'FLOAT': case 'DOUBLE': case 'DATE': case 'TIMESTAMP': return true;
    default: return false;
  }
}

function minMaxGrouped(data: NumericVectorData, intNull: boolean, groups: Int32Array | undefined, rowCount: number, best: Float64Array, max: boolean): void {
  for (let row = 0; row < rowCount; row++) {
    const value = data[row];
    if (value !== value || (intNull && value === INT_NULL)) continue;
    const group = groups === undefined ? 0 : groups[row];
    const current = best[group];
    if (current !== current || (max ? value > current : value < current)) best[group] = value;
  }
}

/** min/max of a numeric column; NaN marks a group without values yet. */
export class NumericMinMaxKernel implements AggregateKernel {
  private best: Float64Array = new Float64Array(16).fill(NaN);
  constructor(private readonly type: ValueType, private readonly max: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.best = growFloat64(this.best, groupCount, NaN);
    minMaxGrouped(arg.data as NumericVectorData, arg.type === 'INT', groups, rowCount, this.best, this.max);
  }

  result(groupCount: number): Vector {
    const data = allocateVectorData(this.type, groupCount) as NumericVectorData;
    const nullValue = storedNull(this.type) as number;
    for (let group = 0; group < groupCount; group++) {
      const value = group < this.best.length ? this.best[group] : NaN;
      data[group] = value !== value ? nullValue : value;
    }
    return { type: this.type, data };
  }
}

/** The generic picker: `values[group]` is undefined until the group has a value (null counts for first/last). */
export class PickKernel implements AggregateKernel {
  private readonly values: unknown[] = [];
  constructor(private readonly kind: PickKind, private readonly type: ValueType) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined): void {
    if (arg === undefined) return;
    const values = this.values;
    const kind = this.kind;
    for (let row = 0; row < rowCount; row++) {
      const group = groups === undefined ? 0 : groups[row];
      const current = values[group];
      if ((kind === 'first' || kind === 'first_not_null') && current !== undefined && current !== null) continue;
      if (kind === 'first' && current === null) continue;
      const isNull = isNullAt(arg, row);
      if (isNull) {
        if (kind === 'first' || kind === 'last') values[group] = null;
        else if (current === undefined) values[group] = null;
        continue;
      }
      const value = plainValue(arg, row);
      if (kind === 'min' || kind === 'max') {
        if (current !== undefined && current !== null && !(kind === 'min' ? (value as number) < (current as number) : (value as number) > (current as number))) continue;
      }
      values[group] = value;
    }
  }

  result(groupCount: number): Vector {
    const resultType: ValueType = this.type === 'SYMBOL' ? 'STRING' : this.type;
    const data = allocateVectorData(resultType, groupCount) as unknown[];
    const nullValue = storedNull(resultType);
    let exact: BigInt64Array | undefined;
    for (let group = 0; group < groupCount; group++) {
      const value = this.values[group];
      if (typeof value === 'bigint') exact ??= this.exactResult(groupCount);
      data[group] = value === undefined || value === null ? nullValue : this.type === 'IPV4' ? (value as number) | 0 : typeof value === 'bigint' ? Number(value) : value;
    }
    if (exact !== undefined) return { type: resultType, data: data as Vector['data'], exact };
    if (this.type !== 'SYMBOL') return { type: resultType, data: data as Vector['data'] };
    return dictionaryEncode(data as (string | null)[], groupCount);
  }

  /** The exact values of a 64-bit result some of whose values lie beyond ±2^53 (kept as bigints). */
  private exactResult(groupCount: number): BigInt64Array {
    const exact = new BigInt64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const value = this.values[group];
      exact[group] = typeof value === 'bigint' ? value : typeof value === 'number' && value === value ? BigInt(value) : LONG_NULL_BIG;
    }
    return exact;
  }
}
