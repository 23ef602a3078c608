// Computed SYMBOL values come out of expressions as text; this turns them back into keys + a dictionary,
// which is the layout every consumer of a SYMBOL vector expects.
import type { Vector } from '../exec/batch.js';

export function dictionaryEncode(values: readonly (string | null)[], rowCount: number): Vector {
  const keys = new Int32Array(rowCount);
  const symbols: string[] = [];
  const index = new Map<string, number>();
  for (let row = 0; row < rowCount; row++) {
    const value = values[row];
    if (value === null || value === undefined) {
      keys[row] = -1;
      continue;
    }
    let key = index.get(value);
    if (key === undefined) {
      key = symbols.length;
      symbols.push(value);
      index.set(value, key);
    }
    keys[row] = key;
  }
  return { type: 'SYMBOL', data: keys, symbols };
}
