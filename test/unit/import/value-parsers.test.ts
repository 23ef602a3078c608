// Scalar byte parsers: integers and their ranges, correctly rounded doubles, 64-bit values beyond 2^53,
// booleans, IPv4, UUID, ISO timestamps in every accepted shape, and schema timestamp patterns.
import test from 'ava';
import { parseIsoTimestampBytes } from '../../../src/import/iso-timestamp.js';
import { compileImportTimestampPattern } from '../../../src/import/timestamp-pattern.js';
import {
  isNanLiteral, parseBooleanBytes, parseDoubleBytes, parseIntBytes, parseIpv4Bytes, parseLongBigBytes, parseLongBytes,
  parseUuidBytes,
} from '../../../src/import/value-parsers.js';
import { micros } from './import-fixtures.js';

function bytes<T>(parse: (buf: Uint8Array, s: number, e: number) => T, text: string): T {
  // Parse from the middle of a larger buffer so offsets are exercised, not just 0..length.
  const buf = Buffer.from(`##${text}##`);
  return parse(buf, 2, buf.length - 2);
}

test('INT: range and malformed text', (t) => {
  t.is(bytes(parseIntBytes, '0'), 0);
  t.is(bytes(parseIntBytes, '-42'), -42);
  t.is(bytes(parseIntBytes, '2147483647'), 2147483647);
  t.true(Number.isNaN(bytes(parseIntBytes, '2147483648')));
  for (const bad of ['', '-', '1.0', '1e3', ' 1', '12a', '+1']) t.true(Number.isNaN(bytes(parseIntBytes, bad)), bad);
});

test('LONG: exact up to 15 digits as numbers, up to 19 through BigInt, Long.MIN_VALUE excluded', (t) => {
  t.is(bytes(parseLongBytes, '-999999999999999'), -999999999999999);
  t.true(Number.isNaN(bytes(parseLongBytes, '9007199254740993')));
  t.is(bytes(parseLongBigBytes, '9007199254740993'), 9007199254740993n);
  t.is(bytes(parseLongBigBytes, '9223372036854775807'), 9223372036854775807n);
  t.is(bytes(parseLongBigBytes, '-9223372036854775808'), undefined, 'the LONG null sentinel is not a value');
  t.is(bytes(parseLongBigBytes, '9223372036854775808'), undefined);
  t.is(bytes(parseLongBigBytes, '12x'), undefined);
});

test('DOUBLE: correctly rounded like Number(), exponents, NaN and infinities', (t) => {
  for (const text of ['0', '-0.5', '123.45', '0.1', '1.7976931348623157e308', '5e-324', '3.14159265358979323846',
    '.5', '1.', '+2.5', '1E3', '2.5e-3', '12345678901234567890', '0.000001234']) {
    t.is(bytes(parseDoubleBytes, text), Number(text), text);
  }
  t.true(Number.isNaN(bytes(parseDoubleBytes, 'NaN')));
  t.true(bytes(isNanLiteral, 'NaN'));
  t.is(bytes(parseDoubleBytes, '-Infinity'), -Infinity);
  for (const bad of ['', '.', '-', '1.2.3', '1e', 'abc', '1,5', '0x10']) t.true(Number.isNaN(bytes(parseDoubleBytes, bad)), bad);
});

test('BOOLEAN, IPv4 and UUID', (t) => {
  t.is(bytes(parseBooleanBytes, 'TRUE'), 1);
  t.is(bytes(parseBooleanBytes, 'false'), 0);
  t.is(bytes(parseBooleanBytes, 'yes'), -1);
  t.is(bytes(parseIpv4Bytes, '1.2.3.4'), 0x01020304);
  t.is(bytes(parseIpv4Bytes, '255.255.255.255'), -1);
  for (const bad of ['1.2.3', '1.2.3.256', '1..2.3', 'a.b.c.d', '1.2.3.4.5']) t.true(Number.isNaN(bytes(parseIpv4Bytes, bad)), bad);
  t.is(bytes(parseUuidBytes, 'C2593F82-B430-328D-84A0-9F29DF637E38'), 'c2593f82-b430-328d-84a0-9f29df637e38');
  t.is(bytes(parseUuidBytes, 'c2593f82b430328d84a09f29df637e38'), undefined);
});

