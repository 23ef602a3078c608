// Binds expression ASTs: resolves columns in a scope, types literals, resolves calls and operators in the
// function registry, applies the implicit casts QuestDB applies (text compared with timestamps or numbers).
import { parseTimestampPeriodNanos } from '../../types/timestamp-ns.js';
import { foldNanosConstant } from './bind-timestamp-ns.js';
import type { BetweenExpr, CallExpr, CaseExpr, CastExpr, Expr, InExpr, LiteralExpr, QueryExpr } from '../syntax/ast.js';
import { bindPgOidCast, pgCastAlias } from './pg-casts.js';
import type { QueryFactory } from '../exec/operator.js';
import { bindArraySubquery, bindExistsSubquery, bindInSubquery, bindScalarSubquery } from './bind-subquery.js';
import { bindInList } from './bind-in-list.js';
import type { BoundCall, BoundConstant, BoundExpr } from './bound.js';
import type { Scope } from './scope.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType, parseColumnType, typeDisplayName } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import { isAggregateName, resolveScalar, resolvedReturnType } from '../functions/registry.js';
import { checkCast, emitCast } from '../functions/cast.js';
import { coerceArguments } from './bind-arguments.js';
import { isWindowOnlyName } from './window-functions.js';
import { sqlSemanticError } from '../../core/errors.js';
import { assertNever } from '../../core/assert.js';
import { parseIntervalString } from '../../types/intervals.js';
import { parseTimestamp } from '../../types/timestamp.js';
import { bindParameter } from './bind-parameters.js';
import { decimalLiteralType, decimalUnionType, formatDecimal, isDecimalType, readDecimalText } from '../../types/decimal.js';
import { GEOHASH_ARGUMENT_OFFSET, geohashDisplay, geohashTypeNameError, geohashTypeOf, isGeohashType } from '../../types/geohash.js';
import { bindArrayAccess, bindArrayLiteral } from './bind-array.js';

export interface BindContext {
  readonly scope: Scope;
  /** Called for aggregate calls; returns the bound reference to the aggregate's result. Undefined: not allowed here. */
  readonly onAggregate?: (call: CallExpr) => BoundExpr;
  /** Called for calls with OVER; returns the bound reference to the window function's result. Undefined: not allowed here. */
  readonly onWindow?: (call: CallExpr) => BoundExpr;
  /** Clause name for "aggregate functions are not allowed in WHERE". */
  readonly clause: string;
  /** Binds a subquery (IN (SELECT ..), scalar subqueries); undefined where subqueries are not allowed. */
  readonly bindQuery?: (query: QueryExpr) => QueryFactory;
}

function subqueryFactory(query: QueryExpr, ctx: BindContext, position: number): QueryFactory {
  if (ctx.bindQuery === undefined) throw sqlSemanticError(`subqueries are not supported in ${ctx.clause}`, position);
  return ctx.bindQuery(query);
}

const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);

const PATTERN_OPERATORS: Record<string, { readonly name: string; readonly negated: boolean }> = {
  like: { name: 'like', negated: false }, 'not like': { name: 'like', negated: true },
  ilike: { name: 'ilike', negated: false }, 'not ilike': { name: 'ilike', negated: true },
  '~': { name: '~', negated: false }, '!~': { name: '~', negated: true },
  '~*': { name: '~*', negated: false }, '!~*': { name: '~*', negated: true },
};

const OPERATOR_FUNCTIONS: Record<string, string> = {
  '=': '=', '!=': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=', '+': '+', '-': '-', '*': '*', '/': '/', '%': '%',
  '||': '||', and: 'and', or: 'or',
};

