// Exact int64 expressions in compiled code: batches whose values and results stay within ±(2^53 - 1) take the
// double path and produce no exact values; rows beyond it get exact BigInt results, comparisons and casts.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { bindExpression } from '../../../../src/sql/bind/bind-expression.js';
import { Scope } from '../../../../src/sql/bind/scope.js';
import type { ScopeColumn } from '../../../../src/sql/bind/scope.js';
import type { BoundExpr } from '../../../../src/sql/bind/bound.js';
import { compileFilter, compileProjection } from '../../../../src/sql/codegen/compile.js';
import { createRuntime } from '../../../../src/sql/codegen/runtime.js';
import type { ColumnBatch, Vector } from '../../../../src/sql/exec/batch.js';

const COLUMNS: readonly ScopeColumn[] = [{ name: 'l', type: 'LONG', qualifiers: ['t'] }, { name: 'i', type: 'INT', qualifiers: ['t'] }];
const NULL = -9223372036854775808n;

function bind(text: string): BoundExpr {
  const statement = parseStatement(`select ${text} from t`);
  if (statement.kind !== 'query' || statement.query.kind !== 'select') throw new Error(`not a select: ${text}`);
  const item = statement.query.columns[0];
  if (item === undefined) throw new Error(`no select item: ${text}`);
  return bindExpression(item.expr, { scope: new Scope(COLUMNS, false), clause: 'SELECT' });
}

/** A batch of LONG column `l` (exact values and their nearest doubles) beside INT column `i`. */
function batchOf(longs: readonly bigint[]): ColumnBatch {
  const exact = BigInt64Array.from(longs);
  const data = Float64Array.from(longs, (value) => (value === NULL ? NaN : Number(value)));
  const ints = Int32Array.from(longs, (_, k) => k + 1);
  return { rowCount: longs.length, vectors: [{ type: 'LONG', data, exact }, { type: 'INT', data: ints }] };
}

function project(expression: string, longs: readonly bigint[]): Vector {
  return compileProjection([bind(expression)]).run(batchOf(longs), createRuntime(0))[0] as Vector;
}

function filter(predicate: string, longs: readonly bigint[]): number[] {
  const batch = batchOf(longs);
  const selection = new Int32Array(batch.rowCount);
  const count = compileFilter(bind(predicate)).run(batch, createRuntime(0), selection);
  return Array.from(selection.subarray(0, count));
}

test('a batch within ±2^53 computes in doubles and carries no exact values', (t) => {
  const result = project('l * 3 + i', [1n, -2n, NULL, 1000000000000n]);
  t.is(result.exact, undefined);
  t.deepEqual(Array.from(result.data as Float64Array), [4, -4, NaN, 3000000000004]);
});

test('rows beyond 2^53 get exact results, and rows before them are filled in', (t) => {
  const result = project('l + 1', [5n, 9007199254740993n, NULL, 9223372036854775807n, 7n]);
  t.deepEqual(Array.from(result.exact ?? []), [6n, 9007199254740994n, NULL, NULL, 8n]);
  t.is((result.data as Float64Array)[1], 9007199254740994);
  t.true(Number.isNaN((result.data as Float64Array)[3] as number));
});

test('an intermediate overflow beyond 2^53 is recomputed exactly even when the result is small', (t) => {
  // (2^53 + 1) * 10^9 wraps to 4611686019427387904, then divides.
  const result = project('l * 1000000000 / 1000000000', [9007199254740993n]);
  t.deepEqual(Array.from(result.exact ?? []), [4611686019n]);
});

test('comparisons and casts decide on exact values', (t) => {
  const longs = [9007199254740992n, 9007199254740993n, NULL, 9007199254740995n];
  t.deepEqual(filter('l = 9007199254740993', longs), [1]);
  t.deepEqual(filter('l > 9007199254740992', longs), [1, 3]);
  t.deepEqual(filter('l + 2 = 9007199254740995', longs), [1]);
  t.deepEqual(filter('l = null', longs), [2]);
  t.deepEqual(Array.from(project('cast(l as string)', longs).data as unknown[]), ['9007199254740992', '9007199254740993', null, '9007199254740995']);
  t.deepEqual(Array.from(project('cast(l as int)', longs).data as Int32Array), [0, 1, -2147483648, 3]);
});

test('generated source keeps the exact path out of the safe-row branch', (t) => {
  const source = compileProjection([bind('l + i')]).source;
  t.regex(source, /9007199254740991/);
  t.regex(source, /rt\.ladd\(/);
});
