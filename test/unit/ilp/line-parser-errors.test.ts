// IlpParser on bad bodies: each refusal's message and 1-based line number (empty and comment lines count),
// designated timestamps it cannot store, unsupported field types (arrays, LONG256, DECIMAL), invalid UTF-8 in
// names and values, bad table and column names, type conflicts within one request and with existing columns,
// auto-create switched off, and lines longer than the limit (413) whether they arrive whole or in pieces.
import test from 'ava';
import { binaryDouble, bytesOf, existingTables, parseChunks, parseError, parsedTable, tableMeta } from '../../helpers/ilp-parse.js';

/** `line N: message` of the error a body raises, for compact expectations. */
function refusal(body: string | Uint8Array, overrides: Parameters<typeof parseError>[1] = {}): string {
  const error = parseError(body, overrides);
  return `${error.httpStatus} line ${error.line}: ${error.message}`;
}

test('syntax errors name the problem and the 1-based line, counting empty, comment and CRLF lines', (t) => {
  const prefix = 't a=1i\n\n# comment\r\nt a=2i\r\n';
  const cases: [string, string][] = [
    [' a=1i\n', 'table name is missing'],
    ['t\n', 'table: t; the line has no fields'],
    ['t,tag a=1i\n', 'table: t; tag without a value'],
    ['t,tag= a=1i\n', 'table: t; tag value is empty'],
    ['t b=1i,a\n', 'table: t; field without a value'],
    ['t a\n', 'invalid timestamp: "a"'],
    ['t a=,b=1i\n', 'table: t; field value is missing'],
    ['t a="x"y\n', 'table: t; unexpected character after a field value'],
    ['t a=1i \n', 'table: t; timestamp is missing after the space'],
    ['t a=1i 1000 extra\n', 'table: t; unexpected text after the timestamp'],
    ['t a=1i\rt a=2i\n', 'carriage return without a line feed'],
    ['t a=tru\n', 'table: t, column: a; invalid boolean value'],
    ['t a=yes\n', 'invalid number: "yes"'],
    ['t a=12x\n', 'invalid number: "12x"'],
    ['t a=1.5i\n', 'invalid integer: "1.5"'],
    ['t a=1i 12ab\n', 'invalid timestamp: "12ab"'],
    ['t a=1i 1.5e9\n', 'invalid timestamp: "1.5e9"'],
    ['t a=1i 1e3t\n', 'invalid integer: "1e3"'],
  ];
  for (const [line, message] of cases) t.is(refusal(prefix + line), `400 line 5: ${message}`, JSON.stringify(line));
});

test('an unterminated string at the end of the body is refused on its line', (t) => {
  t.is(refusal('t a=1i\nt s="never closed\n'), '400 line 2: unexpected end of the line (an unterminated string?)');
  t.is(refusal('t a=1i\nt s="ends in a backslash\\"'), '400 line 2: unexpected end of the line (an unterminated string?)');
});

test('a raw newline inside a string does not count as a line: lines are counted as the parser reads them', (t) => {
  t.is(refusal('t s="two\nrows"\nt s="escaped\\\nnewline"\nt s=1i\n'), '400 line 3: table: t, column: s; cast error from protocol type: LONG to column type: VARCHAR');
});

test('integers outside the 64-bit range are refused; the INT64 minimum is accepted as null', (t) => {
  t.is(refusal('t a=9223372036854775808i\n'), '400 line 1: integer out of the 64-bit range: 9223372036854775808');
  t.is(refusal('t a=-9223372036854775809i\n'), '400 line 1: integer out of the 64-bit range: -9223372036854775809');
  t.is(parsedTable('t a=-9223372036854775808i\n').rowCount, 1);
});

test('designated timestamps before 1970 are refused in every unit', (t) => {
  for (const text of ['-1000t', '-1000n', '-1000']) {
    t.is(refusal(`t a=1i ${text}\n`), '400 line 1: table: t; designated timestamp before 1970-01-01 is not supported', text);
  }
  t.is(refusal('t a=1i -1\n', { precision: 's' }), '400 line 1: table: t; designated timestamp before 1970-01-01 is not supported');
});

