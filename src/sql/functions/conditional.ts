// coalesce(a, b, ...) (first non-NULL; type = the widest argument type) and nullif(a, b) (NULL when a = b;
// type of a). Arguments are cast to the result type before emitting (unifyArgs), so one helper per value
// domain suffices. BOOLEAN, BYTE and SHORT cannot hold NULL, so their first argument always wins.
import type { ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType } from '../../types/column-type.js';
import { isTextType, widenNumeric } from '../../types/casts.js';
import { isTextHeldType } from '../../types/column-type.js';
import { decimalUnionType } from '../../types/decimal.js';

/** The type every argument converts to: numbers widen, text unifies (VARCHAR wins), else the first typed one. */
export function unifiedType(types: readonly ValueType[]): ValueType {
  const known = types.filter((type) => type !== 'NULL');
  const first = known[0];
  if (first === undefined) return 'STRING';
  if (known.every((type) => type === first)) return first;
  const decimal = decimalUnionType(known);
  if (decimal !== undefined) return decimal;
  if (known.every(isNumericType)) return known.reduce<ValueType>((a, b) => widenNumeric(a, b), known[0] as ValueType);
  if (known.every(isTextType)) return known.includes('VARCHAR') ? 'VARCHAR' : 'STRING';
  // A text argument next to a timestamp (or number) is a literal to parse into that type.
  return known.find((type) => !isTextType(type)) ?? first;
}

type Domain = 'number' | 'text' | 'never-null';

function domainOf(type: ValueType): Domain {
  if (type === 'BOOLEAN' || type === 'BYTE' || type === 'SHORT') return 'never-null';
  if (isTextType(type) || isTextHeldType(type) || type === 'BINARY' || type === 'NULL') return 'text';
  return 'number';
}

function emitCoalesce(args: readonly string[], types: readonly ValueType[]): string {
  const domain = domainOf(unifiedType(types));
  if (domain === 'never-null') return args[0];
  const helper = domain === 'number' ? 'coalesceNum' : 'coalesceText';
  let source = args[args.length - 1];
  for (let k = args.length - 2; k >= 0; k--) source = `rt.${helper}(${args[k]}, ${source})`;
  return source;
}

function emitNullif([a, b]: readonly string[], types: readonly ValueType[]): string {
  const domain = domainOf(types[0] ?? 'NULL');
  if (domain === 'never-null') return a;
  return `rt.${domain === 'number' ? 'nullifNum' : 'nullifText'}(${a}, ${b})`;
}

const nullifType = (types: readonly ValueType[]): ValueType => {
  const type = types[0] === 'NULL' ? (types[1] ?? 'STRING') : (types[0] ?? 'STRING');
  return type === 'SYMBOL' || type === 'CHAR' ? 'STRING' : type === 'NULL' ? 'STRING' : type;
};

export const CONDITIONAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'coalesce', args: ['ANY', 'ANY', 'ANY'], variadic: true, returns: unifiedType, unifyArgs: true, emit: (args, _c, types) => emitCoalesce(args, types) },
  { name: 'nullif', args: ['ANY', 'ANY'], returns: nullifType, unifyArgs: true, emit: (args, _c, types) => emitNullif(args, types) },
];
