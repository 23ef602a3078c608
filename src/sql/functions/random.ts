// Test-data generators: rnd_boolean/byte/short/int/long/float/double/char/date/timestamp/uuid4/ipv4,
// rnd_symbol/rnd_str/rnd_varchar (random letters, a pool of `count` values built at bind time, or a pick from
// listed constants), and timestamp_sequence(start, step) = start + (row - 1) * step µs, counted per call site
// and per run. Bounds and pools are constants checked at bind time; every generator is volatile.
import type { Prepare, ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { constantText, requireConstantNumber } from './constant-args.js';
import { randomLetters } from '../../core/random.js';
import { sqlSemanticError } from '../../core/errors.js';

/** Values one rnd_symbol / rnd_str pool may hold. */
const randomPoolEntriesMax = 1_000_000;
/** Characters one generated string may have. */
const randomTextLengthMax = 65_536;

function generator(name: string, args: ScalarFunctionDef['args'], returns: ValueType, emit: ScalarFunctionDef['emit'], prepare?: Prepare): ScalarFunctionDef {
  return prepare === undefined ? { name, args, returns, emit, volatile: true } : { name, args, returns, emit, volatile: true, prepare };
}

/** lo, hi (inclusive) and a null rate, all constants, lo <= hi, rate >= 0. */
function checkRange(first: number): Prepare {
  return (args, position) => {
    const lo = requireConstantNumber(args[first], position, 'range bound');
    const hi = requireConstantNumber(args[first + 1], position, 'range bound');
    if (!(lo <= hi)) throw sqlSemanticError('invalid range', args[first]?.position ?? position);
    const rateArg = args[first + 2];
    if (rateArg !== undefined && !(requireConstantNumber(rateArg, position, 'null rate') >= 0)) {
      throw sqlSemanticError('null rate must be positive', rateArg.position);
    }
    return undefined;
  };
}

/** Length bounds of generated strings: constants with 0 <= min <= max. */
function lengthBounds(args: readonly BoundExpr[], first: number, position: number): [number, number] {
  const min = requireConstantNumber(args[first], position, 'length');
  const max = requireConstantNumber(args[first + 1], position, 'length');
  if (!(min >= 0 && min <= max && max <= randomTextLengthMax)) throw sqlSemanticError('invalid range', args[first]?.position ?? position);
  return [min, max];
}

/** rnd_symbol(count, minLength, maxLength, nullRate): `count` distinct-ish random strings, drawn per row. */
function preparePool(args: readonly BoundExpr[], position: number): string[] {
  const count = requireConstantNumber(args[0], position, 'count');
  if (!(count >= 1 && count <= randomPoolEntriesMax)) throw sqlSemanticError('invalid symbol count', args[0]?.position ?? position);
  const [min, max] = lengthBounds(args, 1, position);
  return Array.from({ length: Math.trunc(count) }, () => randomLetters(min, max));
}

/** rnd_symbol('a', 'b', ...): the listed constants. */
function prepareList(args: readonly BoundExpr[], position: number): (string | null)[] {
  return args.map((arg) => {
    const text = constantText(arg);
    if (text === undefined) throw sqlSemanticError('constant expected', arg.position ?? position);
    return text;
  });
}

const prepareLetters: Prepare = (args, position) => lengthBounds(args, 0, position);
const pick = (nullRate: string): ScalarFunctionDef['emit'] => (_args, constant, _types, pool) => `rt.rndPick(${constant(pool)}, ${nullRate})`;

function textGenerators(name: string, type: ValueType): ScalarFunctionDef[] {
  return [
    generator(name, ['LONG', 'LONG', 'LONG'], type, ([min, max, rate]) => `rt.rndLetters(${min}, ${max}, ${rate})`, prepareLetters),
    generator(name, ['LONG', 'LONG', 'LONG', 'LONG'], type, (args, constant, types, pool) => pick(args[3])(args, constant, types, pool), preparePool),
    { ...generator(name, ['TEXT'], type, pick('0'), prepareList), variadic: true },
  ];
}

/** The call site's row counter; runtime-random's timestampSequence resets it for each new run. */
function prepareSequence(): { run: unknown; row: number } {
  return { run: undefined, row: 0 };
}

export const RANDOM_FUNCTIONS: readonly ScalarFunctionDef[] = [
  generator('rnd_boolean', [], 'BOOLEAN', () => 'rt.rndBoolean()'),
  generator('rnd_byte', [], 'BYTE', () => 'rt.rndRange(-128, 127, 0)'),
  generator('rnd_byte', ['LONG', 'LONG'], 'BYTE', ([lo, hi]) => `rt.rndRange(${lo}, ${hi}, 0)`, checkRange(0)),
  generator('rnd_short', [], 'SHORT', () => 'rt.rndRange(-32768, 32767, 0)'),
  generator('rnd_short', ['LONG', 'LONG'], 'SHORT', ([lo, hi]) => `rt.rndRange(${lo}, ${hi}, 0)`, checkRange(0)),
  generator('rnd_int', [], 'INT', () => 'rt.rndInt32()'),
  generator('rnd_int', ['LONG', 'LONG', 'LONG'], 'INT', ([lo, hi, rate]) => `rt.rndRange(${lo}, ${hi}, ${rate})`, checkRange(0)),
  generator('rnd_long', [], 'LONG', () => 'rt.rndLong()'),
  generator('rnd_long', ['LONG', 'LONG', 'LONG'], 'LONG', ([lo, hi, rate]) => `rt.rndRange(${lo}, ${hi}, ${rate})`, checkRange(0)),
  generator('rnd_double', [], 'DOUBLE', () => 'rt.rndDouble(0)'),
  generator('rnd_double', ['LONG'], 'DOUBLE', ([rate]) => `rt.rndDouble(${rate})`),
  generator('rnd_float', [], 'FLOAT', () => 'rt.rndFloat(0)'),
  generator('rnd_float', ['LONG'], 'FLOAT', ([rate]) => `rt.rndFloat(${rate})`),
  generator('rnd_char', [], 'CHAR', () => 'rt.rndChar()'),
  generator('rnd_timestamp', ['TIMESTAMP', 'TIMESTAMP', 'LONG'], 'TIMESTAMP', ([lo, hi, rate]) => `rt.rndRange(${lo}, ${hi}, ${rate})`, checkRange(0)),
  generator('rnd_date', ['DATE', 'DATE', 'LONG'], 'DATE', ([lo, hi, rate]) => `rt.rndRange(${lo}, ${hi}, ${rate})`, checkRange(0)),
  generator('rnd_date', [], 'DATE', () => 'rt.rndRange(0, 4102444800000, 0)'),
  generator('rnd_uuid4', [], 'UUID', () => 'rt.rndUuid4()'),
  generator('rnd_ipv4', [], 'IPV4', () => 'rt.rndIpv4()'),
  ...textGenerators('rnd_symbol', 'SYMBOL').slice(1),
  ...textGenerators('rnd_str', 'STRING'),
  ...textGenerators('rnd_varchar', 'VARCHAR'),
  generator('timestamp_sequence', ['TIMESTAMP', 'LONG'], 'TIMESTAMP',
    ([start, step], constant, _types, sequence) => `rt.timestampSequence(rt, ${constant(sequence)}, ${start}, ${step})`, prepareSequence),
];