test('timestamps whose microseconds pass 2^53 are refused, not replaced by the server clock or zero', (t) => {
  t.is(refusal('t a=1i 9223372036854775807\n'), '400 line 1: timestamp out of range: 9223372036854775807');
  t.is(refusal('t a=1i 9223372036854775807n\n'), '400 line 1: timestamp out of range: 9223372036854775807');
  t.is(refusal('t b=9223372036854775807n\n'), '400 line 1: timestamp out of range: 9223372036854775807');
  t.is(refusal('t a=1i 9223372036854775807t\n'), '400 line 1: timestamp out of range: 9223372036854775807');
  t.is(refusal('t a=1i 9999999999999\n', { precision: 'h' }), '400 line 1: timestamp out of range: 9999999999999');
});

test('a doubled sign in a nanosecond timestamp is refused (it read --5000n as 5 µs)', (t) => {
  t.is(refusal('t a=1i --5000n\n'), '400 line 1: invalid timestamp: "--5000"');
  t.is(refusal('t b=-+5000n\n'), '400 line 1: invalid timestamp: "-+5000"');
});

test('arrays of other element types or dimension counts are refused as unsupported; a LONG256 must be 1 to 64 hex digits; DECIMAL text and binary values must be well formed', (t) => {
  t.is(refusal(bytesOf('t a==', Buffer.from([14, 11, 1, 1, 0, 0, 0, 7, 0, 0, 0]), '\n')), '400 line 1: table: t; unsupported array element type 11');
  t.is(refusal(bytesOf('t a==', Buffer.from([14, 10, 0]), '\n')), '400 line 1: table: t; invalid array dimension count 0, expected 1..32');
  t.is(refusal(bytesOf('t a==', Buffer.from([14, 10, 33]), '\n')), '400 line 1: table: t; invalid array dimension count 33, expected 1..32');
  t.is(refusal('t a=0xzzi\n'), '400 line 1: table: t, column: a; invalid long256 value');
  t.is(refusal(`t a=0x1${'0'.repeat(64)}i\n`), '400 line 1: table: t, column: a; invalid long256 value');
  t.is(refusal('t a=1.2.3d\n'), '400 line 1: table: t; invalid decimal value: 1.2.3');
  t.is(refusal('t a=1.5md\n'), '400 line 1: table: t; invalid decimal value: 1.5m');
  t.is(refusal(bytesOf('t a==', Buffer.from([23, 77, 1, 5]), '\n')), '400 line 1: table: t; decimal scale 77 is out of range [0..76]');
  t.is(refusal(bytesOf('t a==', Buffer.from([23, 1, 33]), '\n')), '400 line 1: table: t; decimal value of 33 bytes is longer than 32');
  t.is(refusal(bytesOf('t a==', Buffer.from([23, 1, 1, 5]), 'x\n')), '400 line 1: table: t; unexpected character after a field value');
  t.is(refusal('t a==\n'), '400 line 1: table: t; unknown binary field type 10');
  t.is(refusal(bytesOf('t a==', binaryDouble(1), 'x\n')), '400 line 1: table: t; unexpected character after a field value');
});

test('invalid UTF-8 is refused in table names, tag keys and values, field keys and string values', (t) => {
  const bad = Buffer.from([0xc3, 0x28]);
  const bodies = [
    bytesOf('t', bad, ' a=1i\n'), bytesOf('t,k', bad, '=v a=1i\n'), bytesOf('t,k=v', bad, ' a=1i\n'), bytesOf('t a', bad, '=1i\n'),
    bytesOf('t s="', bad, '"\n'), bytesOf('t s="\\"', Buffer.from([0xff]), '"\n'), bytesOf('t,k=\\ ', Buffer.from([0xed, 0xa0, 0x80]), ' a=1i\n'),
  ];
  for (const body of bodies) t.regex(refusal(bytesOf('ok a=1i\n', body)), /^400 line 2: invalid UTF-8 in a (name or )?value$/, body.toString('latin1'));
});

