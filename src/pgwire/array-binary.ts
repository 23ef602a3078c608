// PostgreSQL's binary form of a float8[] value (array_send): dimension count, a has-nulls flag, the element OID,
// (length, lower bound 1) per dimension, then each element as a length-prefixed float8 or -1 for NULL. A
// non-finite element is NULL, as in QuestDB's text form.
import { arrayDimCount, arrayDimLength, arrayValues } from '../types/double-array.js';
import type { MessageWriter } from './message-writer.js';

const FLOAT8_OID = 701;

export function writeArrayBinary(out: MessageWriter, bytes: Uint8Array): void {
  const values = arrayValues(bytes);
  const dimCount = values.length === 0 ? 0 : arrayDimCount(bytes);
  let nullCount = 0;
  for (let k = 0; k < values.length; k++) if (!Number.isFinite(values[k])) nullCount++;
  out.int32(12 + 8 * dimCount + 12 * values.length - 8 * nullCount);
  out.int32(dimCount);
  out.int32(nullCount > 0 ? 1 : 0);
  out.int32(FLOAT8_OID);
  for (let d = 0; d < dimCount; d++) {
    out.int32(arrayDimLength(bytes, d));
    out.int32(1);
  }
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (Number.isFinite(v)) {
      out.int32(8);
      out.float64(v);
    } else {
      out.int32(-1);
    }
  }
}
