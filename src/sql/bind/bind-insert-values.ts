// INSERT ... VALUES: binds each row's expressions and evaluates them (constants directly, other expressions
// through compiled code over a one-row batch), laying the values out as one vector per target column, typed
// for the engine's column encoder. Binding and evaluation go row by row, so the first bad value of the
// statement is the one reported, whichever kind of error it is.
import type { Expr, InsertStatement } from '../syntax/ast.js';
import type { BoundExpr } from './bound.js';
import type { ColumnType, ValueType } from '../../types/column-type.js';
import { isTextHeldType, typeDisplayName } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import { isTextCodedType, toTextCoded } from '../../types/coded-columns.js';
import { isDecimalType } from '../../types/decimal.js';
import type { DoubleArrayType } from '../../types/double-array.js';
import { arrayTypeDimCount, isArrayType } from '../../types/double-array.js';
import { parseArrayText } from '../../types/double-array-parse.js';
import { INT64_NULL } from '../../types/timestamp-ns.js';
import { nanosOfValue, nanosPerUnitOf } from '../../types/timestamp-ns-convert.js';
import type { Vector } from '../exec/batch.js';
import { vectorValue } from '../exec/vector-value.js';
import { bindExpression } from './bind-expression.js';
import { exprText } from './expr-text.js';
import { Scope } from './scope.js';
import { compileProjection, type CompiledProjection } from '../codegen/compile.js';
import { createRuntime } from '../codegen/runtime.js';
import { sqlRuntimeError, sqlSemanticError } from '../../core/errors.js';

type Value = number | string | boolean | null | Uint8Array;

function evaluate(expr: BoundExpr, nowMicros: number): { value: Value; exact?: bigint } {
  if (expr.kind === 'constant') {
    const value = expr.value;
    return expr.exact === undefined ? { value: value as Value } : { value: value as Value, exact: expr.exact };
  }
  const projection = projectionOf(expr);
  const [vector] = projection.run({ rowCount: 1, vectors: [] }, createRuntime(nowMicros));
  if (vector === undefined) return { value: null };
  // A 64-bit result beyond ±2^53 (wrapped arithmetic) arrives with its exact value beside the nearest double.
  const exact = vector.exact?.[0];
  const value = vectorValue(vector, 0);
  return exact === undefined || value === null ? { value } : { value, exact };
}

/**
 * Compiled one-row projections of argument-less calls (`now()`, `systimestamp()`), by name and type. Emitting
 * and looking up the code cost more than the insert's binding otherwise did, for every row that stamps itself
 * with the clock; a call without arguments whose code reads no constant (`K`) compiles to the same function
 * wherever it is written. Bounded by the registry's argument-less functions.
 */
const argumentlessProjections = new Map<string, CompiledProjection>();

function projectionOf(expr: BoundExpr): CompiledProjection {
  if (expr.kind !== 'call' || expr.args.length > 0) return compileProjection([expr]);
  const key = `${expr.name}:${expr.type}`;
  const cached = argumentlessProjections.get(key);
  if (cached !== undefined) return cached;
  const projection = compileProjection([expr]);
  if (!projection.source.includes('K[')) argumentlessProjections.set(key, projection);
  return projection;
}

/** One vector per target column, typed for the engine's encodeColumn (numbers, text or booleans). */
export function bindInsertValues(statement: InsertStatement, targets: readonly ColumnType[], nowMicros: number, targetNames: readonly string[] = []): Vector[] {
  const rows = statement.rows ?? [];
  const scope = new Scope([], false);
  const perColumn: Value[][] = targets.map(() => []);
  const exacts: (bigint | undefined)[][] = targets.map(() => []);
  const valueTypes: string[][] = targets.map(() => []);
  const sources: Expr[][] = targets.map(() => []);
  rows.forEach((row: readonly Expr[], rowIndex) => {
    if (row.length !== targets.length) {
      throw sqlSemanticError(`row value count does not match column count [expected=${targets.length}, actual=${row.length}, tuple=${rowIndex + 1}]`, row[0]?.position ?? statement.position);
    }
    row.forEach((expr, k) => {
      const bound = bindExpression(expr, { scope, clause: 'VALUES' });
      const { value, exact } = evaluate(bound, nowMicros);
      const target = targets[k];
      if (isArrayType(target) && isArrayType(bound.type) && bound.type !== target) {
        throw sqlSemanticError(`inconvertible types: ${bound.type} -> ${target}`, expr.position);
      }
      // Text for an array column is parsed here, where its position is known; the column then holds only arrays.
      perColumn[k].push(isArrayType(target) && typeof value === 'string' ? arrayFromText(value, target, bound.type, expr.position) : value);
      exacts[k].push(exact);
      valueTypes[k].push(isArrayType(target) && typeof value === 'string' ? target : bound.type);
      sources[k].push(expr);
    });
  });
  return targets.map((target, k) => {
    const values = perColumn[k];
    const types = valueTypes[k] as ValueType[];
    if (target === 'TIMESTAMP_NS') return timestampNsValuesVector(values, exacts[k], types, sources[k].map((source) => source.position));
    if (isTextCodedType(target)) return textCodedVector({ type: target, name: targetNames[k] ?? '' }, values, types, sources[k]);
    return toVector(values, exacts[k], types);
  });
}

