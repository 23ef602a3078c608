// Hash aggregation. Input columns are [keys..., aggregate arguments...]; output is [keys..., aggregates...].
// A single SYMBOL key from one dictionary groups by its int key through a dense array; other keys go
// through a Map. Without keys there is exactly one output row, even over empty input (QuestDB rule).
import type { ColumnBatch, Vector } from './batch.js';
import { allocateVectorData } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import type { AggregateKernel } from './aggregate-kernels.js';
import { createKernel, isNullAt } from './aggregate-kernels.js';
import { SumAvgKernel } from './aggregates/sum-kernels.js';
import { denseSumRows } from './group-by-dense-sum.js';
import { SLOT_SUMS_SLOTS_MAX, SymbolSlotSums } from './symbol-slot-sums.js';
import { assert } from '../../core/assert.js';
import { dictionaryEncode } from '../codegen/symbol-output.js';
import { computedResultCursor } from './result-cursor.js';
import { isTextHeldType } from '../../types/column-type.js';
import { LONG_NULL_BIG } from '../../types/nulls.js';
import type { AggregateSpec } from '../plan/plan-specs.js';
export type { AggregateSpec };

/** The sum and count accumulators of a fused sum/avg kernel, grown to hold `groupCount` groups. */
type SumTarget = (groupCount: number) => { readonly sums: Float64Array; readonly counts: Float64Array };

/** Beyond ±(2^53 - 1) equal doubles may stand for different 64-bit integers. */
const SAFE = Number.MAX_SAFE_INTEGER;

class GroupIndex {
  readonly keyValues: unknown[][];
  count = 0;
  private readonly map = new Map<unknown, number>();
  private denseSymbols: readonly string[] | undefined;
  private dense: Int32Array | undefined;
  /** assignDenseSums' per-slot sums of a small dictionary, not yet moved into the groups' accumulators. */
  private slotSums: SymbolSlotSums | undefined;

  constructor(private readonly keyCount: number) {
    this.keyValues = Array.from({ length: keyCount }, () => []);
  }

  /** Whether the batch's single SYMBOL key groups through the dense array (one dictionary, no Map in use). */
  isDense(batch: ColumnBatch): boolean {
    const first = batch.vectors[0];
    return this.keyCount === 1 && first.type === 'SYMBOL' && first.symbols !== undefined && (this.denseSymbols === undefined || this.denseSymbols === first.symbols) && this.map.size === 0;
  }

  assign(batch: ColumnBatch, groups: Int32Array): void {
    const first = batch.vectors[0];
    if (this.isDense(batch)) {
      this.assignDense(first, batch.rowCount, groups);
      return;
    }
    this.convertDenseToMap();
    for (let row = 0; row < batch.rowCount; row++) {
      const key = this.keyCount === 1 ? keyValue(first, row) : compositeKey(batch, this.keyCount, row);
      let group = this.map.get(key);
      if (group === undefined) {
        group = this.newGroup(batch, row);
        this.map.set(key, group);
      }
      groups[row] = group;
    }
  }

  private assignDense(vector: Vector, rowCount: number, groups: Int32Array): void {
    const symbols = vector.symbols as readonly string[];
    const dense = this.denseFor(symbols);
    const keys = vector.data as Int32Array;
    for (let row = 0; row < rowCount; row++) {
      const slot = keys[row] + 1;
      let group = dense[slot];
      if (group < 0) group = this.newDenseGroup(symbols, slot);
      groups[row] = group;
    }
  }

  /**
   * isDense batches only: assigns each row its group and adds `values` (DOUBLE) into `sums`/`counts` in the same
   * pass; `target` is asked for arrays holding every group the dictionary can make (its keys and null).
   */
  assignDenseSums(batch: ColumnBatch, values: Float64Array, target: SumTarget): void {
    const vector = batch.vectors[0];
    const symbols = vector.symbols as readonly string[];
    const dense = this.denseFor(symbols);
    const keys = vector.data as Int32Array;
    if (symbols.length + 1 <= SLOT_SUMS_SLOTS_MAX) {
      // isDense keeps one dictionary (the same symbols array) for as long as batches come here.
      this.slotSums ??= new SymbolSlotSums(symbols.length + 1);
      assert(this.slotSums.slotCount === symbols.length + 1, 'slot sums are kept for one dictionary');
      this.slotSums.add(keys, values, batch.rowCount, dense, (slot) => this.newDenseGroup(symbols, slot));
      return;
    }
    const { sums, counts } = target(symbols.length + 1);
    for (let row = denseSumRows(keys, values, 0, batch.rowCount, dense, sums, counts); row < batch.rowCount; row = denseSumRows(keys, values, row, batch.rowCount, dense, sums, counts)) {
      this.newDenseGroup(symbols, keys[row] + 1);
    }
  }

