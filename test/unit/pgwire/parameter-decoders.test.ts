// Bind values to parameter values: text as PostgreSQL's input functions write it, binary by type.
import test from 'ava';
import { decodeParameter, type ParameterSlot } from '../../../src/pgwire/parameter-decoders.js';
import { OID } from '../../../src/pgwire/pg-types.js';

const slot = (type: ParameterSlot['type'], declaredOid = 0): ParameterSlot => ({ index: 0, type, declaredOid });

function int64(value: bigint): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigInt64BE(value);
  return buffer;
}

test('text values', (t) => {
  t.deepEqual(decodeParameter(slot('BOOLEAN'), 0, Buffer.from('t')), { type: 'BOOLEAN', text: 'true' });
  t.deepEqual(decodeParameter(slot('TIMESTAMP'), 0, Buffer.from('2024-01-01 00:00:01.5')), { type: 'TIMESTAMP', text: '1704067201500000' });
  t.deepEqual(decodeParameter(slot('BINARY'), 0, Buffer.from('\\x00ff')), { type: 'BINARY', text: '00ff' });
  t.deepEqual(decodeParameter(slot('VARCHAR'), 0, null), { type: 'VARCHAR', text: null });
  t.throws(() => decodeParameter(slot('BOOLEAN'), 0, Buffer.from('maybe')), { message: /not a boolean/ });
});

test('binary values by type: integers, floats, timestamps since 2000, dates, uuid', (t) => {
  t.is(decodeParameter(slot('LONG'), 1, int64(-5n)).text, '-5');
  t.is(decodeParameter(slot('INT'), 1, Buffer.from([0xff, 0xff, 0xff, 0xfe])).text, '-2');
  t.is(decodeParameter(slot('DOUBLE'), 1, Buffer.from([0x3f, 0xf8, 0, 0, 0, 0, 0, 0])).text, '1.5');
  t.is(decodeParameter(slot('TIMESTAMP'), 1, int64(0n)).text, '946684800000000');
  t.is(decodeParameter(slot('TIMESTAMP', OID.DATE), 1, Buffer.from([0, 0, 0, 1])).text, '946771200000000');
  t.is(decodeParameter(slot('UUID'), 1, Buffer.from('12345678123456781234567812345678', 'hex')).text, '12345678-1234-5678-1234-567812345678');
  t.throws(() => decodeParameter(slot('INT'), 1, Buffer.from([1, 2])), { message: /binary value of 2 bytes, expected 4/ });
  t.throws(() => decodeParameter(slot('DOUBLE', OID.NUMERIC), 1, Buffer.alloc(8)), { message: /binary numeric/ });
});