/**
 * UUID, LONG256 and GEOHASH targets: each value converted on its own, so a GEOHASH value keeps its precision
 * (its text alone cannot say it) and a bad value is reported at its own expression.
 */
function textCodedVector(target: { type: ColumnType; name: string }, values: readonly Value[], types: readonly ValueType[], sources: readonly Expr[]): Vector {
  const to = target.type;
  const data = values.map((value, row) => {
    const type = types[row];
    const source = sources[row];
    const text = value === null || (typeof value === 'number' && Number.isNaN(value)) ? null : String(value);
    // Integers go into DECIMAL columns as QuestDB converts them implicitly (DOUBLE does not).
    const integerToDecimal = isDecimalType(to) && (type === 'BYTE' || type === 'SHORT' || type === 'INT' || type === 'LONG');
    const converted = isTextType(type) || type === 'NULL' || isTextHeldType(type) || integerToDecimal ? toTextCoded(to, type, text) : undefined;
    if (converted !== undefined) return converted;
    if (!isTextType(type) && !isDecimalType(type) && !integerToDecimal) {
      const names = `${typeDisplayName(type)} -> ${typeDisplayName(to)} [from=${exprText(source)}, to=${target.name}]`;
      throw sqlSemanticError(`inconvertible types: ${names}`, source.position);
    }
    throw sqlRuntimeError(`inconvertible value: \`${String(text)}\` [${typeDisplayName(type)} -> ${typeDisplayName(to)}]`, source.position);
  });
  return { type: to, data };
}

function arrayFromText(text: string, target: DoubleArrayType, from: string, position: number): Uint8Array {
  const parsed = parseArrayText(text, arrayTypeDimCount(target));
  if (parsed === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> ${target}]`, position);
  return parsed;
}

/**
 * The exact 64-bit value of a number: null and NaN are Long.MIN_VALUE (the null); ±Infinity (a literal like
 * 1e400) saturates as Java's (long) cast does, where BigInt() would throw (found by the SQL fuzzer).
 */
function int64Of(value: number | null): bigint {
  if (value === null || Number.isNaN(value)) return -9223372036854775808n;
  if (!Number.isFinite(value)) return value > 0 ? 9223372036854775807n : -9223372036854775807n;
  return BigInt(Math.trunc(value));
}

/** Lays out one column's values: all-numeric columns as numbers (LONG with exact values), otherwise text. */
function toVector(values: readonly Value[], exacts: readonly (bigint | undefined)[], types: readonly ValueType[]): Vector {
  const numeric = values.every((value) => typeof value === 'number' || value === null) && types.some((type) => type !== 'NULL');
  if (numeric) {
    const data = Float64Array.from(values, (value) => (value === null ? NaN : value));
    const timestampLike = types.every((type) => type === 'TIMESTAMP' || type === 'NULL');
    const exact = BigInt64Array.from(values, (value, row) => exacts[row] ?? int64Of(value));
    return { type: timestampLike ? 'TIMESTAMP' : 'LONG', data, exact };
  }
  if (values.every((value) => typeof value === 'boolean' || value === null) && types.some((type) => type === 'BOOLEAN')) {
    return { type: 'BOOLEAN', data: Int8Array.from(values, (value) => (value === true ? 1 : 0)) };
  }
  // Bytes come from BINARY bind parameters (SQL has no binary literal) and array expressions; they stay bytes.
  const bytesType = types.find((type) => type === 'BINARY' || isArrayType(type));
  if (bytesType !== undefined && values.every((value) => value instanceof Uint8Array || value === null)) {
    return { type: bytesType as ValueType, data: values.map((value) => (value instanceof Uint8Array ? value : null)) };
  }
  return { type: 'STRING', data: values.map((value) => (value === null ? null : value instanceof Uint8Array ? null : typeof value === 'number' ? (Number.isNaN(value) ? null : String(value)) : String(value))) };
}

/**
 * A TIMESTAMP_NS target: each row's value converted on its own (its own type decides the scale, its own
 * position reports a bad text), exact where the value came with its 64-bit form.
 */
function timestampNsValuesVector(values: readonly Value[], exacts: readonly (bigint | undefined)[], types: readonly ValueType[], positions: readonly number[]): Vector {
  const exact = new BigInt64Array(values.length);
  for (let row = 0; row < values.length; row++) {
    const type = types[row];
    const known = exacts[row];
    exact[row] = known !== undefined && type !== 'STRING' && type !== 'VARCHAR'
      ? (known === INT64_NULL ? INT64_NULL : BigInt.asIntN(64, known * nanosPerUnitOf(type)))
      : nanosOfValue(values[row] ?? null, type, nanosPerUnitOf(type), positions[row] ?? 0);
  }
  const data = new Float64Array(values.length);
  for (let row = 0; row < values.length; row++) data[row] = exact[row] === INT64_NULL ? NaN : Number(exact[row]);
  return { type: 'TIMESTAMP_NS', data, exact };
}
