// Text → DOUBLE[] value, for casts from strings and text inserts: PostgreSQL's braces (`{{1,2},{3,4}}`) or
// JSON's brackets (`[[1,2],[3,4]]`), elements as numbers (optionally double-quoted) or NULL/null/NaN, whitespace
// ignored. Every sub-array of one level must have the same length. Returns undefined for text that is not such
// an array.
import { arrayDimsMax, encodeDoubleArray } from './double-array.js';

interface ParseState {
  readonly text: string;
  index: number;
  readonly shape: number[];
  readonly values: number[];
}

export function parseArrayText(text: string, dimCount: number): Uint8Array | undefined {
  const state: ParseState = { text, index: 0, shape: [], values: [] };
  skipSpaces(state);
  if (!parseLevel(state, 0)) return undefined;
  skipSpaces(state);
  if (state.index !== text.length) return undefined;
  // `{}` / `[]`: an empty array of the requested dimensionality.
  if (state.shape.length === 1 && state.shape[0] === 0) return encodeDoubleArray(new Array<number>(dimCount).fill(0), []);
  if (state.shape.length !== dimCount) return undefined;
  return encodeDoubleArray(state.shape, state.values);
}

function skipSpaces(state: ParseState): void {
  while (state.index < state.text.length && /\s/.test(state.text[state.index])) state.index++;
}

function parseLevel(state: ParseState, depth: number): boolean {
  if (depth >= arrayDimsMax) return false;
  const open = state.text[state.index];
  if (open !== '{' && open !== '[') return false;
  const close = open === '{' ? '}' : ']';
  state.index++;
  skipSpaces(state);
  let length = 0;
  if (state.text[state.index] !== close) {
    for (;;) {
      skipSpaces(state);
      const nested = state.text[state.index] === '{' || state.text[state.index] === '[';
      if (nested ? !parseLevel(state, depth + 1) : !parseElement(state, depth)) return false;
      length++;
      skipSpaces(state);
      if (state.text[state.index] === ',') {
        state.index++;
        continue;
      }
      break;
    }
  }
  if (state.text[state.index] !== close) return false;
  state.index++;
  const known = state.shape[depth];
  if (known === undefined) state.shape[depth] = length;
  return known === undefined || known === length;
}

function parseElement(state: ParseState, depth: number): boolean {
  // Scalars sit only at the deepest level; a level with scalars fixes the dimensionality.
  if (state.shape.length > depth + 1) return false;
  // PostgreSQL clients may quote elements (`{"0.5","-1"}`); a quoted element is a number, never NULL.
  const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(state.text.slice(state.index));
  if (quoted !== null) {
    state.index += quoted[0].length;
    const value = Number(quoted[1].replace(/\\(.)/g, '$1'));
    if (Number.isNaN(value) || quoted[1].trim() === '') return false;
    state.values.push(value);
    return true;
  }
  const match = /^[^,\]}\s]+/.exec(state.text.slice(state.index));
  if (match === null) return false;
  const word = match[0];
  state.index += word.length;
  const lower = word.toLowerCase();
  if (lower === 'null' || lower === 'nan') {
    state.values.push(NaN);
    return true;
  }
  const value = Number(word);
  if (Number.isNaN(value)) return false;
  state.values.push(value);
  return true;
}
