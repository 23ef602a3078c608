// Column references a bound call makes outside its arguments: a call may read a SYMBOL column's keys and
// dictionary through `symbolColumn(index)` in its emitter (IN over a symbol tests the batch's key bitmap), so
// its `args` do not show every column it reads. Found by running the emitter once over placeholder names; the
// emitter only builds source text, so this has no effect.
import type { BoundCall } from '../bind/bound.js';

/** Input columns `call` reads through symbolColumn (not through its arguments); undefined when the probe fails. */
export function symbolColumnsOf(call: BoundCall): number[] | undefined {
  const columns: number[] = [];
  try {
    call.emit(call.args.map((_, k) => `a${k}`), () => 'c', (index) => {
      columns.push(index);
      return { key: 'k', table: 't', perBatch: () => 'b' };
    });
  } catch {
    return undefined;
  }
  return columns;
}
