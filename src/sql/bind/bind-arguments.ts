// Implicit casts of function arguments once an overload is chosen: each argument is brought into the value
// domain its declared type expects (text parsed as a timestamp, DATE ms scaled to TIMESTAMP µs, a bare NULL
// typed), or into the result type for functions that unify their arguments (coalesce, greatest).
// Constant text is parsed here, once, so generated code never re-parses a literal per row.
import type { BoundConstant, BoundExpr } from './bound.js';
import type { ArgType, ScalarFunctionDef } from '../functions/signature.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType, typeDisplayName } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import { isArrayType } from '../../types/double-array.js';
import { parseTimestamp } from '../../types/timestamp.js';
import { checkCast, emitCast } from '../functions/cast.js';
import { foldNanosConstant } from './bind-timestamp-ns.js';
import { sqlSemanticError } from '../../core/errors.js';
import { isTextHeldType } from '../../types/column-type.js';

/** The arguments of a resolved call, cast where the declared (or unified) type needs another value domain. */
export function coerceArguments(def: ScalarFunctionDef, args: readonly BoundExpr[], resultType: ValueType): BoundExpr[] {
  if (def.unifyArgs === true) return args.map((arg) => castArgumentTo(arg, resultType));
  return args.map((arg, k) => coerceArgument(arg, def.args[Math.min(k, def.args.length - 1)] ?? 'ANY'));
}

function coerceArgument(arg: BoundExpr, declared: ArgType): BoundExpr {
  if (declared === 'ANY' || declared === 'TEXT' || declared === 'GEOHASH' || declared === 'DECIMAL') return arg;
  if (declared === 'NUMERIC') return arg.type === 'NULL' ? castArgumentTo(arg, 'DOUBLE') : arg;
  if (declared === 'ARRAY') return arg.type === 'NULL' ? castArgumentTo(arg, 'DOUBLE[]') : arg;
  if (arg.type === declared) return arg;
  const needsCast = arg.type === 'NULL'
    || (arg.type === 'DATE' && declared === 'TIMESTAMP')
    || ((arg.type === 'TIMESTAMP' || arg.type === 'DATE') && declared === 'TIMESTAMP_NS')
    || (arg.type === 'TIMESTAMP_NS' && (declared === 'TIMESTAMP' || declared === 'DATE'))
    || (isTextType(arg.type) && !isTextType(declared));
  return needsCast ? castArgumentTo(arg, declared) : arg;
}

/** Casts one argument to `type`; numbers stay numbers and text stays text, since they share a value domain. */
export function castArgumentTo(arg: BoundExpr, type: ValueType): BoundExpr {
  if (arg.type === type) return arg;
  if (arg.type === 'NULL') return { kind: 'constant', type, value: nullValueOf(type), position: arg.position };
  if (isNumericType(arg.type) && isNumericType(type)) return arg;
  if (isTextType(arg.type) && (isTextType(type) || type === 'NULL')) return arg;
  const nanos = type === 'TIMESTAMP_NS' ? foldNanosConstant(arg) : undefined;
  if (nanos !== undefined) return nanos;
  if (arg.kind === 'constant' && typeof arg.value === 'string' && (type === 'TIMESTAMP' || type === 'DATE')) {
    return parsedTimestampConstant(arg, arg.value, type);
  }
  const from = arg.type;
  // Emitting once validates the cast at bind time, so an impossible cast fails with the argument's position.
  checkCast(from, type, arg.position);
  return { kind: 'call', type, name: 'cast', args: [arg], position: arg.position, foldable: true, emit: ([value], constant) => emitCast(value, from, type, arg.position, constant) };
}

function parsedTimestampConstant(arg: BoundConstant, text: string, type: 'TIMESTAMP' | 'DATE'): BoundConstant {
  const micros = parseTimestamp(text);
  if (micros === undefined) {
    throw sqlSemanticError(`inconvertible value: \`${text}\` [${typeDisplayName(arg.type)} -> ${type}]`, arg.position);
  }
  return { kind: 'constant', type, value: type === 'DATE' ? Math.floor(micros / 1000) : micros, position: arg.position };
}

function nullValueOf(type: ValueType): number | boolean | null {
  if (isArrayType(type)) return null;
  switch (type) {
    case 'BOOLEAN': return false;
    case 'BYTE': case 'SHORT': return 0;
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'CHAR': case 'UUID': case 'BINARY': case 'NULL': return null;
    default: return isTextHeldType(type) ? null : NaN;
  }
}
