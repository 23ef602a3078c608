// Exact 64-bit integer semantics for generated code, kept off the hot path. Every int64 type (types/column-type.ts
// isInt64Type) computes in doubles as before; a double is exact within ±(2^53 - 1), so each place where the exact
// value matters (a "root": a comparison of integers, a cast from an int64, a projected int64 result, see compile.ts)
// checks its row: arithmetic under the root raises the root's flag when an operand or result leaves that range,
// and then the row is evaluated again over BigInts (runtime-int64.ts), wrapping like Java's long.
// Column values and constants beyond the range are the nearest doubles of their exact values, so they order
// correctly unless equal: a comparison falls back only on a flag or on two equal unsafe numbers.
import type { BoundCall, BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { isInt64Type } from '../../types/column-type.js';
import { isTextType } from '../../types/casts.js';
import type { EmitState } from './emit-expression.js';
import { constantRef, emitColumnRead, emitExpression, emitCallWith } from './emit-expression.js';
import { LONG_NULL, int64Runtime } from './runtime-int64.js';

/** 2^53 - 1: the largest integer a double holds together with all integers below it. */
const SAFE = '9007199254740991';

const EXACT_BINARY: Readonly<Record<string, string>> = { '+': 'ladd', '-': 'lsub', '*': 'lmul', '/': 'ldiv', '%': 'lmod' };
const EXACT_UNARY: Readonly<Record<string, string>> = { neg: 'lneg', abs: 'labs' };
const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);
/** Casts from an int64 whose exact form is a runtime helper over the BigInt. */
const EXACT_CAST_FROM_INT64: Partial<Record<ValueType, (exact: string) => string>> = {
  INT: (exact) => `rt.ltoInt(${exact})`,
  SHORT: (exact) => `rt.ltoShort(${exact})`,
  BYTE: (exact) => `rt.ltoByte(${exact})`,
  DOUBLE: (exact) => `rt.lnum(${exact})`,
  FLOAT: (exact) => `Math.fround(rt.lnum(${exact}))`,
};

/** Casts from TIMESTAMP_NS that read the exact nanoseconds: its text, and the floors to µs and ms. */
const EXACT_CAST_FROM_NANOS: Partial<Record<ValueType, (exact: string) => string>> = {
  STRING: (exact) => `rt.nsToText(${exact})`,
  VARCHAR: (exact) => `rt.nsToText(${exact})`,
  SYMBOL: (exact) => `rt.nsToText(${exact})`,
  TIMESTAMP: (exact) => `rt.nsFloorTo(${exact}, 1000n)`,
  DATE: (exact) => `rt.nsFloorTo(${exact}, 1000000n)`,
};

function isIntegral(type: ValueType): boolean {
  return type === 'BYTE' || type === 'SHORT' || type === 'INT' || isInt64Type(type);
}

/** Whether a number lies beyond ±(2^53 - 1); false for NaN (null). */
function unsafe(name: string): string {
  return `(Math.abs(${name}) > ${SAFE})`;
}

/**
 * Whether an operand's value can lie beyond ±(2^53 - 1) without having raised the flag: not so for 32-bit and
 * smaller integers, safe constants, and arithmetic guarded under the same flag (its own result check covers it).
 */
function needsOperandCheck(arg: BoundExpr): boolean {
  if (arg.type === 'BYTE' || arg.type === 'SHORT' || arg.type === 'INT') return false;
  if (arg.kind === 'constant') return arg.exact !== undefined || (typeof arg.value === 'number' && Math.abs(arg.value) > Number.MAX_SAFE_INTEGER);
  return !(arg.kind === 'call' && isExactArithmetic(arg));
}

function newLocal(state: EmitState, prefix: string): string {
  const name = `${prefix}${state.locals.length}`;
  state.locals.push(name);
  return name;
}

/** `+ - * / %`, unary minus or abs computing an int64 from integers. */
function isExactArithmetic(expr: BoundCall): boolean {
  if (!isInt64Type(expr.type) || !expr.args.every((arg) => isIntegral(arg.type))) return false;
  return expr.args.length === 2 ? EXACT_BINARY[expr.name] !== undefined : expr.args.length === 1 && EXACT_UNARY[expr.name] !== undefined;
}

function isCastToInt64(expr: BoundCall): boolean {
  return expr.name === 'cast' && isInt64Type(expr.type) && expr.args.length === 1;
}

