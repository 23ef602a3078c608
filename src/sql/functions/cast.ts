// CAST and :: rules: the JS expression that converts a value of one type's domain into another's.
// Narrowing numeric casts truncate toward zero; text parses (failure is an inconvertible-value error).
import type { ValueType } from '../../types/column-type.js';
import { isNumericType, isTextHeldType, typeDisplayName } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import type { GeohashType } from '../../types/geohash.js';
import { geohashBits, isGeohashType } from '../../types/geohash.js';
import { arrayTypeDimCount, isArrayType } from '../../types/double-array.js';
import { sqlSemanticError } from '../../core/errors.js';
import { isDecimalType } from '../../types/decimal.js';
import { emitDecimalCast } from './decimal-cast.js';

type ConstantRef = (value: unknown) => string;

/** Throws, at `position`, when no cast from `from` to `to` exists (the binder checks before building the call). */
export function checkCast(from: ValueType, to: ValueType, position: number): void {
  emitCast('value', from, to, position, () => 'position');
}

/**
 * Returns the JS expression converting `arg` (of type `from`) to `to`, or throws when no cast exists. The
 * position a failed parse reports is a constant: it moves with the literals before it in the statement.
 */
export function emitCast(arg: string, from: ValueType, to: ValueType, position: number, constant: ConstantRef): string {
  if (from === to || from === 'NULL') return from === 'NULL' ? nullOf(to) : arg;
  const fromName = typeDisplayName(from);
  if (isArrayType(to) && isTextType(from)) return `rt.castToArray(${arg}, ${arrayTypeDimCount(to)}, '${fromName}', ${constant(position)})`;
  if (isArrayType(from) && (to === 'STRING' || to === 'VARCHAR')) return `rt.arrayToText(${arg})`;
  if (isArrayType(from) || isArrayType(to)) throw sqlSemanticError(`inconvertible types: ${fromName} -> ${typeDisplayName(to)}`, position);
  if (to === 'STRING' || to === 'VARCHAR' || to === 'SYMBOL') {
    if (from === 'INTERVAL') return `rt.intervalText(${arg})`;
    return isTextType(from) || isTextHeldType(from) ? arg : `rt.castToString(${arg}, '${from}')`;
  }
  if (isDecimalType(to) || isDecimalType(from)) return emitDecimalCast(arg, from, to, position, constant);
  if (isGeohashType(to)) return emitCastToGeohash(arg, from, to, position, constant);
  if (to === 'LONG256' && isTextType(from)) return `rt.castToLong256(${arg}, '${fromName}', ${constant(position)})`;
  if (isTextType(from)) return emitCastFromText(arg, fromName, to, position, constant);
  if (from === 'BOOLEAN') {
    if (isNumericType(to)) return `(${arg} ? 1 : 0)`;
  }
  if (from === 'TIMESTAMP_NS' || to === 'TIMESTAMP_NS') {
    const nanos = emitTimestampNsCast(arg, from, to);
    if (nanos !== undefined) return nanos;
  }
  if (isNumericType(from) || from === 'TIMESTAMP' || from === 'DATE') {
    const numeric = emitNumericCast(arg, from, to);
    if (numeric !== undefined) return numeric;
  }
  if (from === 'IPV4' && (to === 'INT' || to === 'LONG')) return arg;
  throw sqlSemanticError(`inconvertible types: ${fromName} -> ${typeDisplayName(to)}`, position);
}

/** Text reads base32 into the precision; a GEOHASH narrows to a lower precision and never widens. */
function emitCastToGeohash(arg: string, from: ValueType, to: GeohashType, position: number, constant: ConstantRef): string {
  const bits = geohashBits(to);
  if (isTextType(from)) {
    return `rt.castToGeohash(${arg}, ${bits}, '${typeDisplayName(from)}', '${typeDisplayName(to)}', ${constant(position)})`;
  }
  if (isGeohashType(from) && geohashBits(from) >= bits) return `rt.narrowGeohash(${arg}, ${geohashBits(from)}, ${bits})`;
  throw sqlSemanticError(`inconvertible types: ${typeDisplayName(from)} -> ${typeDisplayName(to)}`, position);
}

