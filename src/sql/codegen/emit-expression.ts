// Bound expression → JavaScript source of one row's value, reading input vectors `v<k>[i]`.
// No user value reaches the source: constants live in the `K` array and are referenced as `k<n>` (the compiled
// function reads them into locals once, outside the row loop); every identifier comes from our own counters.
import type { BoundCall, BoundExpr, SymbolColumnRefs } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { assertNever } from '../../core/assert.js';
import { isTextHeldType } from '../../types/column-type.js';
import { isArrayType } from '../../types/double-array.js';
import { emitInt64Call } from './emit-int64.js';

export interface EmitState {
  readonly constants: unknown[];
  readonly usedColumns: Set<number>;
  readonly usedSymbols: Set<number>;
  /** Input columns whose exact int64 values (`x<k>`, undefined when the vector has none) the code reads. */
  readonly usedExact: Set<number>;
  /** Row-scoped locals of emit-int64.ts (declared once, before the loop); the first letter says the kind. */
  readonly locals: string[];
  /** The flag that int64 arithmetic being emitted raises when doubles lose exactness (emit-int64.ts). */
  flag: string | undefined;
  /** Expressions evaluated once per batch, after the constants; `b<k>` names entry k. */
  readonly perBatch: string[];
}

export function newEmitState(): EmitState {
  return { constants: [], usedColumns: new Set(), usedSymbols: new Set(), usedExact: new Set(), locals: [], flag: undefined, perBatch: [] };
}

export function constantRef(state: EmitState, value: unknown): string {
  state.constants.push(value);
  return `k${state.constants.length - 1}`;
}

/** Reads input column `index` of type `type` at row `i`, in the expression domain of the type. */
export function emitColumnRead(state: EmitState, index: number, type: ValueType): string {
  state.usedColumns.add(index);
  const v = `v${index}[i]`;
  switch (type) {
    case 'INT': return `(${v} === -2147483648 ? NaN : ${v})`;
    case 'BOOLEAN': return `(${v} !== 0)`;
    case 'CHAR': return `(${v} === 0 ? null : String.fromCharCode(${v}))`;
    case 'IPV4': return `(${v} === 0 ? NaN : (${v} >>> 0))`;
    case 'SYMBOL':
      state.usedSymbols.add(index);
      return `(${v} < 0 ? null : s${index}[${v}])`;
    default: return v;
  }
}

function symbolColumnRefs(state: EmitState, index: number): SymbolColumnRefs {
  state.usedColumns.add(index);
  state.usedSymbols.add(index);
  const perBatch = (expression: string): string => {
    state.perBatch.push(expression);
    return `b${state.perBatch.length - 1}`;
  };
  return { key: `v${index}[i]`, table: `s${index}`, perBatch };
}

export function emitExpression(expr: BoundExpr, state: EmitState): string {
  switch (expr.kind) {
    case 'column': return emitColumnRead(state, expr.index, expr.type);
    case 'constant': return emitConstant(expr.value, expr.type, state);
    case 'call': return emitInt64Call(expr, state) ?? emitCallWith(expr, expr.args.map((arg) => emitExpression(arg, state)), state);
    default: return assertNever(expr, 'bound expression');
  }
}

/** The call's JS over already emitted argument expressions. */
export function emitCallWith(expr: BoundCall, args: readonly string[], state: EmitState): string {
  return expr.emit(args, (value) => constantRef(state, value), (index) => symbolColumnRefs(state, index));
}

/**
 * Every literal, NULL and boolean included, is a `k<n>` reference: a value in the source would make each
 * query that differs only in its numbers compile (and cache) a function of its own.
 */
function emitConstant(value: BoundConstantValue, type: ValueType, state: EmitState): string {
  return constantRef(state, value === null ? nullValue(type) : value);
}

type BoundConstantValue = Extract<BoundExpr, { kind: 'constant' }>['value'];

/** The expression-domain value of NULL in `type` (BOOLEAN, BYTE and SHORT have no NULL: false and 0). */
function nullValue(type: ValueType): boolean | number | null {
  if (isArrayType(type)) return null;
  switch (type) {
    case 'BOOLEAN': return false;
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'CHAR': case 'UUID': case 'BINARY': case 'NULL': return null;
    case 'BYTE': case 'SHORT': return 0;
    default: return isTextHeldType(type) ? null : NaN;
  }
}

/** Statement that stores expression value `value` into output array `o` at row `i`, per the output type. */
export function emitStore(output: string, value: string, type: ValueType): string {
  switch (type) {
    case 'INT': return `{ const r = ${value}; ${output}[i] = r !== r ? -2147483648 : r | 0; }`;
    case 'BOOLEAN': return `${output}[i] = ${value} ? 1 : 0;`;
    case 'CHAR': return `{ const r = ${value}; ${output}[i] = r === null ? 0 : r.charCodeAt(0); }`;
    case 'IPV4': return `{ const r = ${value}; ${output}[i] = r !== r ? 0 : r | 0; }`;
    default: return `${output}[i] = ${value};`;
  }
}
