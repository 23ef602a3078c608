// SYMBOL values as the line protocol's parser builds them (a dictionary-coded column), for storage tests.
import { SymbolColumnBuilder } from '../../src/ilp/symbol-column-builder.js';
import type { SymbolIdsColumnData } from '../../src/storage/symbol-ids.js';

/** `values` (null for a missing tag) through the worker's builder, as one ids column with its dictionary. */
export function symbolIdsColumn(values: readonly (string | null)[]): SymbolIdsColumnData {
  const builder = new SymbolColumnBuilder('SYMBOL');
  for (const value of values) {
    if (value === null) builder.appendNull();
    else {
      const bytes = Buffer.from(`,${value},`);
      builder.append(bytes, 1, bytes.length - 1);
    }
  }
  return builder.toColumnData();
}