test('a field key of invalid UTF-8 is refused even when it decodes like an existing column named with U+FFFD', (t) => {
  const body = bytesOf('t a\u{fffd}=1i\n', 't a', Buffer.from([0xff]), '=2i\n');
  t.is(refusal(body), '400 line 2: invalid UTF-8 in a name or value');
  t.is(refusal(bytesOf('t,k\u{fffd}=x a=1i\n', 't,k', Buffer.from([0xfe]), '=y a=2i\n')), '400 line 2: invalid UTF-8 in a name or value');
});

test('table names that would leave db/ or hide a directory are refused', (t) => {
  for (const name of ['../x', '.hidden', 'a/b', 'a\\\\b', '..', 'x:y', 'x*', 'trailing\\ ']) {
    t.regex(refusal(`${name} a=1i\n`), /^400 line 1: table: .*; invalid table name$/, name);
  }
});

test('column names with characters QuestDB refuses are refused, as tags and as fields', (t) => {
  for (const name of ['a.b', 'a/b', 'a-b', 'a+b', 'a\\,b', "a'b", 'a:b', 'a(b', 'x'.repeat(128)]) {
    t.regex(refusal(`t ${name}=1i\n`), /^400 line 1: table: t; invalid column name: /, name);
    t.regex(refusal(`t,${name}=x a=1i\n`), /^400 line 1: table: t; invalid column name: /, name);
  }
  t.is(refusal('t,=x a=1i\n'), '400 line 1: table: t; invalid column name: ');
  t.is(refusal('t =1i\n'), '400 line 1: table: t; invalid column name: ');
});

test('a field named like the designated timestamp is refused', (t) => {
  t.is(refusal('t a=1i\nt TimeStamp=5t\n'), '400 line 2: table: t, column: TimeStamp; the designated timestamp is set by the line\'s timestamp, not by a field');
});

test('type conflicts inside one request: the first value decides the type, a later line of another type is refused on its line', (t) => {
  t.is(refusal('t a=1i\n\n# c\nt a=1.5\n'), '400 line 4: table: t, column: a; cast error from protocol type: FLOAT to column type: LONG');
  t.is(refusal('t a=1.5\nt a="s"\n'), '400 line 2: table: t, column: a; cast error from protocol type: STRING to column type: DOUBLE');
  t.is(refusal('t,a=x b=1i\nt a=true\n'), '400 line 2: table: t, column: a; cast error from protocol type: BOOLEAN to column type: SYMBOL');
  t.is(refusal('t a=1t\nt a=1.5\n'), '400 line 2: table: t, column: a; cast error from protocol type: FLOAT to column type: TIMESTAMP');
  t.is(refusal(bytesOf('t a=1i\nt a==', binaryDouble(1), '\n')), '400 line 2: table: t, column: a; cast error from protocol type: FLOAT to column type: LONG');
});

const EXISTING = tableMeta('ex', [['i', 'INT'], ['s', 'SHORT'], ['b', 'BYTE'], ['l', 'LONG'], ['c', 'CHAR'], ['u', 'UUID'], ['f', 'FLOAT'], ['ts', 'TIMESTAMP']], 'ts');

test('values that an existing column cannot hold without loss are refused', (t) => {
  const options = { lookupTable: existingTables(EXISTING) };
  const cases: [string, string][] = [
    ['i=2147483648i', 'column: i; cast error from protocol type: LONG to column type: INT'],
    ['i=-2147483648i', 'column: i; cast error from protocol type: LONG to column type: INT'],
    ['s=32768i', 'column: s; cast error from protocol type: LONG to column type: SHORT'],
    ['b=-129i', 'column: b; cast error from protocol type: LONG to column type: BYTE'],
    ['l=1.5', 'column: l; cast error from protocol type: FLOAT to column type: LONG'],
    ['l="1"', 'column: l; cast error from protocol type: STRING to column type: LONG'],
    ['c="xy"', 'column: c; cast error from protocol type: STRING to column type: CHAR'],
    ['u="not-a-uuid"', 'column: u; cast error from protocol type: STRING to column type: UUID'],
    ['f=true', 'column: f; cast error from protocol type: BOOLEAN to column type: FLOAT'],
  ];
  for (const [field, message] of cases) t.is(refusal(`ex l=1i\nex ${field}\n`, options), `400 line 2: table: ex, ${message}`, field);
});