  /**
   * Moves what assignDenseSums summed per slot into the groups' accumulators: before the kernels see a batch
   * another way, and at the end. The sums it has kept are complete and in row order, so they go in exactly.
   */
  flushDenseSums(target: SumTarget): void {
    const slotSums = this.slotSums;
    if (slotSums === undefined) return;
    this.slotSums = undefined;
    const { sums, counts } = target(this.count);
    slotSums.moveInto(this.dense as Int32Array, sums, counts);
  }

  private denseFor(symbols: readonly string[]): Int32Array {
    this.denseSymbols = symbols;
    if (this.dense === undefined || this.dense.length < symbols.length + 1) {
      const next = new Int32Array(symbols.length + 1 + 64).fill(-1);
      if (this.dense !== undefined) next.set(this.dense);
      this.dense = next;
    }
    return this.dense;
  }

  private newDenseGroup(symbols: readonly string[], slot: number): number {
    const dense = this.dense as Int32Array;
    const group = this.count++;
    dense[slot] = group;
    this.keyValues[0].push(slot === 0 ? null : symbols[slot - 1]);
    return group;
  }

  private convertDenseToMap(): void {
    if (this.dense === undefined) return;
    assert(this.slotSums === undefined, 'slot sums are moved into their groups before the dense array goes');
    this.keyValues[0].forEach((value, group) => this.map.set(value, group));
    this.dense = undefined;
  }

  private newGroup(batch: ColumnBatch, row: number): number {
    for (let k = 0; k < this.keyCount; k++) this.keyValues[k].push(keyValue(batch.vectors[k], row));
    return this.count++;
  }
}

/** A key cell: null, symbol text, or the number; a 64-bit integer beyond ±2^53 is its exact bigint. */
function keyValue(vector: Vector, row: number): unknown {
  if (isNullAt(vector, row)) return null;
  if (vector.type === 'SYMBOL') return (vector.symbols as readonly string[])[vector.data[row] as number];
  const value = vector.data[row];
  if (vector.exact !== undefined && ((value as number) > SAFE || (value as number) < -SAFE)) return vector.exact[row];
  return value;
}

function compositeKey(batch: ColumnBatch, keyCount: number, row: number): string {
  const parts: unknown[] = [];
  for (let k = 0; k < keyCount; k++) {
    const value = keyValue(batch.vectors[k], row);
    // JSON has no bigint; the column decides the type, so the text cannot meet a string key.
    parts.push(typeof value === 'bigint' ? `${value}n` : value);
  }
  return JSON.stringify(parts);
}

export class GroupByFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex = -1;

  constructor(private readonly child: QueryFactory, private readonly keyCount: number, private readonly aggregates: readonly AggregateSpec[]) {
    this.columns = [...child.columns.slice(0, keyCount), ...aggregates.map((spec) => ({ name: spec.name, type: spec.resultType }))];
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return computedResultCursor(input, () => this.aggregate(input, ctx));
  }

  private aggregate(input: Cursor, ctx: ExecContext): ColumnBatch {
    const kernels: AggregateKernel[] = this.aggregates.map((spec) => createKernel(spec.kind, spec.argType, spec.resultType, spec.params ?? []));
    const countSources = countSourcesOf(this.aggregates, kernels);
    const fused = fusedSumOf(this.aggregates, kernels, countSources);
    const index = new GroupIndex(this.keyCount);
    let groups = new Int32Array(0);
    const sumTarget: SumTarget | undefined = fused === undefined ? undefined : (groupCount) => fused.kernel.accumulators(groupCount);
    for (let batch = input.nextBatch(); batch !== undefined; batch = input.nextBatch()) {
      ctx.checkCancelled();
      const fusedValues = fused === undefined ? undefined : batch.vectors[this.aggregates[fused.index].argIndex]?.data;
      if (sumTarget !== undefined && fusedValues instanceof Float64Array && index.isDense(batch)) {
        index.assignDenseSums(batch, fusedValues, sumTarget);
        continue;
      }
      if (sumTarget !== undefined) index.flushDenseSums(sumTarget);
      let groupIds: Int32Array | undefined;
      if (this.keyCount > 0) {
        if (groups.length < batch.rowCount) groups = new Int32Array(batch.rowCount);
        index.assign(batch, groups);
        groupIds = groups;
      }
      const groupCount = this.keyCount === 0 ? 1 : index.count;
      this.aggregates.forEach((spec, k) => {
        if (countSources[k] < 0) kernels[k].update(spec.argIndex < 0 ? undefined : batch.vectors[spec.argIndex], batch.rowCount, groupIds, groupCount);
      });
    }
    if (sumTarget !== undefined) index.flushDenseSums(sumTarget);
    const groupCount = this.keyCount === 0 ? 1 : index.count;
    const keyVectors = this.columns.slice(0, this.keyCount).map((column, k) => keyVector(column.type, index.keyValues[k], groupCount));
    const results = kernels.map((kernel, k) => {
      const source = countSources[k] < 0 ? undefined : kernels[countSources[k]].nonNullCounts;
      return source === undefined ? kernel.result(groupCount) : source.call(kernels[countSources[k]], groupCount);
    });
    return { rowCount: groupCount, vectors: [...keyVectors, ...results] };
  }

  explain(depth: number): string[] {
    const keys = this.keyCount === 0 ? 'GroupBy vectorized: true' : `GroupBy keys: [${this.columns.slice(0, this.keyCount).map((c) => c.name).join(',')}]`;
    return [indent(depth, `${keys} values: [${this.aggregates.map((spec) => `${spec.kind}`).join(',')}]`), ...this.child.explain(depth + 1)];
  }
}

