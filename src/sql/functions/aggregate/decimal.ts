// sum and avg over DECIMAL (exact; kernels in exec/aggregates/decimal-kernels.ts). sum widens the precision to
// the next storage size's (DECIMAL8/16 → 18 digits, 32/64 → 38, wider → 76) and keeps the scale, as QuestDB's
// ResultTypes.decimalSum; avg keeps the argument's type. min, max, first and last take any type already.
import type { AggregateFunctionDef } from '../signature.js';
import type { ValueType } from '../../../types/column-type.js';
import { DECIMAL_PRECISION_MAX, decimalPrecision, decimalScale, decimalTypeOf, isDecimalType } from '../../../types/decimal.js';

function decimalSumType(types: readonly ValueType[]): ValueType {
  const type = types[0];
  if (type === undefined || !isDecimalType(type)) return 'NULL';
  const precision = decimalPrecision(type);
  const widened = precision <= 4 ? 18 : precision <= 18 ? 38 : DECIMAL_PRECISION_MAX;
  return decimalTypeOf(widened, decimalScale(type));
}

const sameDecimal = (types: readonly ValueType[]): ValueType => types[0] ?? 'NULL';

/** The call's position, handed to the kernel for its overflow error. */
const callPosition = (_args: unknown, position: number): readonly unknown[] => [position];

/** Only DECIMAL arguments: integer arguments keep the numeric sum and avg. */
export const DECIMAL_AGGREGATES: readonly AggregateFunctionDef[] = [
  { name: 'sum', args: ['DECIMAL'], returns: decimalSumType, kind: 'sum', params: callPosition },
  { name: 'avg', args: ['DECIMAL'], returns: sameDecimal, kind: 'avg', params: callPosition },
];
