// The `cols` parameter of /exec: a comma-separated list of result column names that projects and reorders the
// result. Parsed byte by byte as QuestDB does (JsonQueryProcessorState.parseNextColumnName): `"` toggles quoting
// (a quoted comma is part of a name) and is dropped, `\` takes the next character literally, a trailing comma
// ends the list; the first name that is empty, not UTF-8 or not a result column stops the request.
import type { OutputColumn } from '../sql/compiler.js';
import { decodeUtf8Strict } from './url-param-bytes.js';

export type ColumnListResolution =
  | { readonly kind: 'indexes'; readonly indexes: readonly number[] }
  | { readonly kind: 'empty' }
  | { readonly kind: 'badUtf8' }
  | { readonly kind: 'unknown'; readonly name: string };

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One name from `start`; `end` is just past its terminating comma (or the end of the value). */
function resolveColumnListName(bytes: Uint8Array, start: number): { name: string; end: number } | undefined {
  let name = '';
  let quoted = false;
  let escaped = false;
  let index = start;
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte >= 0x80) {
      const length = resolveColumnListSequenceLength(byte);
      const text = length === 0 || index + length > bytes.length ? undefined : decodeUtf8Strict(bytes.subarray(index, index + length));
      if (text === undefined) return undefined;
      name += text;
      escaped = false;
      index += length;
      continue;
    }
    index++;
    if (escaped) {
      escaped = false;
      name += String.fromCharCode(byte);
    } else if (byte === BACKSLASH) {
      escaped = true;
    } else if (byte === QUOTE) {
      quoted = !quoted;
    } else if (byte === COMMA && !quoted) {
      return { name, end: index };
    } else {
      name += String.fromCharCode(byte);
    }
  }
  return { name, end: index };
}

function resolveColumnListSequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Maps each listed name to the index of the result column of that name, compared case-insensitively as
 * QuestDB's metadata lookup does; a name may be listed more than once and an empty value lists no columns.
 * Names are checked one at a time in list order, so the first bad name decides the error, as in QuestDB.
 */
export function resolveColumnList(bytes: Uint8Array, columns: readonly OutputColumn[]): ColumnListResolution {
  const lowered = columns.map((column) => column.name.toLowerCase());
  const indexes: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    const next = resolveColumnListName(bytes, start);
    if (next === undefined) return { kind: 'badUtf8' };
    if (next.name === '') return { kind: 'empty' };
    const index = lowered.indexOf(next.name.toLowerCase());
    if (index < 0) return { kind: 'unknown', name: next.name };
    indexes.push(index);
    start = next.end;
  }
  return { kind: 'indexes', indexes };
}