test('with auto-create off, a missing table or column is refused by name', (t) => {
  t.is(refusal('ex l=1i\nnope a=1i\n', { autoCreateTables: false, lookupTable: existingTables(EXISTING) }), '400 line 2: table: nope; table does not exist, creating new tables is disabled');
  t.is(refusal('ex l=1i\nex extra=1i\n', { autoCreateColumns: false, lookupTable: existingTables(EXISTING) }), '400 line 2: table: ex, column: extra; column does not exist, creating new columns is disabled');
  t.is(refusal('ex,tag=x l=1i\n', { autoCreateColumns: false, lookupTable: existingTables(EXISTING) }), '400 line 1: table: ex, column: tag; column does not exist, creating new columns is disabled');
  t.is(parsedTable('fresh a=1i\n', { autoCreateColumns: false }).rowCount, 1, 'a table the request creates gets its columns');
});

test('one request may write at most tablesMax tables', (t) => {
  t.is(refusal('a x=1i\nb x=1i\nc x=1i\n', { tablesMax: 2 }), '400 line 3: one request may write at most 2 tables');
});

test('a line longer than the limit is a 413, whether it arrives whole, cut anywhere, or without its newline', (t) => {
  const long = `t s="${'x'.repeat(100)}"\n`;
  const body = Buffer.from(`t a=1i\n${long}t a=2i\n`);
  const options = { lineBytesMax: 64 };
  t.is(refusal(body, options), '413 line 2: line 2 is longer than the line size limit [limit=64]');
  for (let cut = 1; cut < body.length; cut++) {
    const outcome = parseChunks([body.subarray(0, cut), body.subarray(cut)], options);
    t.true('error' in outcome && outcome.error.httpStatus === 413 && outcome.error.line === 2, `cut at ${cut}`);
  }
  t.is(refusal(`t a=1i\nt s="${'x'.repeat(100)}`, options), '413 line 2: line 2 is longer than the line size limit [limit=64]');
  t.is(refusal(`t a=1i\nt s="${'x'.repeat(100)}"`, options), '413 line 2: line 2 is longer than the line size limit [limit=64]');
});

test('a line of exactly the limit, newline included, is accepted; one byte more is not', (t) => {
  const line = (length: number): string => `t s="${'x'.repeat(length - 7)}"\n`;
  t.is(line(64).length, 64);
  t.is(parsedTable(line(64).repeat(3), { lineBytesMax: 64 }).rowCount, 3);
  t.is(refusal(line(64) + line(65), { lineBytesMax: 64 }), '413 line 2: line 2 is longer than the line size limit [limit=64]');
});

test('values the plain readers leave to the general path are refused there, on their line', (t) => {
  t.is(refusal('t a=1i,x=1.5 1000\nt a=12xi,x=1.5 2000\n'), '400 line 2: invalid integer: "12x"');
  t.is(refusal('t a=1i,x=1.5 1000\nt a=1i,x=1.5.5 2000\n'), '400 line 2: invalid number: "1.5.5"');
  t.is(refusal('t a=1i,x=1.5 1000\nt a=1.5,x=1.5 2000\n'), '400 line 2: table: t, column: a; cast error from protocol type: FLOAT to column type: LONG');
  t.is(refusal('t a=1i 1000\nt a=1i 9007199254740993000\n'), '400 line 2: timestamp out of range: 9007199254740993000');
  t.is(refusal('t a=1i 1000\nt a=1i 1000x\n'), '400 line 2: invalid timestamp: "1000x"');
});
