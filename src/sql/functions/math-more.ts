// Math beyond abs/round/floor/ceil: round_down, round_up, round_half_even (DOUBLE, optional scale), sqrt,
// power, ln, log (base 10, as PostgreSQL), exp (DOUBLE), sign (input type), greatest/least (widest argument
// type, NULL only when every argument is NULL). Domain errors (sqrt(-1), ln(0)) give NULL, not an error.
import type { ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';
import { widenNumeric } from '../../types/casts.js';

const sameNumeric = (types: readonly ValueType[]): ValueType => (types[0] === 'NULL' || types[0] === undefined ? 'DOUBLE' : types[0]);

/** QuestDB's greatest/least come in LONG and DOUBLE flavours: integers widen to LONG, FLOAT to DOUBLE. */
function widest(types: readonly ValueType[]): ValueType {
  const known = types.filter((type) => type !== 'NULL');
  if (known.length === 0) return 'DOUBLE';
  const wide = known.reduce<ValueType>((a, b) => widenNumeric(a, b), known[0] as ValueType);
  return wide === 'FLOAT' || wide === 'DOUBLE' ? 'DOUBLE' : 'LONG';
}

function rounding(name: string, helper: string): ScalarFunctionDef[] {
  return [
    { name, args: ['DOUBLE', 'INT'], returns: 'DOUBLE', emit: ([a, scale]) => `rt.${helper}(${a}, ${scale})` },
    { name, args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `rt.${helper}(${a}, 0)` },
  ];
}

/** Folds a variadic call into nested two-argument helper calls. */
function fold(helper: string, args: readonly string[]): string {
  let source = args[0];
  for (let k = 1; k < args.length; k++) source = `rt.${helper}(${source}, ${args[k]})`;
  return source;
}

export const MATH_MORE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  ...rounding('round_down', 'roundDown'),
  ...rounding('round_up', 'roundUp'),
  ...rounding('round_half_even', 'roundHalfEven'),
  { name: 'sqrt', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `Math.sqrt(${a})` },
  { name: 'power', args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE', emit: ([a, b]) => `Math.pow(${a}, ${b})` },
  { name: 'ln', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `Math.log(${a})` },
  { name: 'log', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `rt.log10(${a})` },
  { name: 'exp', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `Math.exp(${a})` },
  { name: 'sign', args: ['NUMERIC'], returns: sameNumeric, emit: ([a]) => `rt.sign(${a})` },
  { name: 'greatest', args: ['NUMERIC'], variadic: true, returns: widest, unifyArgs: true, emit: (args) => fold('greatest2', args) },
  { name: 'least', args: ['NUMERIC'], variadic: true, returns: widest, unifyArgs: true, emit: (args) => fold('least2', args) },
];
