// Text forms of DOUBLE[] values as QuestDB writes them: nested brackets in JSON and CSV (`[[1.0,2.0],[3.0,4.0]]`,
// a non-finite element as `null`) and braces in PostgreSQL's text form (`{1.0,2.0}`, `NULL`). An empty array is
// `[]` / `{}` whatever its shape.
import { arrayDimCount, arrayDimLength, arrayValues } from './double-array.js';
import { formatDouble } from './value-format.js';

function formatNested(bytes: Uint8Array, open: string, close: string, nullText: string): string {
  const values = arrayValues(bytes);
  if (values.length === 0) return `${open}${close}`;
  const dimCount = arrayDimCount(bytes);
  const shape = new Array<number>(dimCount);
  for (let d = 0; d < dimCount; d++) shape[d] = arrayDimLength(bytes, d);
  const parts: string[] = [];
  let next = 0;
  const walk = (dim: number): void => {
    parts.push(open);
    const length = shape[dim];
    for (let k = 0; k < length; k++) {
      if (k > 0) parts.push(',');
      if (dim === dimCount - 1) {
        const v = values[next++];
        parts.push(Number.isFinite(v) ? formatDouble(v) : nullText);
      } else {
        walk(dim + 1);
      }
    }
    parts.push(close);
  };
  walk(0);
  return parts.join('');
}

/** JSON (and CSV) text of a value. */
export function formatArrayJson(bytes: Uint8Array): string {
  return formatNested(bytes, '[', ']', 'null');
}

/** PostgreSQL text form (float8[]). */
export function formatArrayPg(bytes: Uint8Array): string {
  return formatNested(bytes, '{', '}', 'NULL');
}