export function bindExpression(expr: Expr, ctx: BindContext): BoundExpr {
  switch (expr.kind) {
    case 'literal': return bindLiteral(expr);
    case 'column': {
      const index = ctx.scope.find(expr.name, expr.qualifier, expr.position);
      const column = ctx.scope.columns[index];
      return { kind: 'column', type: column?.type ?? 'NULL', index: ctx.scope.slotOf(index), position: expr.position };
    }
    case 'star': throw sqlSemanticError("'*' is not expected here", expr.position);
    case 'unary': return bindUnary(expr.op, expr.operand, expr.position, ctx);
    case 'binary': return bindBinary(expr.op, expr.left, expr.right, expr.position, ctx);
    case 'call': return bindCall(expr, ctx);
    case 'cast': return bindCastExpr(expr, ctx);
    case 'case': return bindCase(expr, ctx);
    case 'in': return bindIn(expr, ctx);
    case 'between': return bindBetween(expr, ctx);
    case 'isNull': return call(expr.negated ? 'isnotnull' : 'isnull', [bindExpression(expr.operand, ctx)], expr.position);
    case 'subquery': return bindScalarSubquery(subqueryFactory(expr.query, ctx, expr.position), expr.position);
    case 'array': return bindArrayLiteral(expr, (element) => bindExpression(element, ctx));
    case 'arrayIndex': return bindArrayAccess(expr, (element) => bindExpression(element, ctx));
    case 'parameter': return bindParameter(expr);
    default: return assertNever(expr, 'expression');
  }
}

/** CAST / `::`, with PostgreSQL's OID types (`::regclass`, `::oid`, `::name`) besides svc's own. */
function bindCastExpr(expr: CastExpr, ctx: BindContext): BoundExpr {
  const operand = bindExpression(expr.operand, ctx);
  const oidCast = bindPgOidCast(operand, expr.typeName, expr.position, ctx.bindQuery);
  if (oidCast !== undefined) return oidCast;
  return bindCast(operand, pgCastAlias(expr.typeName) ?? expr.typeName, expr.typePosition, expr.position);
}

export function bindLiteral(expr: LiteralExpr): BoundConstant {
  const position = expr.position;
  switch (expr.literalType) {
    case 'LONG': {
      const value = expr.value as bigint;
      return { kind: 'constant', type: 'LONG', value: Number(value), exact: value, position };
    }
    case 'NULL': return { kind: 'constant', type: 'NULL', value: null, position };
    case 'GEOHASH': {
      const binary = String(expr.value);
      return { kind: 'constant', type: geohashTypeOf(binary.length), value: geohashDisplay(binary, binary.length), position };
    }
    case 'LONG256': return { kind: 'constant', type: 'LONG256', value: String(expr.value), position };
    case 'DECIMAL': return bindDecimalLiteral(String(expr.value), position);
    default: return { kind: 'constant', type: expr.literalType, value: expr.value as number | string | boolean, position };
  }
}

/** `1.25m`: a DECIMAL whose scale is its fraction digits and precision its digits. */
function bindDecimalLiteral(text: string, position: number): BoundConstant {
  const read = readDecimalText(text);
  const type = read === undefined ? undefined : decimalLiteralType(read.unscaled, read.scale);
  if (read === undefined || type === undefined) throw sqlSemanticError(`invalid constant: ${text}m`, position);
  return { kind: 'constant', type, value: formatDecimal(read.unscaled, read.scale), position };
}

function call(name: string, args: readonly BoundExpr[], position: number): BoundCall {
  const def = resolveScalar(name, args.map((arg) => arg.type), position);
  const type = resolvedReturnType(def, args.map((arg) => arg.type), args);
  const coerced = coerceArguments(def, args, type);
  const types = coerced.map((arg) => arg.type);
  const prepared = def.prepare?.(coerced, position);
  const exact = def.emitExact;
  return {
    kind: 'call', type, name, args: coerced, position, emit: (emitted, constant) => def.emit(emitted, constant, types, prepared),
    ...(def.volatile === true ? {} : { foldable: true }),
    ...(exact === undefined ? {} : { emitExact: (emitted: readonly string[], constant: (value: unknown) => string) => exact(emitted, constant, types, prepared) }),
  };
}

function bindUnary(op: string, operand: Expr, position: number, ctx: BindContext): BoundExpr {
  if (op === 'not') return call('not', [bindExpression(operand, ctx)], position);
  const bound = bindExpression(operand, ctx);
  if (op === '+') return bound;
  if (bound.kind === 'constant' && typeof bound.value === 'number') {
    return { ...bound, value: -bound.value, exact: bound.exact === undefined ? undefined : -bound.exact, position };
  }
  return call('neg', [bound], position);
}

