// Per-type parsing and validation of one key's value; every rejection is a ConfigError naming key, value and origin.
import test, { type ExecutionContext } from 'ava';
import { ConfigError } from '../../../src/core/errors.js';
import type { KeyType, ServerKey } from '../../../src/config/keys.js';
import { parseKeyValue } from '../../../src/config/parse-key-value.js';

/** A synthetic key of the given type; the table's own keys are covered by server-config tests. */
function makeKey(type: KeyType, extra: Partial<ServerKey> = {}): ServerKey {
  return { name: `test.${type}`, type, default: 'x', description: 'Test key.', group: 'Process', ...extra };
}

function assertRejected(t: ExecutionContext, key: ServerKey, raw: string, fragment: string): void {
  const error = t.throws(() => parseKeyValue(key, raw, 'env SVC_TEST'), { instanceOf: ConfigError });
  t.is(error?.key, key.name);
  t.is(error?.code, 'SVC_CONFIG');
  t.true(error?.message.includes(key.name), `message names the key: ${error?.message}`);
  t.true(error?.message.includes('env SVC_TEST'), 'message names the origin');
  t.true(error?.message.includes(fragment), `message "${error?.message}" contains "${fragment}"`);
}

test('int: accepts signed integers within bounds', (t) => {
  const key = makeKey('int', { min: -1, max: 10 });
  t.is(parseKeyValue(key, '7', 'test'), 7);
  t.is(parseKeyValue(key, '-1', 'test'), -1);
  t.is(parseKeyValue(key, '+3', 'test'), 3);
  assertRejected(t, key, 'abc', "'abc'");
  assertRejected(t, key, '1.5', "'1.5'");
  assertRejected(t, key, '0x10', "'0x10'");
  assertRejected(t, key, '11', 'at most 10');
  assertRejected(t, key, '-2', 'at least -1');
  assertRejected(t, makeKey('int'), '9223372036854775807', 'expected an integer');
});

test('double: accepts decimals and exponents, rejects the rest', (t) => {
  const key = makeKey('double', { min: 0, max: 1 });
  t.is(parseKeyValue(key, '0.75', 'test'), 0.75);
  t.is(parseKeyValue(key, '.5', 'test'), 0.5);
  t.is(parseKeyValue(key, '1e-1', 'test'), 0.1);
  assertRejected(t, key, 'NaN', "'NaN'");
  assertRejected(t, key, 'Infinity', 'decimal number');
  assertRejected(t, key, '1.5', 'at most 1');
});

test('boolean: true/false in any case, nothing else', (t) => {
  const key = makeKey('boolean');
  t.is(parseKeyValue(key, 'true', 'test'), true);
  t.is(parseKeyValue(key, 'FALSE', 'test'), false);
  t.is(parseKeyValue(key, 'True', 'test'), true);
  for (const bad of ['yes', '1', '0', 'on', 'truee']) assertRejected(t, key, bad, 'expected true or false');
});

test('duration: text forms to milliseconds, bounds printed in units', (t) => {
  const key = makeKey('duration', { min: 1000 });
  t.is(parseKeyValue(key, '2m', 'test'), 120_000);
  t.is(parseKeyValue(key, '1500', 'test'), 1500);
  assertRejected(t, key, '10 minutes', 'expected a duration');
  assertRejected(t, key, '500ms', 'at least 1s');
});

test('size: text forms to bytes, bounds printed in units', (t) => {
  const key = makeKey('size', { max: 1024 * 1024 });
  t.is(parseKeyValue(key, '64k', 'test'), 65_536);
  assertRejected(t, key, '64q', 'expected a size');
  assertRejected(t, key, '2m', 'at most 1m');
});

test('enum: case-insensitive match returns the table spelling', (t) => {
  const key = makeKey('enum', { enumValues: ['nosync', 'async', 'sync'] });
  t.is(parseKeyValue(key, 'SYNC', 'test'), 'sync');
  assertRejected(t, key, 'fsync', 'expected one of nosync, async, sync');
});

test('address: host:port, [ipv6]:port, :port; port range checked', (t) => {
  const key = makeKey('address');
  t.deepEqual(parseKeyValue(key, '127.0.0.1:9000', 'test'), { host: '127.0.0.1', port: 9000 });
  t.deepEqual(parseKeyValue(key, 'localhost:0', 'test'), { host: 'localhost', port: 0 });
  t.deepEqual(parseKeyValue(key, '[::1]:9003', 'test'), { host: '::1', port: 9003 });
  t.deepEqual(parseKeyValue(key, ':9000', 'test'), { host: '0.0.0.0', port: 9000 });
  assertRejected(t, key, '0.0.0.0:65536', 'out of range');
  assertRejected(t, key, '0.0.0.0', 'expected host:port');
  assertRejected(t, key, '0.0.0.0:-1', 'expected host:port');
  assertRejected(t, key, 'host:http', 'expected host:port');
});

test('string: kept as written (trimmed)', (t) => {
  t.is(parseKeyValue(makeKey('string'), '  admin ', 'test'), 'admin');
  t.is(parseKeyValue(makeKey('string'), '', 'test'), '', 'an empty string is a value for a key with a default');
});

test('empty values: unset a key without default, an error for typed keys with one', (t) => {
  t.is(parseKeyValue(makeKey('int', { default: null }), '', 'test'), null);
  t.is(parseKeyValue(makeKey('string', { default: null }), '', 'test'), null);
  t.is(parseKeyValue(makeKey('int', { default: null }), null, 'test'), null);
  assertRejected(t, makeKey('int', { default: '1' }), '', 'empty value');
});

test('sensitive values are never echoed in errors', (t) => {
  const key = makeKey('int', { sensitive: true });
  const error = t.throws(() => parseKeyValue(key, 'hunter2', 'test'), { instanceOf: ConfigError });
  t.false(error?.message.includes('hunter2'));
  t.true(error?.message.includes('****'));
});
