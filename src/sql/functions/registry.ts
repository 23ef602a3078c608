// Function lookup by name and argument types. Overloads resolve by exact match, then the cheapest
// implicit casts; a tie is an "ambiguous function call" error at the call's position.
import type { ArgType, AggregateFunctionDef, ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType, typeDisplayName } from '../../types/column-type.js';
import { implicitCastCost, isTextType } from '../../types/casts.js';
import { sqlSemanticError } from '../../core/errors.js';
import { ARITHMETIC_FUNCTIONS } from './arithmetic.js';
import { COMPARISON_FUNCTIONS } from './comparison.js';
import { LOGICAL_FUNCTIONS } from './logical.js';
import { STRING_FUNCTIONS } from './string.js';
import { DATE_FUNCTIONS } from './date.js';
import { MATH_FUNCTIONS } from './math.js';
import { MATH_MORE_FUNCTIONS } from './math-more.js';
import { STRING_MORE_FUNCTIONS } from './string-more.js';
import { REGEX_FUNCTIONS } from './regex.js';
import { CONDITIONAL_FUNCTIONS } from './conditional.js';
import { DATE_PART_FUNCTIONS } from './date-parts.js';
import { DATE_ARITH_FUNCTIONS } from './date-arith.js';
import { DATE_FORMAT_FUNCTIONS } from './date-format.js';
import { DATE_TIMESTAMP_NS_FUNCTIONS } from './date-timestamp-ns.js';
import { RANDOM_FUNCTIONS } from './random.js';
import { POSTGRES_FUNCTIONS } from './postgres.js';
import { GEOHASH_FUNCTIONS } from './geohash.js';
import { LONG256_FUNCTIONS } from './long256.js';
import { INTERVAL_FUNCTIONS } from './interval.js';
import { ARRAY_FUNCTIONS } from './arrays.js';
import { DECIMAL_FUNCTIONS, decimalArgumentCost } from './decimal.js';
import { isArrayType } from '../../types/double-array.js';
import { BASIC_AGGREGATES } from './aggregate/basic.js';
import { STATS_AGGREGATES } from './aggregate/stats.js';
import { SELECTION_AGGREGATES } from './aggregate/selection.js';
import { isGeohashType } from '../../types/geohash.js';
import type { BoundExpr } from '../bind/bound.js';

const SCALARS: readonly ScalarFunctionDef[] = [
  ...ARITHMETIC_FUNCTIONS, ...COMPARISON_FUNCTIONS, ...LOGICAL_FUNCTIONS, ...STRING_FUNCTIONS, ...DATE_FUNCTIONS, ...MATH_FUNCTIONS,
  ...MATH_MORE_FUNCTIONS, ...STRING_MORE_FUNCTIONS, ...REGEX_FUNCTIONS, ...CONDITIONAL_FUNCTIONS, ...DATE_PART_FUNCTIONS,
  ...DATE_ARITH_FUNCTIONS, ...DATE_FORMAT_FUNCTIONS, ...DATE_TIMESTAMP_NS_FUNCTIONS, ...RANDOM_FUNCTIONS, ...POSTGRES_FUNCTIONS,
  ...GEOHASH_FUNCTIONS, ...LONG256_FUNCTIONS, ...INTERVAL_FUNCTIONS, ...ARRAY_FUNCTIONS,
  ...DECIMAL_FUNCTIONS,
];
const AGGREGATES: readonly AggregateFunctionDef[] = [...BASIC_AGGREGATES, ...STATS_AGGREGATES, ...SELECTION_AGGREGATES];

const scalarsByName = groupByName(SCALARS);
const aggregatesByName = groupByName(AGGREGATES);

function groupByName<T extends { readonly name: string }>(defs: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const def of defs) {
    const list = map.get(def.name) ?? [];
    list.push(def);
    map.set(def.name, list);
  }
  return map;
}

