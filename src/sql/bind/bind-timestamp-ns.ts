// Constant folding into TIMESTAMP_NS at bind time: text with up to nine fraction digits, TIMESTAMP µs and DATE
// ms constants scaled, integers taken as ns. The result carries its exact int64, so projections, inserts and
// interval pruning see every nanosecond (compiled code would only see a double).
import type { BoundConstant, BoundExpr } from './bound.js';
import { sqlSemanticError } from '../../core/errors.js';
import { typeDisplayName } from '../../types/column-type.js';
import { parseTimestampNanos } from '../../types/timestamp-ns.js';

const NANOS_PER_UNIT: Readonly<Partial<Record<string, bigint>>> = {
  TIMESTAMP: 1000n, DATE: 1_000_000n, LONG: 1n, INT: 1n, SHORT: 1n, BYTE: 1n,
};

/** `operand` as an exact TIMESTAMP_NS constant, or undefined when it is not a constant that folds. */
export function foldNanosConstant(operand: BoundExpr): BoundConstant | undefined {
  if (operand.kind !== 'constant') return undefined;
  const { position } = operand;
  if (typeof operand.value === 'string') {
    const nanos = parseTimestampNanos(operand.value);
    if (nanos === undefined) throw sqlSemanticError(`inconvertible value: \`${operand.value}\` [${typeDisplayName(operand.type)} -> TIMESTAMP_NS]`, position);
    return nanosConstant(nanos, position);
  }
  const scale = NANOS_PER_UNIT[operand.type];
  if (scale === undefined || typeof operand.value !== 'number' || Number.isNaN(operand.value)) return undefined;
  const exact = operand.exact ?? (Number.isInteger(operand.value) ? BigInt(operand.value) : undefined);
  return exact === undefined ? undefined : nanosConstant(BigInt.asIntN(64, exact * scale), position);
}

function nanosConstant(nanos: bigint, position: number): BoundConstant {
  return { kind: 'constant', type: 'TIMESTAMP_NS', value: Number(nanos), exact: nanos, position };
}
