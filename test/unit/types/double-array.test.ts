// The DOUBLE[] value layout and its text forms: headers, 8-byte aligned elements (views, not copies, when the
// value is aligned), parsing of PostgreSQL and JSON text, JSON and PostgreSQL output.
import test from 'ava';
import { arrayDimCount, arrayElementAt, arrayHeaderBytes, arrayShape, arrayTypeOf, arrayValues, encodeDoubleArray, isWellFormedArray, parseArrayTypeName } from '../../../src/types/double-array.js';
import { parseArrayText } from '../../../src/types/double-array-parse.js';
import { formatArrayJson, formatArrayPg } from '../../../src/types/double-array-format.js';

test('type names carry the dimensionality; malformed names are not types', (t) => {
  t.is(arrayTypeOf(2), 'DOUBLE[][]');
  t.is(parseArrayTypeName('DOUBLE[][][]'), 'DOUBLE[][][]');
  t.is(parseArrayTypeName('DOUBLE[]x'), undefined);
  t.is(parseArrayTypeName(`DOUBLE${'[]'.repeat(33)}`), undefined);
});

test('values: header, shape and aligned element views', (t) => {
  const value = encodeDoubleArray([2, 3], [1, 2, 3, 4, 5, 6]);
  t.is(arrayDimCount(value), 2);
  t.deepEqual(arrayShape(value), [2, 3]);
  t.is(value.length, arrayHeaderBytes(2) + 48);
  t.is((value.byteOffset + arrayHeaderBytes(2)) % 8, 0);
  const view = arrayValues(value);
  t.is(view.buffer, value.buffer, 'aligned elements are a view of the value');
  t.deepEqual([...view], [1, 2, 3, 4, 5, 6]);
  t.true(isWellFormedArray(value, 2));
  t.false(isWellFormedArray(value.subarray(0, value.length - 8), 2));
  t.is(arrayHeaderBytes(1), 12);
});

test('a value copied to an unaligned offset is still read correctly (as a copy)', (t) => {
  const value = encodeDoubleArray([3], [0.5, -1, 2]);
  const shifted = new Uint8Array(value.length + 1).subarray(1);
  shifted.set(value);
  t.deepEqual([...arrayValues(shifted)], [0.5, -1, 2]);
});

test('text in braces or brackets parses; ragged or mistyped text does not', (t) => {
  t.deepEqual(formatArrayJson(parseArrayText('{{1,2},{3,NULL}}', 2) as Uint8Array), '[[1.0,2.0],[3.0,null]]');
  t.deepEqual(formatArrayJson(parseArrayText(' [ 1.5 , -2e3 ] ', 1) as Uint8Array), '[1.5,-2000.0]');
  t.deepEqual(arrayShape(parseArrayText('{}', 3) as Uint8Array), [0, 0, 0]);
  t.is(parseArrayText('{{1,2},{3}}', 2), undefined);
  t.is(parseArrayText('{1,2}', 2), undefined);
  t.is(parseArrayText('{1,x}', 1), undefined);
  t.is(parseArrayText('{1,2', 1), undefined);
  t.deepEqual(formatArrayJson(parseArrayText('{"0.5","-1"}', 1) as Uint8Array), '[0.5,-1.0]');
  t.is(parseArrayText('{"",1}', 1), undefined);
});

test('JSON and PostgreSQL text forms', (t) => {
  const value = encodeDoubleArray([2, 2], [1, NaN, Infinity, 1e300]);
  t.is(formatArrayJson(value), '[[1.0,null],[null,1.0E300]]');
  t.is(formatArrayPg(value), '{{1.0,NULL},{NULL,1.0E300}}');
  t.is(formatArrayJson(encodeDoubleArray([2, 0], [])), '[]');
});

test('single elements read through a view of the whole buffer, aligned or not', (t) => {
  const value = encodeDoubleArray([2, 2], [1, 2, 3, 4]);
  t.is(arrayElementAt(value, 3), 4);
  const shifted = new Uint8Array(value.length + 1).subarray(1);
  shifted.set(value);
  t.is(arrayElementAt(shifted, 2), 3);
  t.is(arrayElementAt(value, 0), 1, 'switching buffers back re-creates the view');
});