function bindBinary(op: string, left: Expr, right: Expr, position: number, ctx: BindContext): BoundExpr {
  const pattern = PATTERN_OPERATORS[op];
  if (pattern !== undefined) {
    // LIKE/ILIKE/~ are functions (functions/regex.ts); the negated forms are NOT of them (two-valued logic).
    const test = call(pattern.name, [bindExpression(left, ctx), bindExpression(right, ctx)], position);
    return pattern.negated ? call('not', [test], position) : test;
  }
  const name = OPERATOR_FUNCTIONS[op];
  if (name === undefined) throw sqlSemanticError(`unsupported operator: ${op}`, position);
  let a = bindExpression(left, ctx);
  let b = bindExpression(right, ctx);
  if ((name === '=' || name === '!=') && (a.type === 'NULL' || b.type === 'NULL')) {
    const tested = a.type === 'NULL' ? b : a;
    return call(name === '=' ? 'isnull' : 'isnotnull', [tested], position);
  }
  if (name === '=' || name === '!=') {
    // `sym = 'text'`: a key test, like a one-item IN list, instead of a string compare per row.
    const keyTest = a.kind === 'column' && a.type === 'SYMBOL' ? bindInList(a, [b], position) : b.kind === 'column' && b.type === 'SYMBOL' ? bindInList(b, [a], position) : undefined;
    if (keyTest !== undefined) return name === '=' ? keyTest : call('not', [keyTest], position);
  }
  if (COMPARISONS.has(name)) [a, b] = coerceComparison(a, b);
  return call(name, [a, b], position);
}

/** A text constant compared with a timestamp or number is parsed as one (QuestDB's implicit cast). */
function coerceComparison(a: BoundExpr, b: BoundExpr): [BoundExpr, BoundExpr] {
  return [coerceSide(a, b.type), coerceSide(b, a.type)];
}

function coerceSide(side: BoundExpr, otherType: ValueType): BoundExpr {
  if (!isTextType(side.type) || isTextType(otherType) || otherType === 'NULL' || otherType === 'UUID') return side;
  // A string compared with a GEOHASH or LONG256 is read as one (base32 into the precision, 0x hex), as QuestDB does.
  // A string compared with a DECIMAL is read as one (exactly, into its scale).
  if (otherType === 'TIMESTAMP' || otherType === 'TIMESTAMP_NS' || otherType === 'DATE' || isNumericType(otherType) || otherType === 'IPV4' || otherType === 'LONG256' || isGeohashType(otherType) || isDecimalType(otherType)) {
    return bindCast(side, otherType, side.position, side.position);
  }
  return side;
}

function bindCall(expr: CallExpr, ctx: BindContext): BoundExpr {
  if (isAggregateName(expr.name) && expr.over === undefined) {
    if (ctx.onAggregate === undefined) throw sqlSemanticError(`aggregate functions are not allowed in ${ctx.clause}`, expr.position);
    return ctx.onAggregate(expr);
  }
  if (expr.over !== undefined) {
    if (ctx.onWindow === undefined) throw sqlSemanticError(`window function is not allowed in ${ctx.clause} clause`, expr.position);
    return ctx.onWindow(expr);
  }
  const only = expr.args[0];
  if (expr.name.toLowerCase() === 'array' && expr.args.length === 1 && only?.kind === 'subquery') {
    return bindArraySubquery(subqueryFactory(only.query, ctx, only.position), expr.position);
  }
  const existsQuery = expr.name.toLowerCase() === 'exists' && expr.args.length === 1 ? expr.args[0] : undefined;
  if (existsQuery?.kind === 'subquery') return bindExistsSubquery(subqueryFactory(existsQuery.query, ctx, existsQuery.position), expr.position);
  if (isWindowOnlyName(expr.name)) throw sqlSemanticError('window function called in non-window context, make sure to add OVER clause', expr.position);
  return call(expr.name, expr.args.map((arg) => bindExpression(arg, ctx)), expr.position);
}

export function bindCast(operand: BoundExpr, typeName: string, typePosition: number, position: number): BoundExpr {
  const target = parseColumnType(typeName);
  const geohashError = geohashTypeNameError(typeName);
  if (geohashError !== undefined) throw sqlSemanticError(geohashError, typePosition + GEOHASH_ARGUMENT_OFFSET);
  if (target === undefined) throw sqlSemanticError(`invalid type: ${typeName}`, typePosition);
  if (operand.kind === 'constant' && operand.type === 'NULL') return { ...operand, type: target };
  if (operand.type === target) return operand;
  const from = operand.type;
  const folded = target === 'TIMESTAMP_NS' ? foldNanosConstant(operand) : foldTimestampText(operand, target);
  if (folded !== undefined) return folded;
  // Emitting once here validates the cast at bind time, so an impossible cast fails with its position.
  checkCast(from, target, position);
  // A constant that does not convert is reported at the value itself, as QuestDB does.
  const valuePosition = operand.kind === 'constant' ? operand.position : position;
  return { kind: 'call', type: target, name: 'cast', args: [operand], position, foldable: true, emit: ([arg], constant) => emitCast(arg, from, target, valuePosition, constant) };
}

