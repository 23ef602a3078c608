// The window functions svc evaluates, as data: name → kind, how many arguments, and the result type for an
// argument type (QuestDB's window factories: ranking → LONG, sum/avg → DOUBLE, count → LONG, min/max and the
// value functions keep 64-bit and time types and widen the smaller integers to LONG, FLOAT to DOUBLE).
// Names that exist only as window functions must be called with OVER; the binder asks isWindowOnlyName.
import { isArrayType } from '../../types/double-array.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType } from '../../types/column-type.js';

export type WindowKind =
  | 'row_number' | 'rank' | 'dense_rank' | 'lag' | 'lead' | 'first_value' | 'last_value'
  | 'sum' | 'avg' | 'count' | 'min' | 'max';

interface WindowFunctionDef {
  readonly kind: WindowKind;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Result type for the first argument's type (undefined: no such overload). */
  readonly returns: (argType: ValueType | undefined) => ValueType | undefined;
}

const long = (): ValueType => 'LONG';

/** INT → LONG, FLOAT → DOUBLE, 64-bit and time types kept: the overloads QuestDB registers (L, D, T, date). */
function widened(type: ValueType | undefined): ValueType | undefined {
  if (type === undefined) return undefined;
  if (type === 'BYTE' || type === 'SHORT' || type === 'INT' || type === 'LONG' || type === 'NULL') return 'LONG';
  if (type === 'FLOAT' || type === 'DOUBLE') return 'DOUBLE';
  if (type === 'TIMESTAMP' || type === 'DATE') return type;
  return undefined;
}

/** lag/lead/first_value/last_value also carry text and other types through unchanged. */
function carried(type: ValueType | undefined): ValueType | undefined {
  return widened(type) ?? (type === 'BOOLEAN' || type === 'BINARY' || (type !== undefined && isArrayType(type)) ? undefined : type);
}

function numericToDouble(type: ValueType | undefined): ValueType | undefined {
  return type !== undefined && (isNumericType(type) || type === 'NULL' || type === 'TIMESTAMP' || type === 'DATE') ? 'DOUBLE' : undefined;
}

const DEFINITIONS: ReadonlyMap<string, WindowFunctionDef> = new Map<string, WindowFunctionDef>([
  ['row_number', { kind: 'row_number', minArgs: 0, maxArgs: 0, returns: long }],
  ['rank', { kind: 'rank', minArgs: 0, maxArgs: 0, returns: long }],
  ['dense_rank', { kind: 'dense_rank', minArgs: 0, maxArgs: 0, returns: long }],
  ['lag', { kind: 'lag', minArgs: 1, maxArgs: 3, returns: carried }],
  ['lead', { kind: 'lead', minArgs: 1, maxArgs: 3, returns: carried }],
  ['first_value', { kind: 'first_value', minArgs: 1, maxArgs: 1, returns: carried }],
  ['last_value', { kind: 'last_value', minArgs: 1, maxArgs: 1, returns: carried }],
  ['sum', { kind: 'sum', minArgs: 1, maxArgs: 1, returns: numericToDouble }],
  ['avg', { kind: 'avg', minArgs: 1, maxArgs: 1, returns: numericToDouble }],
  ['count', { kind: 'count', minArgs: 0, maxArgs: 1, returns: long }],
  ['min', { kind: 'min', minArgs: 1, maxArgs: 1, returns: widened }],
  ['max', { kind: 'max', minArgs: 1, maxArgs: 1, returns: widened }],
]);

/** Functions that have no meaning outside a window (QuestDB's list, including the ones svc does not evaluate). */
const WINDOW_ONLY = new Set([
  'row_number', 'rank', 'dense_rank', 'lag', 'lead', 'first_value', 'last_value', 'percent_rank', 'cume_dist', 'ntile', 'nth_value',
]);

export function isWindowOnlyName(name: string): boolean {
  return WINDOW_ONLY.has(name.toLowerCase());
}

export function windowFunction(name: string): WindowFunctionDef | undefined {
  return DEFINITIONS.get(name.toLowerCase());
}

/** Ranking functions ignore the frame; the value functions lag/lead ignore it too. */
export function usesFrame(kind: WindowKind): boolean {
  return kind !== 'row_number' && kind !== 'rank' && kind !== 'dense_rank' && kind !== 'lag' && kind !== 'lead';
}