/** Cost of passing `actual` where `expected` is declared; undefined when it does not fit. */
export function argumentCost(expected: ArgType, actual: ValueType): number | undefined {
  if (expected === 'ANY') return 0;
  if (expected === 'NUMERIC') return isNumericType(actual) ? 0 : actual === 'NULL' ? 1 : undefined;
  if (expected === 'TEXT') return isTextType(actual) ? 0 : actual === 'NULL' ? 1 : undefined;
  if (expected === 'GEOHASH') return isGeohashType(actual) ? 0 : undefined;
  if (expected === 'DECIMAL') return decimalArgumentCost(actual);
  if (expected === 'ARRAY') return isArrayType(actual) ? 0 : actual === 'NULL' ? 1 : undefined;
  return implicitCastCost(actual, expected);
}

function signatureCost(args: readonly ArgType[], variadic: boolean, actual: readonly ValueType[]): number | undefined {
  if (variadic ? actual.length < args.length - 1 : actual.length !== args.length) return undefined;
  let total = 0;
  for (let k = 0; k < actual.length; k++) {
    const expected = args[Math.min(k, args.length - 1)];
    const cost = argumentCost(expected, actual[k]);
    if (cost === undefined) return undefined;
    total += cost;
  }
  return total;
}

function pickCheapest<T extends { readonly args: readonly ArgType[]; readonly variadic?: boolean }>(candidates: readonly T[], actual: readonly ValueType[], name: string, position: number): T | undefined {
  let best: T | undefined;
  let bestCost = Infinity;
  let tie = false;
  for (const candidate of candidates) {
    const cost = signatureCost(candidate.args, candidate.variadic === true, actual);
    if (cost === undefined) continue;
    if (cost < bestCost) {
      best = candidate;
      bestCost = cost;
      tie = false;
    } else if (cost === bestCost) {
      tie = true;
    }
  }
  if (tie && bestCost > 0) throw sqlSemanticError(`ambiguous function call: ${name}(${actual.map(typeDisplayName).join(',')})`, position);
  return best;
}

export function isAggregateName(name: string): boolean {
  return aggregatesByName.has(name.toLowerCase());
}

export function isScalarName(name: string): boolean {
  return scalarsByName.has(name.toLowerCase());
}

export function resolveScalar(name: string, actual: readonly ValueType[], position: number): ScalarFunctionDef {
  const lower = name.toLowerCase();
  const candidates = scalarsByName.get(lower);
  const found = candidates === undefined ? undefined : pickCheapest(candidates, actual, name, position);
  if (found !== undefined) return found;
  throw unknownFunction(name, actual, position, candidates);
}

export function resolveAggregate(name: string, actual: readonly ValueType[], position: number): AggregateFunctionDef {
  const candidates = aggregatesByName.get(name.toLowerCase());
  const found = candidates === undefined ? undefined : pickCheapest(candidates, actual, name, position);
  if (found !== undefined) return found;
  throw unknownFunction(name, actual, position, candidates);
}

function unknownFunction(name: string, actual: readonly ValueType[], position: number, candidates: readonly { readonly args: readonly ArgType[] }[] | undefined): Error {
  if (candidates !== undefined && candidates.length > 0 && !candidates.some((candidate) => candidate.args.length === actual.length)) {
    const expected = candidates[0]?.args.length ?? 0;
    return sqlSemanticError(`wrong number of arguments for function \`${name}\`; expected: ${expected}, provided: ${actual.length}`, position);
  }
  return sqlSemanticError(`unknown function name: ${name}(${actual.map(typeDisplayName).join(',')})`, position);
}

export function resolvedReturnType(
  def: { readonly returns: ValueType | ((types: readonly ValueType[], args?: readonly BoundExpr[]) => ValueType) },
  actual: readonly ValueType[],
  args?: readonly BoundExpr[],
): ValueType {
  return typeof def.returns === 'function' ? def.returns(actual, args) : def.returns;
}