/** `'2024-01-01'::timestamp` is a constant (so generator bounds and other constant-only arguments accept it). */
function foldTimestampText(operand: BoundExpr, target: ValueType): BoundConstant | undefined {
  if (operand.kind !== 'constant' || typeof operand.value !== 'string' || (target !== 'TIMESTAMP' && target !== 'DATE')) return undefined;
  const micros = parseTimestamp(operand.value);
  if (micros === undefined) throw sqlSemanticError(`inconvertible value: \`${operand.value}\` [${typeDisplayName(operand.type)} -> ${target}]`, operand.position);
  const value = target === 'DATE' ? Math.floor(micros / 1000) : micros;
  return { kind: 'constant', type: target, value, exact: BigInt(value), position: operand.position };
}

function bindCase(expr: CaseExpr, ctx: BindContext): BoundExpr {
  const subject = expr.subject === undefined ? undefined : bindExpression(expr.subject, ctx);
  const conditions = expr.whens.map((when) => {
    const value = bindExpression(when.when, ctx);
    return subject === undefined ? value : call('=', coerceComparison(subject, value), when.when.position);
  });
  const results = expr.whens.map((when) => bindExpression(when.then, ctx));
  const otherwise = expr.otherwise === undefined ? undefined : bindExpression(expr.otherwise, ctx);
  const candidates = [...results, ...(otherwise === undefined ? [] : [otherwise])];
  const type = commonType(candidates.map((candidate) => candidate.type), expr.position);
  const args = [...conditions, ...results.map((result) => castTo(result, type)), ...(otherwise === undefined ? [] : [castTo(otherwise, type)])];
  const whenCount = conditions.length;
  return {
    kind: 'call', type, name: 'case', args, position: expr.position, foldable: true,
    emit: (emitted) => {
      let source = otherwise === undefined ? nullExpression(type) : emitted[2 * whenCount];
      for (let k = whenCount - 1; k >= 0; k--) source = `(${emitted[k]} ? ${emitted[whenCount + k]} : ${source})`;
      return source;
    },
  };
}

function castTo(expr: BoundExpr, type: ValueType): BoundExpr {
  if (expr.type === type || expr.type === 'NULL') return expr.type === 'NULL' ? { kind: 'constant', type, value: null, position: expr.position } : expr;
  if (isNumericType(expr.type) && isNumericType(type)) return expr;
  if (isTextType(expr.type) && isTextType(type)) return expr;
  return bindCast(expr, type, expr.position, expr.position);
}

/** The type several branches share: numeric types widen, text types unify to STRING/VARCHAR. */
export function commonType(types: readonly ValueType[], position: number): ValueType {
  const known = types.filter((type) => type !== 'NULL');
  if (known.length === 0) return 'STRING';
  if (known.every((type) => type === known[0])) return known[0] as ValueType;
  const decimal = decimalUnionType(known);
  if (decimal !== undefined) return decimal;
  if (known.every(isNumericType)) {
    const order: ValueType[] = ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE'];
    return known.reduce((a, b) => (order.indexOf(a) >= order.indexOf(b) ? a : b));
  }
  if (known.every(isTextType)) return known.some((type) => type === 'VARCHAR') ? 'VARCHAR' : 'STRING';
  throw sqlSemanticError(`inconvertible types: ${typeDisplayName(known[1] as ValueType)} -> ${typeDisplayName(known[0] as ValueType)}`, position);
}

function nullExpression(type: ValueType): string {
  if (type === 'BOOLEAN') return 'false';
  if (type === 'BYTE' || type === 'SHORT') return '0';
  return isNumericType(type) || type === 'TIMESTAMP' || type === 'TIMESTAMP_NS' || type === 'DATE' || type === 'IPV4' ? 'NaN' : 'null';
}