test('ISO timestamps: fraction, zone and separator variants', (t) => {
  const cases: Array<[string, string]> = [
    ['2024-01-01T00:00:00.100000Z', '2024-01-01T00:00:00.100000Z'],
    ['2024-01-01T00:00:00.1Z', '2024-01-01T00:00:00.100000Z'],
    ['2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00.123456Z'],
    ['2024-01-01 12:30:45', '2024-01-01T12:30:45.000000Z'],
    ['2024-01-01T12:30:45', '2024-01-01T12:30:45.000000Z'],
    ['2024-01-01T12:30', '2024-01-01T12:30:00.000000Z'],
    ['2024-01-01', '2024-01-01T00:00:00.000000Z'],
    ['2024-01-01T02:00:00+02:00', '2024-01-01T00:00:00.000000Z'],
    ['2024-01-01T02:00:00.5+0200', '2024-01-01T00:00:00.500000Z'],
    ['2023-12-31T23:00:00-01', '2024-01-01T00:00:00.000000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000000Z'],
  ];
  for (const [text, expected] of cases) t.is(bytes(parseIsoTimestampBytes, text), micros(expected), text);
  t.is(bytes(parseIsoTimestampBytes, '1969-12-31T23:59:59.999999Z'), -1);
  for (const bad of ['2023-02-29T00:00:00Z', '2024-13-01', '2024-01-01T24:00:00', '2024-01-01T00:60', '2024/01/01',
    '2024-01-01T00:00:00.Z', '2024-01-01T00:00:00X', '20240101', '2024-01-01T00:00:00.1234567890Z']) {
    t.true(Number.isNaN(bytes(parseIsoTimestampBytes, bad)), bad);
  }
});

test('timestamp patterns: QuestDB letters, greedy fields, names, AM/PM and zones', (t) => {
  const parse = (pattern: string, text: string): number => bytes(compileImportTimestampPattern(pattern).parseBytes, text);
  t.is(parse('dd/MM/yyyy', '25/12/2024'), micros('2024-12-25T00:00:00Z'));
  t.is(parse('d/M/y H:m', '1/2/2024 3:4'), micros('2024-02-01T03:04:00Z'));
  t.is(parse('MM/dd/y', '12/25/2024'), micros('2024-12-25T00:00:00Z'));
  t.true(Number.isNaN(parse('dd/MM/y', '12/25/2024')), 'month 25 is invalid');
  t.is(parse('dd MMM yyyy hh:mm a', '05 Mar 2024 01:30 PM'), micros('2024-03-05T13:30:00Z'));
  t.is(parse('yyyy-MM-ddTHH:mm:ss.SSSUUUz', '2024-01-01T00:00:00.100200Z'), micros('2024-01-01T00:00:00.100200Z'));
  t.is(parse('yyyy-MM-dd HH:mm:ssz', '2024-01-01 01:00:00+01:00'), micros('2024-01-01T00:00:00Z'));
  t.is(parse('yyyyMMddHHmmss', '20240101123456'), micros('2024-01-01T12:34:56Z'));
  t.true(Number.isNaN(parse('yyyy-MM-ddTHH:mm:ss.SSSz', '2024-01-01T00:00:00.100000Z')), 'SSS is exactly three digits');
  t.true(compileImportTimestampPattern('yyyy-MM-ddTHH:mm:ss.SSSUUUz').isoCompatible);
  t.false(compileImportTimestampPattern('dd/MM/y').isoCompatible);
  t.throws(() => compileImportTimestampPattern(' '), { message: /invalid timestamp pattern/ });
});
