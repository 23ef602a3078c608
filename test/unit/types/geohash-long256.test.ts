// GEOHASH and LONG256 codecs: precision parsing, base32 and bit-string forms, storage widths and the -1 null,
// coordinates → hash, and LONG256 text ↔ four little-endian words with QuestDB's whole-byte hex form.
import test from 'ava';
import {
  geohashDisplayName, geohashFromBase32, geohashFromCoordinates, geohashTypeOf, geohashWidthBytes, parseGeohashPrecision,
  readGeohash, readGeohashLiteral, writeGeohash,
} from '../../../src/types/geohash.js';
import { formatLong256, parseLong256, readLong256, writeLong256 } from '../../../src/types/long256.js';
import { parseColumnType, typeDisplayName } from '../../../src/types/column-type.js';

test('precisions: chars are 5 bits, 1..60 bits, QuestDB\'s messages otherwise', (t) => {
  t.is(parseGeohashPrecision('8C'), 40);
  t.is(parseGeohashPrecision('7b'), 7);
  t.is(parseGeohashPrecision('1'), "invalid GEOHASH size, must be number followed by 'C' or 'B' character");
  t.is(parseGeohashPrecision('2x'), "invalid GEOHASH size units, must be 'c', 'C' for chars, or 'b', 'B' for bits");
  t.is(parseGeohashPrecision('13c'), 'invalid GEOHASH type precision range, must be [1, 60] bits, provided=65');
  t.is(parseColumnType('geohash(4c)'), 'GEOHASH(20b)');
  t.is(typeDisplayName(geohashTypeOf(20)), 'GEOHASH(4c)');
  t.is(geohashDisplayName(geohashTypeOf(21)), 'GEOHASH(21b)');
});

test('storage widths follow QuestDB (byte, short, int, long) and -1 is null at every width', (t) => {
  t.deepEqual([1, 7, 8, 15, 16, 31, 32, 60].map(geohashWidthBytes), [1, 1, 2, 2, 4, 4, 8, 8]);
  for (const bits of [5, 7, 10, 30, 60]) {
    const width = geohashWidthBytes(bits);
    const bytes = Buffer.alloc(width * 2);
    const value = geohashFromBase32('zzzzzzzzzzzz', bits) as string;
    writeGeohash(bytes, 0, bits, value);
    writeGeohash(bytes, 1, bits, null);
    t.is(readGeohash(bytes, 0, bits), value, `bits=${bits}`);
    t.is(readGeohash(bytes, 1, bits), null, `bits=${bits}`);
    t.true(bytes.subarray(width).every((byte) => byte === 0xff));
  }
});

test('base32 casts truncate to the precision, read at most 12 characters, and refuse too few or bad characters', (t) => {
  t.is(geohashFromBase32('u33dbc', 20), 'u33d');
  t.is(geohashFromBase32('u33d', 7), '1101000');
  t.is(geohashFromBase32('u33dbczzzzzzzzz', 60), 'u33dbczzzzzz');
  t.is(geohashFromBase32('u3', 15), undefined);
  t.is(geohashFromBase32('ua', 10), undefined);
  t.is(geohashFromBase32('', 10), null);
});

test('# and ## constants, with /bits', (t) => {
  t.deepEqual(readGeohashLiteral('#u33d'), { binary: '11010000110001101100' });
  t.deepEqual(readGeohashLiteral('#u33d/7'), { binary: '1101000' });
  t.deepEqual(readGeohashLiteral('##0101'), { binary: '0101' });
  t.deepEqual(readGeohashLiteral('#u33d/61'), { error: 'invalid bits size for GEOHASH constant: #u33d/61' });
  t.is(readGeohashLiteral('#a'), undefined);
  t.is(readGeohashLiteral('#u3/11'), undefined);
  t.is(readGeohashLiteral('##012'), undefined);
  t.is(readGeohashLiteral(`##${'1'.repeat(61)}`), undefined);
});

test('make_geohash halves longitude then latitude', (t) => {
  t.is(geohashFromCoordinates(-0.1276, 51.5072, 30), 'gcpvj0');
  t.is(geohashFromCoordinates(-0.1276, 51.5072, 7), '0111101');
  t.is(geohashFromCoordinates(181, 0, 5), undefined);
  t.is(geohashFromCoordinates(0, Number.NaN, 5), undefined);
});

test('LONG256: whole-byte hex without leading zeros; four little-endian words; all Long.MIN_VALUE is null', (t) => {
  t.is(formatLong256(0n), '0x00');
  t.is(formatLong256(1n), '0x01');
  t.is(formatLong256(1n << 64n), '0x010000000000000000');
  t.is(parseLong256('0X00FF'), '0xff');
  t.is(parseLong256('ff'), undefined);
  t.is(parseLong256(`0x1${'0'.repeat(64)}`), undefined);
  const bytes = new Uint8Array(64);
  const max = `0x${'f'.repeat(64)}`;
  writeLong256(bytes, 0, '0x0123456789abcdef0011223344556677');
  writeLong256(bytes, 32, null);
  t.is(Buffer.from(bytes.subarray(0, 8)).readBigUInt64LE(0), 0x0011223344556677n);
  t.is(Buffer.from(bytes.subarray(8, 16)).readBigUInt64LE(0), 0x0123456789abcdefn);
  t.is(readLong256(bytes, 0), '0x0123456789abcdef0011223344556677');
  t.is(readLong256(bytes, 32), null);
  writeLong256(bytes, 0, max);
  t.is(readLong256(bytes, 0), max);
});
