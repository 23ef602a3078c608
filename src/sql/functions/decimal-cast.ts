// CAST to and from DECIMAL: between decimals (rescaled, half-up when the scale shrinks), from integers, floats
// and text (parsed exactly), and to integers (fraction dropped), FLOAT and DOUBLE. A value that does not fit the
// target's precision or range is an inconvertible-value error at the cast.
import type { ValueType } from '../../types/column-type.js';
import { isNumericType, typeDisplayName } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import { decimalPrecision, decimalScale, isDecimalType } from '../../types/decimal.js';
import { sqlSemanticError } from '../../core/errors.js';

type ConstantRef = (value: unknown) => string;

const INTEGER_RANGE: Readonly<Partial<Record<ValueType, readonly [number, number, string]>>> = {
  BYTE: [-128, 127, '0'], SHORT: [-32768, 32767, '0'], INT: [-2147483647, 2147483647, 'NaN'],
  LONG: [-9223372036854775807, 9223372036854775807, 'NaN'],
};

export function emitDecimalCast(arg: string, from: ValueType, to: ValueType, position: number, constant: ConstantRef): string {
  const names = `${constant(typeDisplayName(from))}, ${constant(typeDisplayName(to))}, ${constant(position)}`;
  if (isDecimalType(to)) {
    const target = `${decimalScale(to)}, ${decimalPrecision(to)}`;
    if (isDecimalType(from)) return `rt.decRescale(${arg}, ${decimalScale(from)}, ${target}, ${names})`;
    if (isNumericType(from)) return `rt.decFromNumber(${arg}, ${target}, ${names})`;
    if (isTextType(from)) return `rt.decFromText(${arg}, ${target}, ${names})`;
  } else if (isDecimalType(from)) {
    const range = INTEGER_RANGE[to];
    if (range !== undefined) return `rt.decToInteger(${arg}, ${decimalScale(from)}, ${range[0]}, ${range[1]}, ${range[2]}, ${names})`;
    if (to === 'DOUBLE') return `rt.decToDouble(${arg})`;
    if (to === 'FLOAT') return `Math.fround(rt.decToDouble(${arg}))`;
  }
  throw sqlSemanticError(`inconvertible types: ${typeDisplayName(from)} -> ${typeDisplayName(to)}`, position);
}