/**
 * The one DOUBLE sum/avg whose rows group-by-dense-sum.ts may fold while assigning groups: when every other
 * aggregate is a count(x) answered by its counts, no kernel needs the per-row group ids.
 */
function fusedSumOf(specs: readonly AggregateSpec[], kernels: readonly AggregateKernel[], countSources: readonly number[]): { index: number; kernel: SumAvgKernel } | undefined {
  const index = specs.findIndex((spec) => spec.kind === 'sum' || spec.kind === 'avg');
  const kernel = kernels[index];
  if (index < 0 || specs[index].argType !== 'DOUBLE' || !(kernel instanceof SumAvgKernel)) return undefined;
  return specs.every((_, k) => k === index || countSources[k] === index) ? { index, kernel } : undefined;
}

/** Argument types whose count(x) nulls are exactly the values sum and avg skip. */
const COUNT_SHARING_TYPES: ReadonlySet<ValueType> = new Set<ValueType>(['DOUBLE', 'FLOAT', 'INT', 'LONG', 'SHORT', 'BYTE']);

/**
 * Per aggregate: the index of a sum or avg kernel over the same input column whose non-null counts are this
 * count(x)'s result (one pass over the argument instead of two), or -1 when it runs its own kernel.
 */
function countSourcesOf(specs: readonly AggregateSpec[], kernels: readonly AggregateKernel[]): number[] {
  return specs.map((spec) => {
    if (spec.kind !== 'count_col' || spec.argIndex < 0 || spec.argType === undefined || !COUNT_SHARING_TYPES.has(spec.argType)) return -1;
    return specs.findIndex((other, k) => (other.kind === 'sum' || other.kind === 'avg') && other.argIndex === spec.argIndex && kernels[k].nonNullCounts !== undefined);
  });
}

function keyVector(type: ValueType, values: readonly unknown[], count: number): Vector {
  if (type === 'SYMBOL') return dictionaryEncode(values as (string | null)[], count);
  const data = allocateVectorData(type, count);
  let hasExact = false;
  for (let k = 0; k < count; k++) {
    const value = values[k];
    hasExact ||= typeof value === 'bigint';
    (data as unknown[])[k] = value === null ? nullSentinel(type) : typeof value === 'bigint' ? Number(value) : value;
  }
  return hasExact ? { type, data, exact: exactKeys(values, count) } : { type, data };
}

/** The exact values of a 64-bit key column some of whose keys lie beyond ±2^53. */
function exactKeys(values: readonly unknown[], count: number): BigInt64Array {
  const exact = new BigInt64Array(count);
  for (let k = 0; k < count; k++) {
    const value = values[k];
    exact[k] = typeof value === 'bigint' ? value : typeof value === 'number' && value === value ? BigInt(value) : LONG_NULL_BIG;
  }
  return exact;
}

function nullSentinel(type: ValueType): unknown {
  if (type === 'INT') return -2147483648;
  if (isTextHeldType(type)) return null;
  // NULL (a bare null key) too: its NaN printed as the text "NaN" and broke Parquet export.
  if (type === 'STRING' || type === 'VARCHAR' || type === 'UUID' || type === 'BINARY' || type === 'NULL') return null;
  if (type === 'BOOLEAN' || type === 'BYTE' || type === 'SHORT' || type === 'CHAR' || type === 'IPV4') return 0;
  return NaN;
}
