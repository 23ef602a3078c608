// The line protocol's number readers: 64-bit integers exact to the last bit with range errors, doubles read
// exactly as Number() reads the same text (the fast path must round as the slow one does: checked on seeded
// random decimals of every length and exponent), and timestamps in every unit, truncated and range-checked.
import test from 'ava';
import { parseDouble, parseInt64, parseTimestampMicros, type Int64Words, type TimestampUnit } from '../../../src/ilp/ilp-numbers.js';
import { IlpValueError } from '../../../src/ilp/ilp-errors.js';
import { seededRandom } from '../../helpers/seeded-random.js';

function words(): Int64Words {
  return { low: 0, high: 0, number: 0 };
}

/** The text's bytes with a byte of padding on either side, so the readers must respect [start, end). */
function padded(text: string): { bytes: Buffer; start: number; end: number } {
  const bytes = Buffer.from(`#${text}#`, 'latin1');
  return { bytes, start: 1, end: bytes.length - 1 };
}

function int64Of(text: string): bigint {
  const { bytes, start, end } = padded(text);
  const out = words();
  parseInt64(bytes, start, end, out);
  const value = (BigInt(out.high) << 32n) | BigInt(out.low >>> 0);
  const exact = Number(value);
  if (Math.abs(exact) <= Number.MAX_SAFE_INTEGER ? out.number !== exact : !Number.isNaN(out.number)) throw new Error(`number ${out.number} disagrees with ${value}`);
  return value;
}

function doubleOf(text: string): number {
  const { bytes, start, end } = padded(text);
  return parseDouble(bytes, start, end);
}

function timestampOf(text: string, unit: TimestampUnit): number {
  const { bytes, start, end } = padded(text);
  return parseTimestampMicros(bytes, start, end, unit, words());
}

test('parseInt64 reads every width exactly, both signs, up to the 64-bit limits', (t) => {
  const texts = ['0', '-0', '+7', '-1', '123456789012345', '1234567890123456', '9007199254740991', '9007199254740993', '-9007199254740993',
    '9223372036854775807', '-9223372036854775807', '-9223372036854775808', '00000000000000000000042', '-00000000000000000001'];
  for (const text of texts) t.is(int64Of(text), BigInt.asIntN(64, BigInt(text)), text);
});

test('parseInt64 refuses text that is not an integer and values outside the signed 64-bit range', (t) => {
  for (const text of ['', '-', '+', '1.5', '1e3', '12a', 'a12', '--1', '+-1', ' 1', '0x10', '1_000', '１']) {
    t.throws(() => int64Of(text), { instanceOf: IlpValueError, message: /invalid integer/ }, JSON.stringify(text));
  }
  for (const text of ['9223372036854775808', '-9223372036854775809', '99999999999999999999999']) {
    t.throws(() => int64Of(text), { instanceOf: IlpValueError, message: /integer out of the 64-bit range/ }, text);
  }
});

test('parseDouble reads the text forms QuestDB clients write', (t) => {
  const cases: [string, number][] = [
    ['1.5', 1.5], ['-2', -2], ['+3', 3], ['.5', 0.5], ['1.', 1], ['-0.0', -0], ['0', 0], ['1e+21', 1e21], ['1E-3', 0.001], ['2.5e3', 2500],
    ['NaN', NaN], ['Infinity', Infinity], ['+Infinity', Infinity], ['-Infinity', -Infinity], ['inf', Infinity], ['-inf', -Infinity],
    ['1e400', Infinity], ['-1e400', -Infinity], ['1e-400', 0], ['5e-324', 5e-324], ['1.7976931348623157e308', Number.MAX_VALUE], ['0.1', 0.1],
    ['9007199254740993', 9007199254740992], ['123456789012345678901234567890', 1.2345678901234568e29], ['1e0000001', 10],
  ];
  for (const [text, value] of cases) t.true(Object.is(doubleOf(text), value), `${text} → ${doubleOf(text)}`);
});

