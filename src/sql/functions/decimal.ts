// DECIMAL operators and functions: exact + - * / with QuestDB's result types (ResultTypes: a sum takes the larger
// scale and one more integer digit; a product or quotient the maximum precision and the scales added up),
// comparisons across scales, unary minus, abs and round. An integer operand is read as DECIMAL(n,0) with the
// digits of its type's maximum (BYTE 3, SHORT 5, INT 10, LONG 19); DOUBLE never converts implicitly.
import type { ValueType } from '../../types/column-type.js';
import type { DecimalType } from '../../types/decimal.js';
import { DECIMAL_PRECISION_MAX, decimalPrecision, decimalScale, decimalTypeOf, isDecimalType } from '../../types/decimal.js';
import type { Emit, ScalarFunctionDef } from './signature.js';

const INTEGER_DECIMAL_PRECISION: Readonly<Partial<Record<ValueType, number>>> = { BYTE: 3, SHORT: 5, INT: 10, LONG: 19 };

/** An integer operand costs more than any numeric widening, so integer-only calls keep their numeric overloads. */
const INTEGER_AS_DECIMAL_COST = 10;
const NULL_AS_DECIMAL_COST = 12;

export function decimalArgumentCost(actual: ValueType): number | undefined {
  if (isDecimalType(actual)) return 0;
  if (INTEGER_DECIMAL_PRECISION[actual] !== undefined) return INTEGER_AS_DECIMAL_COST;
  return actual === 'NULL' ? NULL_AS_DECIMAL_COST : undefined;
}

/** The decimal type an operand takes part in an operation as (NULL as DECIMAL(1,0)). */
export function operandDecimalType(type: ValueType | undefined): DecimalType {
  if (type !== undefined && isDecimalType(type)) return type;
  const precision = type === undefined ? undefined : INTEGER_DECIMAL_PRECISION[type];
  return decimalTypeOf(precision ?? 1, 0);
}

/** An operand's value as decimal text: integers (numbers, NaN = null) are converted, decimals and NULL pass. */
function operandText(arg: string, type: ValueType | undefined, constant: (value: unknown) => string): string {
  if (type === undefined || isDecimalType(type) || type === 'NULL') return arg;
  const target = operandDecimalType(type);
  return `rt.decFromNumber(${arg}, 0, ${decimalPrecision(target)}, ${constant(type)}, ${constant(target)}, -1)`;
}

function additionType(types: readonly ValueType[]): DecimalType {
  const left = operandDecimalType(types[0]);
  const right = operandDecimalType(types[1]);
  const scale = Math.max(decimalScale(left), decimalScale(right));
  const integerDigits = Math.max(decimalPrecision(left) - decimalScale(left), decimalPrecision(right) - decimalScale(right));
  return decimalTypeOf(Math.min(integerDigits + scale + 1, DECIMAL_PRECISION_MAX), scale);
}

function productType(types: readonly ValueType[]): DecimalType {
  const scale = Math.min(decimalScale(operandDecimalType(types[0])) + decimalScale(operandDecimalType(types[1])), DECIMAL_PRECISION_MAX);
  return decimalTypeOf(DECIMAL_PRECISION_MAX, scale);
}

function binary(name: string, helper: string, returns: (types: readonly ValueType[]) => DecimalType): ScalarFunctionDef {
  const emit: Emit = ([a, b], constant, types, position) => {
    const scale = decimalScale(returns(types));
    const left = operandText(a, types[0], constant);
    const right = operandText(b, types[1], constant);
    const scales = `${decimalScale(operandDecimalType(types[0]))}, ${decimalScale(operandDecimalType(types[1]))}`;
    return `rt.${helper}(${left}, ${right}, ${scales}, ${scale}, ${constant(position)})`;
  };
  return { name, args: ['DECIMAL', 'DECIMAL'], returns, emit, prepare: callPosition };
}

function comparison(op: string): ScalarFunctionDef {
  const emit: Emit = ([a, b], constant, types) => {
    const left = operandText(a, types[0], constant);
    const right = operandText(b, types[1], constant);
    const scales = `${decimalScale(operandDecimalType(types[0]))}, ${decimalScale(operandDecimalType(types[1]))}`;
    if (op === '=') return `rt.decEquals(${left}, ${right}, ${scales})`;
    if (op === '!=') return `!rt.decEquals(${left}, ${right}, ${scales})`;
    return `(rt.decCompare(${left}, ${right}, ${scales}) ${op} 0)`;
  };
  return { name: op, args: ['DECIMAL', 'DECIMAL'], returns: 'BOOLEAN', emit };
}

/** The call's position, handed to the emitter so runtime errors point at the operator. */
const callPosition = (_args: unknown, position: number): number => position;

const sameDecimal = (types: readonly ValueType[]): DecimalType => operandDecimalType(types[0]);

/** round(d): to zero decimal places, half-up, with a carry digit (ResultTypes.decimalRoundedToZeroScale). */
function roundedType(types: readonly ValueType[]): DecimalType {
  const type = operandDecimalType(types[0]);
  const scale = decimalScale(type);
  if (scale === 0) return type;
  return decimalTypeOf(Math.min(decimalPrecision(type) - scale + 1, DECIMAL_PRECISION_MAX), 0);
}

export const DECIMAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  binary('+', 'decAdd', additionType),
  binary('-', 'decSub', additionType),
  binary('*', 'decMul', productType),
  binary('/', 'decDiv', productType),
  comparison('='), comparison('!='), comparison('<'), comparison('<='), comparison('>'), comparison('>='),
  { name: 'neg', args: ['DECIMAL'], returns: sameDecimal, emit: ([a], constant, types) => `rt.decNeg(${operandText(a, types[0], constant)})` },
  { name: 'abs', args: ['DECIMAL'], returns: sameDecimal, emit: ([a], constant, types) => `rt.decAbs(${operandText(a, types[0], constant)})` },
  {
    name: 'round', args: ['DECIMAL'], returns: roundedType, prepare: callPosition,
    emit: ([a], constant, types, position) => {
      const type = operandDecimalType(types[0]);
      const result = roundedType(types);
      return `rt.decRound(${operandText(a, types[0], constant)}, ${decimalScale(type)}, 0, 0, ${decimalPrecision(result)}, ${constant(position)})`;
    },
  },
];
