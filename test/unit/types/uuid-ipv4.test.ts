// UUID text ↔ halves ↔ storage bytes, and IPv4 text ↔ int32, including the null forms.
import test from 'ava';
import {
  UUID_NULL_HALF, formatIpv4, formatUuid, isNullUuid, parseIpv4, parseUuid, uuidFromBytes, uuidToBytes,
} from '../../../src/types/uuid-ipv4.js';

const SAMPLE = 'c2593f82-b430-328d-84a0-9f29df637e38';

/** Storage bytes as hex, byte 0 first. */
function hexBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

test('parseUuid: hi is the first 16 hex digits, lo the last 16, both signed', (t) => {
  t.deepEqual(parseUuid(SAMPLE), { hi: BigInt.asIntN(64, 0xc2593f82b430328dn), lo: BigInt.asIntN(64, 0x84a09f29df637e38n) });
  t.deepEqual(parseUuid('00000000-0000-0000-0000-000000000001'), { hi: 0n, lo: 1n });
  t.deepEqual(parseUuid(SAMPLE.toUpperCase()), parseUuid(SAMPLE));
});

test('parseUuid: rejects anything but the canonical 8-4-4-4-12 form', (t) => {
  for (const text of ['', 'c2593f82b430328d84a09f29df637e38', `${SAMPLE}0`, SAMPLE.slice(1), 'g2593f82-b430-328d-84a0-9f29df637e38',
    'c2593f82-b430-328d-84a09-f29df637e38', `{${SAMPLE.slice(1, -1)}}`]) {
    t.is(parseUuid(text), undefined, text);
  }
});

test('formatUuid: lower case, from signed or unsigned halves', (t) => {
  const halves = parseUuid(SAMPLE);
  t.truthy(halves);
  if (halves === undefined) return;
  t.is(formatUuid(halves.hi, halves.lo), SAMPLE);
  t.is(formatUuid(0xc2593f82b430328dn, 0x84a09f29df637e38n), SAMPLE);
  t.is(formatUuid(0n, 1n), '00000000-0000-0000-0000-000000000001');
});

test('storage bytes: lo little-endian then hi little-endian', (t) => {
  const bytes = uuidToBytes(SAMPLE);
  t.truthy(bytes);
  if (bytes === undefined) return;
  t.is(hexBytes(bytes), '387e63df299fa0848d3230b4823f59c2');
  const view = new DataView(bytes.buffer);
  const halves = parseUuid(SAMPLE);
  t.deepEqual({ lo: view.getBigInt64(0, true), hi: view.getBigInt64(8, true) }, halves);
  t.is(uuidToBytes('not-a-uuid'), undefined);
});

test('uuidFromBytes: reads at an offset, null for the null UUID', (t) => {
  const buffer = new Uint8Array(48);
  const bytes = uuidToBytes(SAMPLE);
  if (bytes === undefined) return t.fail('sample parses');
  buffer.set(bytes, 16);
  const nulls = new DataView(buffer.buffer);
  nulls.setBigInt64(32, UUID_NULL_HALF, true);
  nulls.setBigInt64(40, UUID_NULL_HALF, true);
  t.is(uuidFromBytes(buffer, 16), SAMPLE);
  t.is(uuidFromBytes(buffer, 0), '00000000-0000-0000-0000-000000000000');
  t.is(uuidFromBytes(buffer, 32), null);
  t.true(isNullUuid(UUID_NULL_HALF, UUID_NULL_HALF));
  t.false(isNullUuid(UUID_NULL_HALF, 0n));
  t.throws(() => uuidFromBytes(buffer, 40));
});

test('parseIpv4: dotted quads to signed int32', (t) => {
  t.is(parseIpv4('1.2.3.4'), 0x01020304);
  t.is(parseIpv4('255.255.255.255'), -1);
  t.is(parseIpv4('192.168.0.1'), (192 << 24) | (168 << 16) | 1);
  t.is(parseIpv4('0.0.0.0'), 0);
  t.is(parseIpv4('128.0.0.0'), -2147483648);
});

test('parseIpv4: rejects malformed addresses', (t) => {
  for (const text of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1..2.3', '1.2.3.', 'a.b.c.d', '1.2.3.4 ', '1234.1.1.1', '-1.2.3.4']) {
    t.is(parseIpv4(text), undefined, text);
  }
});

test('formatIpv4: signed or unsigned values, round trip', (t) => {
  t.is(formatIpv4(0x01020304), '1.2.3.4');
  t.is(formatIpv4(-1), '255.255.255.255');
  t.is(formatIpv4(0xffffffff), '255.255.255.255');
  t.is(formatIpv4(0), '0.0.0.0');
  for (const text of ['10.0.0.1', '172.16.254.3', '200.100.50.25']) t.is(formatIpv4(parseIpv4(text) ?? 0), text);
});
