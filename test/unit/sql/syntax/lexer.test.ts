// Lexer: token kinds, UTF-16 offsets, quoting, comments, numeric constants and durations.
import test from 'ava';
import { readDuration, readNumericConstant, tokenize } from '../../../../src/sql/syntax/lexer.js';
import { isEmptyStatement } from '../../../../src/sql/syntax/parser.js';
import { SqlError } from '../../../../src/core/errors.js';
import { queryTextLengthMax } from '../../../../src/core/limits.js';
import type { Token } from '../../../../src/sql/syntax/token.js';

/** `kind:value@start` per token, eof left out. */
function lex(text: string): string {
  return tokenize(text).filter((t) => t.kind !== 'eof').map((t) => `${t.kind[0]}:${t.value}@${t.start}`).join(' ');
}

const TOKEN_CASES: [string, string][] = [
  ['select a from t', 'i:select@0 i:a@7 i:from@9 i:t@14'],
  ['a::int', 'i:a@0 o:::@1 i:int@3'],
  ['a != b <> c <= d >= e || f !~ g', 'i:a@0 o:!=@2 i:b@5 o:<>@7 i:c@10 o:<=@12 i:d@15 o:>=@17 i:e@20 o:||@22 i:f@25 o:!~@27 i:g@30'],
  ["'it''s'", "s:it's@0"],
  ['"my ""col"""', 'q:my "col"@0'],
  ['t.col', 'i:t@0 o:.@1 i:col@2'],
  ['x[1]', 'i:x@0 o:[@1 n:1@2 o:]@3'],
  ['1 -- comment\n2', 'n:1@0 n:2@13'],
  ['1 /* a /* nested */ b */ 2', 'n:1@0 n:2@25'],
  ['/*+ hint */ select', 'i:select@12'],
  ["'é' x", "s:é@0 i:x@4"],
  ["'😀' x", "s:😀@0 i:x@5"],
  ['naïve_col + 1', 'i:naïve_col@0 o:+@10 n:1@12'],
  ['1.5e3 .5 1_000 0x1F 10L 3f 15m', 'n:1.5e3@0 n:.5@6 n:1_000@9 n:0x1F@15 n:10L@20 n:3f@24 n:15m@27'],
  ['a%b^c&d|e~f', 'i:a@0 o:%@1 i:b@2 o:^@3 i:c@4 o:&@5 i:d@6 o:|@7 i:e@8 o:~@9 i:f@10'],
  // Geohash constants: base32 with an optional /bits suffix, and ## binary digits.
  ['#u33d/20 = ##0101', 'n:#u33d/20@0 o:=@9 n:##0101@11'],
];

for (const [text, expected] of TOKEN_CASES) {
  test(`tokens of ${JSON.stringify(text)}`, (t) => {
    t.is(lex(text), expected);
  });
}

test('every token list ends with eof at the text length', (t) => {
  const tokens = tokenize('select 1  ');
  const eof = tokens[tokens.length - 1];
  t.is(eof.kind, 'eof');
  t.is(eof.start, 10);
});

test('token text keeps the source spelling and quotes', (t) => {
  const [word, quoted, string] = tokenize('SeLeCt "Q" \'s\'');
  t.deepEqual([word.text, quoted.text, string.text], ['SeLeCt', '"Q"', "'s'"]);
});

const ERROR_CASES: [string, string, number][] = [
  ["select 'abc", 'unclosed quoted string?', 7],
  ['select "abc', 'unclosed quoted identifier?', 7],
  ['select @x', 'unexpected character [@]', 7],
  ["select 'é' + 'x", 'unclosed quoted string?', 13],
];

for (const [text, message, position] of ERROR_CASES) {
  test(`lexer error: ${text}`, (t) => {
    const error = t.throws(() => tokenize(text), { instanceOf: SqlError });
    t.is(error?.message, message);
    t.is(error?.position, position);
  });
}

test('text longer than queryTextLengthMax is rejected with a limit error', (t) => {
  const error = t.throws(() => tokenize(' '.repeat(queryTextLengthMax + 1)), { instanceOf: SqlError });
  t.is(error?.code, 'SVC_SQL_LIMIT');
});

function numberToken(text: string): Token {
  return { kind: 'number', text, value: text, start: 0, end: text.length };
}

const CONSTANT_CASES: [string, string][] = [
  ['1', 'INT 1'],
  ['2147483647', 'INT 2147483647'],
  ['2147483648', 'LONG 2147483648'],
  ['10L', 'LONG 10'],
  ['10l', 'LONG 10'],
  ['1_000_000', 'INT 1000000'],
  ['9223372036854775807', 'LONG 9223372036854775807'],
  ['9223372036854775808', 'DOUBLE 9223372036854776000'],
  ['1.5', 'DOUBLE 1.5'],
  ['1e3', 'DOUBLE 1000'],
  ['2.5E-2', 'DOUBLE 0.025'],
  ['.5', 'DOUBLE 0.5'],
  ['3f', 'FLOAT 3'],
  ['4d', 'DOUBLE 4'],
  ['0x1F', 'INT 31'],
  ['0xFFFFFFFF', 'LONG 4294967295'],
  ['0xFFFFFFFFFFFFFFFF', 'LONG -1'],
  ['15m', 'undefined'],
  ['1x', 'undefined'],
];

for (const [text, expected] of CONSTANT_CASES) {
  test(`numeric constant ${text}`, (t) => {
    const constant = readNumericConstant(numberToken(text));
    t.is(constant === undefined ? 'undefined' : `${constant.literalType} ${String(constant.value)}`, expected);
  });
}

test('LONG constants are bigint, INT constants are number', (t) => {
  t.is(typeof readNumericConstant(numberToken('10L'))?.value, 'bigint');
  t.is(typeof readNumericConstant(numberToken('10'))?.value, 'number');
});

test('durations keep the case of their unit', (t) => {
  t.deepEqual(readDuration(numberToken('15m')), { count: 15, unit: 'm', unitPosition: 2 });
  t.deepEqual(readDuration(numberToken('1M')), { count: 1, unit: 'M', unitPosition: 1 });
  t.is(readDuration(numberToken('1.5h')), undefined);
});

const EMPTY_CASES: [string, boolean][] = [
  ['', true], ['  \n\t', true], ['-- only a comment', true], ['/* block */  -- and line\n', true],
  ['/* unterminated', true], [';', false], ['select 1', false],
];

for (const [text, empty] of EMPTY_CASES) {
  test(`isEmptyStatement(${JSON.stringify(text)}) is ${empty}`, (t) => {
    t.is(isEmptyStatement(text), empty);
  });
}
