// Compiles emitted expression source into functions with `new Function`, once per distinct source text.
// A projection computes one output vector per expression for a batch; a filter fills a selection vector.
// The source holds no user value (literals, positions, patterns travel in the constants array `K`), so it is a
// key of the expression's shape: queries that differ only in their literals share one function. The cache is
// an LRU bounded by query.compile.cache.capacity. The generated source is kept for EXPLAIN and tests.
import type { BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import type { ColumnBatch, Vector, VectorData } from '../exec/batch.js';
import { allocateVectorData } from '../exec/batch.js';
import type { EmitState } from './emit-expression.js';
import { emitExpression, emitStore, newEmitState } from './emit-expression.js';
import { emitInt64Store, needsExactInt64 } from './emit-int64.js';
import { isInt64Type } from '../../types/column-type.js';
import type { RuntimeHelpers } from './runtime.js';
import { dictionaryEncode } from './symbol-output.js';
import { LruCache } from '../../core/lru-cache.js';
import { sqlCompileChannel } from '../../core/diagnostics.js';

/**
 * The compiled loop: `V` the data and `X` the exact int64 values (or undefined) of the input columns, `S` their
 * symbol dictionaries, `K` the constants, `O` the outputs; `XO` receives, per output, exact int64 values when a
 * row needed them (emit-int64.ts).
 */
type LoopFunction = (n: number, V: readonly VectorData[], S: readonly (readonly string[] | undefined)[], K: readonly unknown[], rt: RuntimeHelpers, O: readonly VectorData[], sel: Int32Array, X: readonly (BigInt64Array | undefined)[], XO: (BigInt64Array | undefined)[]) => number;

/** Compiled functions kept until query.compile.cache.capacity says otherwise (its default). */
export const compileCacheEntriesDefault = 1000;

const functionCache = new LruCache<string, LoopFunction>(compileCacheEntriesDefault);
const counts = { compiled: 0, reused: 0, evicted: 0 };

export interface CompileCacheStats {
  readonly entries: number;
  readonly entriesMax: number;
  /** Functions made with `new Function` since start. */
  readonly compiled: number;
  /** Lookups answered from the cache since start. */
  readonly reused: number;
  readonly evicted: number;
}

export function compileCacheStats(): CompileCacheStats {
  return { entries: functionCache.size, entriesMax: functionCache.entriesMax, ...counts };
}

/** Sets the bound of this process's compile cache (query.compile.cache.capacity). */
export function configureCompileCache(entriesMax: number): void {
  counts.evicted += functionCache.resize(entriesMax);
}

function compileSource(source: string): LoopFunction {
  const cached = functionCache.get(source);
  if (cached !== undefined) {
    counts.reused++;
    sqlCompileChannel.publish({ kind: 'reused', evicted: 0, cacheEntries: functionCache.size });
    return cached;
  }
  const compiled = new Function('n', 'V', 'S', 'K', 'rt', 'O', 'sel', 'X', 'XO', source) as LoopFunction;
  const evicted = functionCache.set(source, compiled);
  counts.compiled++;
  counts.evicted += evicted;
  sqlCompileChannel.publish({ kind: 'compiled', evicted, cacheEntries: functionCache.size });
  return compiled;
}

function prologue(state: EmitState, outputs: number, exactOutputs: readonly number[] = []): string {
  const lines: string[] = ["'use strict';"];
  for (const index of state.usedColumns) lines.push(`const v${index} = V[${index}];`);
  for (const index of state.usedSymbols) lines.push(`const s${index} = S[${index}];`);
  for (const index of state.usedExact) lines.push(`const x${index} = X[${index}];`);
  for (const local of state.locals) lines.push(`let ${local} = ${local.startsWith('q') ? 'null' : '0'};`);
  // `+` tells the optimizer a numeric constant is a number once, here, instead of checking it on every row.
  state.constants.forEach((value, k) => lines.push(typeof value === 'number' ? `const k${k} = +K[${k}];` : `const k${k} = K[${k}];`));
  state.perBatch.forEach((expression, k) => lines.push(`const b${k} = ${expression};`));
  for (let k = 0; k < outputs; k++) lines.push(`const o${k} = O[${k}];`);
  for (const output of exactOutputs) lines.push(`let xo${output} = undefined;`);
  return lines.join('\n');
}

const UNUSED_COLUMN: VectorData = new Float64Array(0);

/** The data of the columns the generated code reads; reading `data` of an unused 64-bit column would convert its whole batch. */
function usedColumnData(batch: ColumnBatch, used: ReadonlySet<number>): VectorData[] {
  return batch.vectors.map((vector, k) => (used.has(k) ? vector.data : UNUSED_COLUMN));
}

const NO_EXACT: readonly (BigInt64Array | undefined)[] = [];

/** The exact int64 values of the columns the slow path of generated code may read. */
function usedColumnExact(batch: ColumnBatch, used: ReadonlySet<number>): readonly (BigInt64Array | undefined)[] {
  return used.size === 0 ? NO_EXACT : batch.vectors.map((vector, k) => (used.has(k) ? vector.exact : undefined));
}

export interface CompiledFilter {
  readonly source: string;
  /** Writes the indexes of matching rows into `selection`; returns how many matched. */
  run(batch: ColumnBatch, rt: RuntimeHelpers, selection: Int32Array): number;
}

export function compileFilter(predicate: BoundExpr): CompiledFilter {
  const state = newEmitState();
  const condition = emitExpression(predicate, state);
  const source = `${prologue(state, 0)}\nlet k = 0;\nfor (let i = 0; i < n; i++) { sel[k] = i; k += (${condition}) ? 1 : 0; }\nreturn k;`;
  const loop = compileSource(source);
  const constants = state.constants;
  const used = state.usedColumns;
  const usedExact = state.usedExact;
  return {
    source,
    run: (batch, rt, selection) => loop(batch.rowCount, usedColumnData(batch, used), batch.vectors.map((vector) => vector.symbols), constants, rt, [], selection, usedColumnExact(batch, usedExact), []),
  };
}

export interface CompiledProjection {
  readonly source: string;
  run(batch: ColumnBatch, rt: RuntimeHelpers): Vector[];
}

/** Compiles expressions evaluated together over one batch; bare column references pass vectors through. */
export function compileProjection(exprs: readonly BoundExpr[]): CompiledProjection {
  const state = newEmitState();
  const computed: { index: number; type: ValueType }[] = [];
  const exactOutputs: number[] = [];
  const body: string[] = [];
  exprs.forEach((expr, k) => {
    if (expr.kind === 'column' || isExactConstant(expr)) return;
    const output = computed.length;
    if (isInt64Type(expr.type) && needsExactInt64(expr)) {
      body.push(emitInt64Store(`o${output}`, `xo${output}`, expr, state));
      exactOutputs.push(output);
    } else {
      const storeType: ValueType = expr.type === 'SYMBOL' ? 'STRING' : expr.type;
      body.push(emitStore(`o${output}`, emitExpression(expr, state), storeType));
    }
    computed.push({ index: k, type: expr.type });
  });
  const epilogue = exactOutputs.map((output) => `XO[${output}] = xo${output};\n`).join('');
  const source = `${prologue(state, computed.length, exactOutputs)}\nfor (let i = 0; i < n; i++) {\n${body.join('\n')}\n}\n${epilogue}return n;`;
  const loop = computed.length === 0 ? undefined : compileSource(source);
  const constants = state.constants;
  const used = state.usedColumns;
  const usedExact = state.usedExact;
  return {
    source,
    run(batch, rt) {
      const outputs = computed.map((entry) => allocateVectorData(entry.type === 'SYMBOL' ? 'STRING' : entry.type, batch.rowCount));
      const exact: (BigInt64Array | undefined)[] = [];
      if (loop !== undefined) {
        loop(batch.rowCount, usedColumnData(batch, used), batch.vectors.map((vector) => vector.symbols), constants, rt, outputs, new Int32Array(0), usedColumnExact(batch, usedExact), exact);
      }
      let next = 0;
      return exprs.map((expr): Vector => {
        if (expr.kind === 'column') return batch.vectors[expr.index];
        if (isExactConstant(expr)) return exactConstantVector(expr, batch.rowCount);
        const output = next++;
        const data = outputs[output];
        if (expr.type === 'SYMBOL') return dictionaryEncode(data as (string | null)[], batch.rowCount);
        const exactValues = exact[output];
        return exactValues === undefined ? { type: expr.type, data } : { type: expr.type, data, exact: exactValues };
      });
    },
  };
}

/** A 64-bit constant keeps its exact value (beyond ±2^53) by filling an exact vector instead of computing it. */
function isExactConstant(expr: BoundExpr): expr is Extract<BoundExpr, { kind: 'constant' }> & { exact: bigint } {
  return expr.kind === 'constant' && expr.exact !== undefined;
}

function exactConstantVector(expr: Extract<BoundExpr, { kind: 'constant' }> & { exact: bigint }, rowCount: number): Vector {
  return { type: expr.type, data: new Float64Array(rowCount).fill(Number(expr.exact)), exact: new BigInt64Array(rowCount).fill(expr.exact) };
}
