// float8[] in PostgreSQL's binary form (array_send), byte by byte: length prefix, dimension count, has-nulls
// flag, element OID 701, (length, lower bound 1) per dimension, elements as length-prefixed big-endian float8
// or -1 for NULL; an empty array has no dimensions.
import test from 'ava';
import { MessageWriter } from '../../../src/pgwire/message-writer.js';
import { writeArrayBinary } from '../../../src/pgwire/array-binary.js';
import { encodeDoubleArray } from '../../../src/types/double-array.js';

function int32s(...values: number[]): Buffer {
  const bytes = Buffer.alloc(4 * values.length);
  values.forEach((value, k) => bytes.writeInt32BE(value, 4 * k));
  return bytes;
}

function float8(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value);
  return bytes;
}

function encoded(shape: number[], values: number[]): Buffer {
  const writer = new MessageWriter();
  writeArrayBinary(writer, encodeDoubleArray(shape, values));
  return writer.take();
}

test('a 2x1 array with a NULL element', (t) => {
  const body = Buffer.concat([int32s(2, 1, 701, 2, 1, 1, 1), int32s(8), float8(1.5), int32s(-1)]);
  t.deepEqual(encoded([2, 1], [1.5, NaN]), Buffer.concat([int32s(body.length), body]));
});

test('an empty array is zero-dimensional', (t) => {
  const body = int32s(0, 0, 701);
  t.deepEqual(encoded([0], []), Buffer.concat([int32s(body.length), body]));
});