function bindIn(expr: InExpr, ctx: BindContext): BoundExpr {
  const operand = bindExpression(expr.operand, ctx);
  if (expr.subquery !== undefined) {
    const test = bindInSubquery(operand, subqueryFactory(expr.subquery, ctx, expr.position), expr.position);
    return expr.negated ? call('not', [test], expr.position) : test;
  }
  const list = expr.list ?? [];
  const single = list[0];
  if (list.length === 1 && (operand.type === 'TIMESTAMP' || operand.type === 'TIMESTAMP_NS') && single?.kind === 'literal' && single.literalType === 'STRING') {
    const test = operand.type === 'TIMESTAMP_NS' ? nanoIntervalTest(operand, single.value as string, single.position) : intervalTest(operand, single.value as string, single.position);
    return expr.negated ? call('not', [test], expr.position) : test;
  }
  const items = list.map((item) => bindExpression(item, ctx));
  let test: BoundExpr | undefined = bindInList(operand, items, expr.position);
  if (test === undefined) {
    items.forEach((item, k) => {
      const equal = call('=', coerceComparison(operand, item), list[k].position);
      test = test === undefined ? equal : call('or', [test, equal], expr.position);
    });
  }
  const result = test ?? { kind: 'constant', type: 'BOOLEAN', value: false, position: expr.position };
  return expr.negated ? call('not', [result], expr.position) : result;
}

/**
 * `ts IN '2024-01'`: true when the timestamp falls in any of the interval string's ranges. One interval node,
 * not comparisons: the interval pass takes its ranges as they are, and a filter binary-searches them.
 */
function intervalTest(operand: BoundExpr, text: string, position: number): BoundExpr {
  const intervals = parseIntervalString(text);
  if (intervals === undefined) throw sqlSemanticError(`Invalid date [str=${text}]`, position);
  const los = Float64Array.from(intervals, (interval) => interval.lo);
  const his = Float64Array.from(intervals, (interval) => interval.hi);
  return {
    kind: 'call', type: 'BOOLEAN', name: 'in_interval', args: [operand], intervals, position, foldable: true,
    emit: ([ts], constant) => `rt.inIntervals(${constant(los)}, ${constant(his)}, ${ts})`,
  };
}

/** `ns IN '2024-01'`: the interval string's ranges at ns precision (a µs range covers its whole 1000 ns). */
function nanoIntervalTest(operand: BoundExpr, text: string, position: number): BoundExpr {
  const semicolon = text.indexOf(';');
  const single = semicolon >= 0 ? undefined : parseTimestampPeriodNanos(text);
  // '<ts>;<modifiers>': the µs ranges of the interval grammar, each starting at the instant's sub-µs digits.
  const startNanos = semicolon < 0 ? undefined : parseTimestampPeriodNanos(text.slice(0, semicolon))?.lo;
  const subMicro = startNanos === undefined ? 0n : ((startNanos % 1000n) + 1000n) % 1000n;
  const ranges = single !== undefined ? [single] : parseIntervalString(text)?.map((range) => ({ lo: BigInt(range.lo) * 1000n + subMicro, hi: BigInt(range.hi) * 1000n + 999n }));
  if (ranges === undefined) throw sqlSemanticError(`Invalid date [str=${text}]`, position);
  const constant = (value: bigint): BoundExpr => ({ kind: 'constant', type: 'TIMESTAMP_NS', value: Number(value), exact: value, position });
  let test: BoundExpr | undefined;
  for (const range of ranges) {
    const inside = call('and', [call('>=', [operand, constant(range.lo)], position), call('<=', [operand, constant(range.hi)], position)], position);
    test = test === undefined ? inside : call('or', [test, inside], position);
  }
  return test ?? { kind: 'constant', type: 'BOOLEAN', value: false, position };
}

function bindBetween(expr: BetweenExpr, ctx: BindContext): BoundExpr {
  const operand = bindExpression(expr.operand, ctx);
  const low = coerceSide(bindExpression(expr.low, ctx), operand.type);
  const high = coerceSide(bindExpression(expr.high, ctx), operand.type);
  // Bound order is irrelevant in QuestDB: x BETWEEN 5 AND 1 matches 1..5.
  const inside = call('or', [
    call('and', [call('>=', [operand, low], expr.position), call('<=', [operand, high], expr.position)], expr.position),
    call('and', [call('>=', [operand, high], expr.position), call('<=', [operand, low], expr.position)], expr.position),
  ], expr.position);
  return expr.negated ? call('not', [inside], expr.position) : inside;
}

