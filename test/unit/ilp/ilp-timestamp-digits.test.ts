// The word-at-a-time reader of 19-digit nanosecond timestamps against the byte-by-byte reading it replaces on
// the common line: the same microseconds for every digit string, -1 for any non-digit byte (the neighbours of
// '0' and '9' included, in every place), for values past 2^53, and for lines without exactly 19 digits.
import test from 'ava';
import { fourDigitsValue, nanosDigitsLineEnd, nanosDigitsMicros } from '../../../src/ilp/ilp-timestamp-digits.js';
import { digitsValue } from '../../../src/ilp/ilp-fast-values.js';
import { seededRandom } from '../../helpers/seeded-random.js';

function viewOf(bytes: Buffer): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
}

function micros(text: string, at = 0): number {
  const bytes = Buffer.from(text, 'latin1');
  return nanosDigitsMicros(viewOf(bytes), bytes, at);
}

test('four digits: every value, and -1 for the bytes around the digits in every place', (t) => {
  for (let value = 0; value < 10_000; value++) {
    const bytes = Buffer.from(String(value).padStart(4, '0'), 'latin1');
    t.is(fourDigitsValue(bytes.readInt32LE(0)), value);
  }
  const strangers = [0x2f, 0x3a, 0x3f, 0x40, 0x20, 0x00, 0xb0, 0xb5, 0xff, 0x6e, 0x0a];
  for (let place = 0; place < 4; place++) {
    for (const stranger of strangers) {
      const bytes = Buffer.from('1234', 'latin1');
      bytes[place] = stranger;
      t.is(fourDigitsValue(bytes.readInt32LE(0)), -1, `byte ${stranger} at ${place}`);
    }
  }
});

test('19 digits: the first 16 as microseconds, equal to the byte-by-byte reading on seeded random digits', (t) => {
  const random = seededRandom(19);
  for (let run = 0; run < 20_000; run++) {
    let text = '';
    for (let k = 0; k < 19; k++) text += String(Math.floor(random() * 10));
    // Half of them below 2^53 microseconds, the common case; leading zeros too.
    if (run % 2 === 0) text = '17' + text.slice(2);
    const bytes = Buffer.from(`x${text}\n`, 'latin1');
    const expected = digitsValue(bytes, 1, 17);
    t.is(nanosDigitsMicros(viewOf(bytes), bytes, 1), expected <= Number.MAX_SAFE_INTEGER ? expected : -1, text);
  }
});

test('19 digits: -1 for a non-digit anywhere and for microseconds past 2^53', (t) => {
  const digits = '1700000000123456789';
  for (let place = 0; place < 19; place++) {
    for (const stranger of ['/', ':', 'n', '-', '.']) t.is(micros(digits.slice(0, place) + stranger + digits.slice(place + 1)), -1);
  }
  t.is(micros('9007199254740991999'), Number.MAX_SAFE_INTEGER);
  t.is(micros('9007199254740992000'), -1);
  t.is(micros('9999999999999999999'), -1);
  t.is(micros('0000000000000000000'), 0);
});

test('the line end: 19 bytes then a line break, with an n suffix or nanosecond precision', (t) => {
  const end = (text: string, precisionNanos: boolean): number => nanosDigitsLineEnd(Buffer.from(text, 'latin1'), 0, precisionNanos);
  t.is(end('1700000000123456789\n', true), 19);
  t.is(end('1700000000123456789\r\n', true), 19);
  t.is(end('1700000000123456789n\n', false), 20);
  t.is(end('1700000000123456789\n', false), -1);
  t.is(end('1700000000123456789t\n', true), -1);
  t.is(end('170000000012345678\n', true), -1);
  t.is(end('17000000001234567890\n', true), -1);
  t.is(end('1700000000123456789', true), -1);
  t.is(end('1700000000123456789n', false), -1);
});
