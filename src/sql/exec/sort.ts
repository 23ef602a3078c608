// ORDER BY: materialises the input, sorts a row permutation (stable: ties keep input order) and emits
// batches in that order. NULL is the smallest value unless NULLS FIRST/LAST says otherwise.
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { drain, indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import { concatBatches, gatherBatch } from './vector-ops.js';
import { isNullAt } from './aggregate-kernels.js';
import { batchRowsMax } from '../../core/limits.js';
import { decimalUnscaled, isDecimalType } from '../../types/decimal.js';
import type { SortKey } from '../plan/plan-specs.js';
export type { SortKey };

type Comparator = (a: number, b: number) => number;

const SAFE = Number.MAX_SAFE_INTEGER;

function keyComparator(vector: Vector, key: SortKey): Comparator {
  const direction = key.descending ? -1 : 1;
  const nullsFirst = key.nullsFirst ?? !key.descending;
  const symbols = vector.type === 'SYMBOL' ? vector.symbols : undefined;
  // DECIMAL text of one vector has one scale: its unscaled values order it, read once per sort.
  const decimal = isDecimalType(vector.type);
  const data = decimal ? decimalSortKeys(vector.data as (string | null)[]) : vector.data;
  const exact = decimal || symbols !== undefined ? undefined : vector.exact;
  // LONG256 text has no leading zeros beyond whole bytes: a longer value is a larger one.
  const longerIsLarger = vector.type === 'LONG256';
  return (a, b) => {
    const aNull = isNullAt(vector, a);
    const bNull = isNullAt(vector, b);
    if (aNull || bNull) {
      if (aNull && bNull) return 0;
      return aNull === nullsFirst ? -1 : 1;
    }
    let left = data[a] as number | string | bigint;
    let right = data[b] as number | string | bigint;
    if (symbols !== undefined) {
      left = symbols[left as number];
      right = symbols[right as number];
    }
    if (longerIsLarger && (left as string).length !== (right as string).length) {
      return (left as string).length < (right as string).length ? -direction : direction;
    }
    if (left < right) return -direction;
    if (left > right) return direction;
    // Numbers beyond ±2^53 (ns timestamps among them) are the nearest doubles of their exact 64-bit values:
    // equal ones may still differ.
    if (exact !== undefined && ((left as number) > SAFE || (left as number) < -SAFE)) {
      const exactLeft = exact[a];
      const exactRight = exact[b];
      return exactLeft < exactRight ? -direction : exactLeft > exactRight ? direction : 0;
    }
    return 0;
  };
}

function decimalSortKeys(texts: readonly (string | null)[]): bigint[] {
  const keys = new Array<bigint>(texts.length);
  for (let k = 0; k < texts.length; k++) {
    const text = texts[k];
    keys[k] = text === null || text === undefined ? 0n : decimalUnscaled(text);
  }
  return keys;
}

export function sortPermutation(batch: ColumnBatch, keys: readonly SortKey[]): Int32Array {
  const comparators = keys.map((key) => keyComparator(batch.vectors[key.index], key));
  const order = new Int32Array(batch.rowCount);
  for (let k = 0; k < order.length; k++) order[k] = k;
  order.sort((a, b) => {
    for (const compare of comparators) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return a - b;
  });
  return order;
}

export class SortFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;

  constructor(private readonly child: QueryFactory, private readonly keys: readonly SortKey[]) {
    this.columns = child.columns;
    const first = keys[0];
    this.timestampIndex = first !== undefined && first.index === child.timestampIndex && !first.descending ? child.timestampIndex : -1;
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    let sorted: ColumnBatch | undefined;
    let order: Int32Array | undefined;
    let emitted = 0;
    return {
      nextBatch: (): ColumnBatch | undefined => {
        if (sorted === undefined) {
          sorted = concatBatches(drain(input, ctx), this.columns.map((column) => column.type));
          ctx.checkCancelled();
          order = sortPermutation(sorted, this.keys);
        }
        if (emitted >= sorted.rowCount) return undefined;
        const count = Math.min(batchRowsMax, sorted.rowCount - emitted);
        const batch = gatherBatch(sorted, (order as Int32Array).subarray(emitted, emitted + count), count);
        emitted += count;
        return batch;
      },
      close: () => input.close(),
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, `Sort keys: [${this.keys.map((key) => `${this.columns[key.index]?.name ?? key.index}${key.descending ? ' desc' : ''}`).join(', ')}]`), ...this.child.explain(depth + 1)];
  }
}