/** Whether an int64 expression has work whose result doubles can get wrong (so a projection of it needs a root). */
export function needsExactInt64(expr: BoundExpr): boolean {
  if (expr.kind !== 'call') return false;
  if (isExactArithmetic(expr) || isCastToInt64(expr) || (expr.name === 'case' && isInt64Type(expr.type)) || expr.emitExact !== undefined) return true;
  return expr.args.some(needsExactInt64);
}

/**
 * The JS for an int64 call that exact semantics change, or undefined for the ordinary emission: comparisons of
 * integers and casts from int64 are roots, to_long256 reads its arguments exactly, and arithmetic under a root
 * raises that root's flag.
 */
export function emitInt64Call(expr: BoundCall, state: EmitState): string | undefined {
  const [a, b] = expr.args;
  if (COMPARISONS.has(expr.name) && a !== undefined && b !== undefined && isIntegral(a.type) && isIntegral(b.type) && (isInt64Type(a.type) || isInt64Type(b.type))) {
    return emitComparisonRoot(expr, a, b, state);
  }
  if (expr.name === 'cast' && a !== undefined && isInt64Type(a.type)) {
    const exactCast = a.type === 'TIMESTAMP_NS' ? EXACT_CAST_FROM_NANOS[expr.type] ?? EXACT_CAST_FROM_INT64[expr.type]
      : a.type === 'LONG' && isTextType(expr.type) ? (exact: string): string => `rt.ltoText(${exact})` : EXACT_CAST_FROM_INT64[expr.type];
    if (exactCast !== undefined) return emitCastRoot(expr, a, exactCast, state);
  }
  if (expr.name === 'to_long256' && expr.args.length === 4) return `rt.toLong256Exact(${expr.args.map((arg) => emitExact(arg, state)).join(', ')})`;
  if (state.flag !== undefined && isExactArithmetic(expr)) return emitGuardedArithmetic(expr, state.flag, state);
  // A function with an exact form (TIMESTAMP_NS dates) cannot tell from its double result whether it is right:
  // under a root it always sends the row to the exact path.
  if (state.flag !== undefined && expr.emitExact !== undefined) {
    return `(${state.flag} = 1, ${emitCallWith(expr, expr.args.map((arg) => emitExpression(arg, state)), state)})`;
  }
  return undefined;
}

/** Runs `body` with `flag` as the flag that arithmetic emitted inside raises; returns the body's result. */
function underRoot<T>(state: EmitState, flag: string, body: () => T): T {
  const outer = state.flag;
  state.flag = flag;
  try {
    return body();
  } finally {
    state.flag = outer;
  }
}

function emitComparisonRoot(expr: BoundCall, a: BoundExpr, b: BoundExpr, state: EmitState): string {
  const flag = newLocal(state, 'f');
  const left = newLocal(state, 't');
  const right = newLocal(state, 't');
  const [fastA, fastB] = underRoot(state, flag, () => [emitExpression(a, state), emitExpression(b, state)]);
  const fast = emitCallWith(expr, [left, right], state);
  const exactA = emitExact(a, state);
  const exactB = emitExact(b, state);
  const slow = emitCallWith(expr, [`rt.lcmp(${exactA}, ${exactB})`, `rt.lcmpRight(${exactB})`], state);
  return `(${flag} = 0, ${left} = ${fastA}, ${right} = ${fastB}, (${flag} === 0 && (${left} !== ${right} || !${unsafe(left)})) ? ${fast} : ${slow})`;
}

function emitCastRoot(expr: BoundCall, arg: BoundExpr, exactCast: (exact: string) => string, state: EmitState): string {
  const flag = newLocal(state, 'f');
  const value = newLocal(state, 't');
  const fastArg = underRoot(state, flag, () => emitExpression(arg, state));
  const fast = emitCallWith(expr, [value], state);
  return `(${flag} = 0, ${value} = ${fastArg}, (${flag} === 0 && !${unsafe(value)}) ? ${fast} : ${exactCast(emitExact(arg, state))})`;
}