test('parseDouble refuses what is not a number', (t) => {
  for (const text of ['', '.', '-', 'e5', '1e', '1e+', '1.2.3', '1,5', '0x10', 'nan1', '-NaN', 'Inf', 'infinity', '1e5.5', '1 ', '１']) {
    t.throws(() => doubleOf(text), { instanceOf: IlpValueError, message: /invalid number/ }, JSON.stringify(text));
  }
});

/** A random decimal: 1-25 digits, maybe a point anywhere, maybe an exponent of up to 3 digits. */
function randomDecimal(random: () => number): string {
  const digits = 1 + Math.floor(random() * 25);
  let text = '';
  for (let k = 0; k < digits; k++) text += String(Math.floor(random() * 10));
  if (random() < 0.7) {
    const point = Math.floor(random() * (digits + 1));
    text = `${text.slice(0, point)}.${text.slice(point)}`;
    if (text === '.') text = '0.';
  }
  if (random() < 0.4) text += `${random() < 0.5 ? 'e' : 'E'}${['', '+', '-'][Math.floor(random() * 3)] as string}${Math.floor(random() * (random() < 0.5 ? 30 : 400))}`;
  return random() < 0.3 ? `-${text}` : text;
}

test('parseDouble rounds exactly as Number() on 20,000 seeded random decimals (fast path and slow path agree)', (t) => {
  const random = seededRandom(20_240_101);
  const mismatches: string[] = [];
  for (let k = 0; k < 20_000; k++) {
    const text = randomDecimal(random);
    if (!Object.is(doubleOf(text), Number(text)) && mismatches.length < 10) mismatches.push(`${text}: ${doubleOf(text)} vs ${Number(text)}`);
  }
  t.deepEqual(mismatches, []);
});

test('parseTimestampMicros converts each unit to microseconds', (t) => {
  const cases: [string, TimestampUnit, number][] = [
    ['1700000000123456789', 'ns', 1700000000123456], ['1700000000123456', 'us', 1700000000123456], ['1700000000123', 'ms', 1700000000123000],
    ['1700000000', 's', 1700000000000000], ['28333333', 'm', 1699999980000000], ['472222', 'h', 1699999200000000], ['0', 'ns', 0], ['999', 'ns', 0],
    ['1000', 'ns', 1], ['-1999', 'ns', -1], ['-999', 'ns', 0], ['+5000', 'ns', 5], ['-5', 's', -5000000], ['9007199254740991', 'us', 9007199254740991],
    ['9007199254740991999', 'ns', 9007199254740991],
  ];
  for (const [text, unit, micros] of cases) t.is(timestampOf(text, unit) + 0, micros, `${text} ${unit}`);
});

test('parseTimestampMicros refuses bad text, a doubled sign and values whose microseconds pass 2^53', (t) => {
  for (const [text, unit] of [['', 'ns'], ['-', 'ns'], ['12x456', 'ns'], ['1234x', 'ns'], ['--5000', 'ns'], ['-+5000', 'ns'], ['+-5000', 'ns'], ['1.5', 'us'], ['abc', 's']] as const) {
    t.throws(() => timestampOf(text, unit), { instanceOf: IlpValueError, message: /invalid (timestamp|integer)/ }, `${text} ${unit}`);
  }
  for (const [text, unit] of [['9223372036854775807', 'ns'], ['9007199254740992999', 'ns'], ['-9223372036854775807', 'ns'], ['9007199254740992', 'us'], ['9007199254741', 'ms'], ['2562048', 'h']] as const) {
    t.throws(() => timestampOf(text, unit), { instanceOf: IlpValueError, message: /out of range|out of the 64-bit range/ }, `${text} ${unit}`);
  }
  t.throws(() => timestampOf('99999999999999999999999', 'ns'), { instanceOf: IlpValueError, message: /out of the 64-bit range/ });
});
