// The implicit-cast lattice used by the binder and function resolution: which type widens to which,
// and at what cost (0 = exact match; higher = less preferred).
import type { ValueType } from './column-type.js';

const NUMERIC_RANK: Partial<Record<ValueType, number>> = { BYTE: 1, SHORT: 2, INT: 3, LONG: 4, FLOAT: 5, DOUBLE: 6 };
const RANKED: readonly ValueType[] = ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE'];

export function numericRank(type: ValueType): number | undefined {
  return NUMERIC_RANK[type];
}

/** Result type of arithmetic on two numeric types: the wider one, at least INT (as QuestDB does). */
export function widenNumeric(a: ValueType, b: ValueType): ValueType {
  const rank = Math.max(NUMERIC_RANK[a] ?? 3, NUMERIC_RANK[b] ?? 3, 3);
  return RANKED[rank - 1];
}

const TEXT_TYPES: readonly ValueType[] = ['STRING', 'VARCHAR', 'SYMBOL', 'CHAR'];

/** Cost of using a value of `from` where `to` is expected without an explicit cast; undefined when not allowed. */
export function implicitCastCost(from: ValueType, to: ValueType): number | undefined {
  if (from === to) return 0;
  if (from === 'NULL') return 1;
  const fromRank = NUMERIC_RANK[from];
  const toRank = NUMERIC_RANK[to];
  if (fromRank !== undefined && toRank !== undefined) return toRank > fromRank ? toRank - fromRank : undefined;
  if (TEXT_TYPES.includes(from) && TEXT_TYPES.includes(to)) return to === 'CHAR' ? undefined : 1 + TEXT_TYPES.indexOf(to);
  // A µs or ms timestamp meets a ns one at ns precision (QuestDB compares at the finer unit).
  if ((from === 'TIMESTAMP' || from === 'DATE') && to === 'TIMESTAMP_NS') return 2;
  if (from === 'TIMESTAMP_NS' && (to === 'LONG' || to === 'TIMESTAMP')) return 4;
  if ((from === 'TIMESTAMP' || from === 'DATE') && (to === 'LONG' || to === 'TIMESTAMP')) return 3;
  if (fromRank !== undefined && fromRank <= 4 && (to === 'TIMESTAMP' || to === 'TIMESTAMP_NS')) return 8;
  if ((from === 'STRING' || from === 'VARCHAR') && to === 'TIMESTAMP_NS') return 10;
  if (from === 'STRING' && (to === 'TIMESTAMP' || to === 'DATE' || to === 'UUID' || to === 'IPV4')) return 10;
  if (from === 'VARCHAR' && (to === 'TIMESTAMP' || to === 'UUID' || to === 'IPV4')) return 10;
  if (from === 'BOOLEAN' && toRank !== undefined) return undefined;
  return undefined;
}

export function isTextType(type: ValueType): boolean {
  return TEXT_TYPES.includes(type);
}