function emitGuardedArithmetic(expr: BoundCall, flag: string, state: EmitState): string {
  const operands = expr.args.map(() => newLocal(state, 't'));
  const result = newLocal(state, 't');
  const assigned = expr.args.map((arg, k) => `${operands[k]} = ${emitExpression(arg, state)}`);
  const checked = operands.filter((_, k) => needsOperandCheck(expr.args[k]));
  const unsafeAny = [...checked, result].map(unsafe).join(' || ');
  return `(${assigned.join(', ')}, ${result} = ${emitCallWith(expr, operands, state)}, ${flag} |= ${unsafeAny} ? 1 : 0, ${result})`;
}

/**
 * JS evaluating an integral expression to its exact BigInt (Long.MIN_VALUE for null), for the slow path of a
 * root. Expressions without an exact form (other functions) convert their double result.
 */
export function emitExact(expr: BoundExpr, state: EmitState): string {
  switch (expr.kind) {
    case 'column':
      if (!isInt64Type(expr.type)) return `rt.lbig(${emitColumnRead(state, expr.index, expr.type)})`;
      state.usedColumns.add(expr.index);
      state.usedExact.add(expr.index);
      return `(x${expr.index} !== undefined ? x${expr.index}[i] : rt.lbig(v${expr.index}[i]))`;
    case 'constant': {
      if (expr.exact !== undefined) return constantRef(state, expr.exact);
      return constantRef(state, typeof expr.value === 'number' ? int64Runtime.lbig(expr.value) : LONG_NULL);
    }
    case 'call': return emitExactCall(expr, state);
  }
}

function emitExactCall(expr: BoundCall, state: EmitState): string {
  if (isExactArithmetic(expr)) {
    const helper = expr.args.length === 2 ? EXACT_BINARY[expr.name] : EXACT_UNARY[expr.name];
    return `rt.${helper}(${expr.args.map((arg) => emitExact(arg, state)).join(', ')})`;
  }
  if (expr.name === 'case' && isInt64Type(expr.type)) return emitExactCase(expr, state);
  if (expr.emitExact !== undefined) {
    const args = expr.args.map((arg) => (isInt64Type(arg.type) ? emitExact(arg, state) : emitExpression(arg, state)));
    return expr.emitExact(args, (value) => constantRef(state, value));
  }
  const arg = expr.args[0];
  if (isCastToInt64(expr) && arg !== undefined) {
    if (isInt64Type(arg.type) && emitCallWith(expr, ['a'], state) === 'a') return emitExact(arg, state);
    if (arg.type === 'DOUBLE' || arg.type === 'FLOAT') return `rt.dtoL(${emitExpression(arg, state)})`;
    if (isTextType(arg.type)) {
      const text = newLocal(state, 'q');
      return `(${text} = ${emitExpression(arg, state)}, rt.textToL(${text}, ${emitCallWith(expr, [text], state)}))`;
    }
  }
  return `rt.lbig(${emitExpression(expr, state)})`;
}

/** CASE over int64 results (bind-expression.ts lays out its arguments as conditions, results, then ELSE if any). */
function emitExactCase(expr: BoundCall, state: EmitState): string {
  const whenCount = Math.floor(expr.args.length / 2);
  const otherwise = expr.args.length % 2 === 1 ? expr.args[2 * whenCount] : undefined;
  let source = otherwise === undefined ? 'rt.lnull' : emitExact(otherwise, state);
  for (let k = whenCount - 1; k >= 0; k--) {
    source = `(${emitExpression(expr.args[k], state)} ? ${emitExact(expr.args[whenCount + k], state)} : ${source})`;
  }
  return source;
}

/**
 * The statement storing int64 expression `value` of a projection at row `i` into numbers `output` and, from
 * the first row that needs it, the exact values `exactOutput` (a local, undefined until then).
 */
export function emitInt64Store(output: string, exactOutput: string, expr: BoundExpr, state: EmitState): string {
  const flag = newLocal(state, 'f');
  const fast = underRoot(state, flag, () => emitExpression(expr, state));
  const exact = emitExact(expr, state);
  return [
    `{ ${flag} = 0; const r = ${fast};`,
    `if (${flag} === 0${needsOperandCheck(expr) ? ` && !${unsafe('r')}` : ''}) { ${output}[i] = r; if (${exactOutput} !== undefined) ${exactOutput}[i] = rt.lbig(r); }`,
    `else { const b = ${exact}; if (${exactOutput} === undefined) ${exactOutput} = rt.lstartExact(${output}, i); ${exactOutput}[i] = b; ${output}[i] = rt.lnum(b); } }`,
  ].join('\n');
}