function emitNumericCast(arg: string, from: ValueType, to: ValueType): string | undefined {
  switch (to) {
    case 'INT': return `rt.toInt(${arg})`;
    case 'LONG': return from === 'TIMESTAMP' || from === 'DATE' ? arg : `rt.toLong(${arg})`;
    case 'SHORT': case 'BYTE': return `rt.toShortOrByte(${arg})`;
    case 'FLOAT': return `rt.toFloat(${arg})`;
    case 'DOUBLE': return arg;
    case 'BOOLEAN': return `rt.toBool(${arg})`;
    case 'TIMESTAMP': return from === 'DATE' ? `(${arg} * 1000)` : `rt.toLong(${arg})`;
    case 'DATE': return from === 'TIMESTAMP' ? `Math.floor(${arg} / 1000)` : `rt.toLong(${arg})`;
    case 'CHAR': return `(${arg} !== ${arg} ? null : String.fromCharCode(${arg}))`;
    case 'IPV4': return `(${arg} !== ${arg} || ${arg} === 0 ? NaN : (${arg} >>> 0))`;
    default: return undefined;
  }
}

/**
 * Casts into and out of TIMESTAMP_NS (in the double domain of compiled code): µs and ms scale by 1000 and 10^6,
 * integers are nanoseconds, and the way down floors as QuestDB's driver conversion does.
 */
function emitTimestampNsCast(arg: string, from: ValueType, to: ValueType): string | undefined {
  if (to === 'TIMESTAMP_NS') {
    if (from === 'TIMESTAMP') return `(${arg} * 1000)`;
    if (from === 'DATE') return `(${arg} * 1000000)`;
    return isNumericType(from) ? `rt.toLong(${arg})` : undefined;
  }
  switch (to) {
    case 'TIMESTAMP': return `Math.floor(${arg} / 1000)`;
    case 'DATE': return `Math.floor(${arg} / 1000000)`;
    case 'LONG': return arg;
    case 'DOUBLE': return arg;
    case 'INT': return `rt.toInt(${arg})`;
    default: return undefined;
  }
}

function emitCastFromText(arg: string, fromName: string, to: ValueType, position: number, constant: ConstantRef): string {
  const at = (): string => constant(position);
  switch (to) {
    case 'TIMESTAMP': return `rt.parseTimestampOrThrow(${arg}, '${fromName}', ${at()})`;
    case 'TIMESTAMP_NS': return `rt.parseTimestampNsOrThrow(${arg}, '${fromName}', ${at()})`;
    case 'DATE': return `rt.parseDateOrThrow(${arg}, '${fromName}', ${at()})`;
    case 'UUID': return `rt.parseUuidOrThrow(${arg}, '${fromName}', ${at()})`;
    case 'IPV4': return `rt.parseIpv4OrThrow(${arg}, '${fromName}', ${at()})`;
    case 'CHAR': return `rt.firstChar(${arg})`;
    case 'BOOLEAN': return `(${arg} !== null && ${arg}.toLowerCase() === 'true')`;
    case 'INT': case 'LONG': case 'SHORT': case 'BYTE': case 'FLOAT': case 'DOUBLE':
      return `rt.parseNumber(${arg}, '${to}', '${fromName}', ${at()})`;
    default:
      throw sqlSemanticError(`inconvertible types: ${fromName} -> ${typeDisplayName(to)}`, position);
  }
}

/** The expression-domain null of a type. */
export function nullOf(type: ValueType): string {
  if (isArrayType(type)) return 'null';
  switch (type) {
    case 'BOOLEAN': return 'false';
    case 'BYTE': case 'SHORT': return '0';
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'CHAR': case 'UUID': case 'BINARY': case 'NULL': return 'null';
    default: return isTextHeldType(type) ? 'null' : 'NaN';
  }
}
