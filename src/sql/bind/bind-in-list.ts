// `x IN (constant, ...)` as one membership test per row instead of a chain of equalities, whose cost grows
// with the list (TSBS's `hostname IN ('host_1', ..., 'host_32')`). On a SYMBOL column the list resolves to a
// bitmap over the dictionary's int keys once per query (per dictionary: a computed symbol vector brings its
// own), so a row costs one array read; on text the list becomes a hash set once it is longer than a few items.
// NULL in the list matches NULL, as `=` does in QuestDB. Lists with non-constant items keep the equality chain.
import type { BoundCall, BoundExpr } from './bound.js';
import { isTextType } from '../../types/casts.js';

/** Lists up to this long stay equality chains on text: a few string compares beat a hash lookup. */
const textChainItemsMax = 4;

/** Stands for a missing dictionary (a vector of null keys only). */
const NO_DICTIONARY: readonly string[] = [];

/** The membership of a list of symbol texts, as a bitmap over the keys of whichever dictionary a batch has. */
export class SymbolKeySet {
  /**
   * The dictionary the bitmap was built for, its length then, and the bitmap; the emitted test asks `of` once
   * per batch. Never undefined, so a batch without a dictionary fails the identity test.
   */
  table: readonly string[] = NO_DICTIONARY;
  tableLength = -1;
  bitmap = new Uint8Array(1);

  constructor(private readonly values: ReadonlySet<string | null>) {}

  /**
   * Membership by key + 1 (slot 0 is the null key -1). Dictionaries only grow by appending, and a scan hands
   * out the same array for every batch, so the bitmap is rebuilt only when the dictionary or its length changes.
   */
  of(dictionary: readonly string[] | undefined): Uint8Array {
    const table = dictionary ?? NO_DICTIONARY;
    if (table === this.table && table.length === this.tableLength) return this.bitmap;
    const bitmap = new Uint8Array(table.length + 1);
    bitmap[0] = this.values.has(null) ? 1 : 0;
    for (let key = 0; key < table.length; key++) bitmap[key + 1] = this.values.has(table[key]) ? 1 : 0;
    this.table = table;
    this.tableLength = table.length;
    this.bitmap = bitmap;
    return bitmap;
  }
}

/** The membership test, or undefined when the list needs the general equality chain. */
export function bindInList(operand: BoundExpr, items: readonly BoundExpr[], position: number): BoundCall | undefined {
  const values = constantTexts(items);
  if (values === undefined) return undefined;
  if (operand.type === 'SYMBOL' && operand.kind === 'column') return symbolKeyTest(operand.index, values, position);
  if ((isTextType(operand.type) || operand.type === 'SYMBOL') && items.length > textChainItemsMax) return textSetTest(operand, values, position);
  return undefined;
}

/** The texts of a list of text (or NULL) constants; undefined when an item is anything else. */
function constantTexts(items: readonly BoundExpr[]): Set<string | null> | undefined {
  const values = new Set<string | null>();
  for (const item of items) {
    if (item.kind !== 'constant') return undefined;
    if (item.value === null && (item.type === 'NULL' || isTextType(item.type) || item.type === 'SYMBOL')) values.add(null);
    else if (typeof item.value === 'string' && (isTextType(item.type) || item.type === 'SYMBOL')) values.add(item.value);
    else return undefined;
  }
  return values;
}

function symbolKeyTest(index: number, values: Set<string | null>, position: number): BoundCall {
  const keys = new SymbolKeySet(values);
  return {
    kind: 'call', type: 'BOOLEAN', name: 'in', args: [], position,
    emit: (_args, constant, symbolColumn) => {
      const { key, table, perBatch } = symbolColumn(index);
      // The bitmap of the batch's dictionary is looked up once per batch, so a row costs one byte read.
      const bitmap = perBatch(`${constant(keys)}.of(${table})`);
      return `(${bitmap}[${key} + 1] === 1)`;
    },
  };
}

function textSetTest(operand: BoundExpr, values: Set<string | null>, position: number): BoundCall {
  return {
    kind: 'call', type: 'BOOLEAN', name: 'in', args: [operand], position,
    emit: ([value], constant) => `${constant(values)}.has(${value})`,
  };
}
