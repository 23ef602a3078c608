// The compiled-expression cache: literals travel in the constants array, never in the source, so statements
// that differ only in their literals share one compiled function; the cache is an LRU with a bound; and the
// shared function computes the right values for every literal, edge cases included.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import type { Expr } from '../../../../src/sql/syntax/ast.js';
import { bindExpression } from '../../../../src/sql/bind/bind-expression.js';
import { Scope } from '../../../../src/sql/bind/scope.js';
import type { ScopeColumn } from '../../../../src/sql/bind/scope.js';
import type { BoundExpr } from '../../../../src/sql/bind/bound.js';
import { compileCacheEntriesDefault, compileCacheStats, compileFilter, compileProjection, configureCompileCache } from '../../../../src/sql/codegen/compile.js';
import { createRuntime } from '../../../../src/sql/codegen/runtime.js';
import type { ColumnBatch, VectorData } from '../../../../src/sql/exec/batch.js';
import { sqlCompileChannel } from '../../../../src/core/diagnostics.js';
import type { SqlCompileEvent } from '../../../../src/core/diagnostics.js';
import { SqlError } from '../../../../src/core/errors.js';

const COLUMNS: readonly ScopeColumn[] = [
  { name: 'x', type: 'DOUBLE', qualifiers: ['t'] },
  { name: 'i', type: 'INT', qualifiers: ['t'] },
  { name: 's', type: 'STRING', qualifiers: ['t'] },
  { name: 'ts', type: 'TIMESTAMP', qualifiers: ['t'] },
];

const STRINGS = ["it's", 'back\\slash', 'new\nline', 'tab\tand "double"', 'ünïcødé 😀 ∑', '${k0}', '`tick`', '</script>', ''];
const DAY_MICROS = 86_400_000_000;
const JAN_5_2024 = Date.UTC(2024, 0, 5) * 1000;

/** Rows whose `s` values include every special string, so equality tests find each of them. */
function sampleBatch(): ColumnBatch {
  const texts: (string | null)[] = [...STRINGS, 'plain', null];
  const rows = texts.length;
  const x = Float64Array.from({ length: rows }, (_, k) => (k === 3 ? NaN : k * 1.5 - 4));
  const i = Int32Array.from({ length: rows }, (_, k) => (k === 4 ? -2147483648 : k - 5));
  const ts = Float64Array.from({ length: rows }, (_, k) => JAN_5_2024 + (k - 5) * (DAY_MICROS / 2));
  return { rowCount: rows, vectors: [{ type: 'DOUBLE', data: x }, { type: 'INT', data: i }, { type: 'STRING', data: texts }, { type: 'TIMESTAMP', data: ts }] };
}

function parseSelectItem(text: string): Expr {
  const statement = parseStatement(`select ${text} from t`);
  if (statement.kind !== 'query' || statement.query.kind !== 'select') throw new Error(`not a select: ${text}`);
  const item = statement.query.columns[0];
  if (item === undefined) throw new Error(`no select item: ${text}`);
  return item.expr;
}

function bind(text: string): BoundExpr {
  return bindExpression(parseSelectItem(text), { scope: new Scope(COLUMNS, false), clause: 'SELECT' });
}

/** SQL text of a string literal. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function filterRows(predicate: string): { rows: number[]; source: string } {
  const filter = compileFilter(bind(predicate));
  const batch = sampleBatch();
  const selection = new Int32Array(batch.rowCount);
  const count = filter.run(batch, createRuntime(0), selection);
  return { rows: Array.from(selection.subarray(0, count)), source: filter.source };
}

function project(expression: string): { values: unknown[]; source: string } {
  const projection = compileProjection([bind(expression)]);
  const batch = sampleBatch();
  const data = projection.run(batch, createRuntime(0))[0]?.data as VectorData;
  return { values: Array.from(data as ArrayLike<unknown>).slice(0, batch.rowCount), source: projection.source };
}

/** Runs `body` and returns how many functions it compiled and how many it reused. */
function counting(body: () => void): { compiled: number; reused: number } {
  const before = compileCacheStats();
  body();
  const after = compileCacheStats();
  return { compiled: after.compiled - before.compiled, reused: after.reused - before.reused };
}

test.serial('filters that differ only in their numbers share one compiled function and stay correct', (t) => {
  const literals = [0, 1, -7, 2.5, -0.0, 1e300, -1e-300, 123456789, 4.9e-324];
  const sources = new Set<string>();
  const x = sampleBatch().vectors[0]?.data as Float64Array;
  const counts = counting(() => {
    for (const literal of literals) {
      const { rows, source } = filterRows(`x > ${literal} and i < ${literal + 3}`);
      sources.add(source);
      const i = sampleBatch().vectors[1]?.data as Int32Array;
      const expected = [...x.keys()].filter((k) => (x[k] as number) > literal && i[k] !== -2147483648 && (i[k] as number) < literal + 3);
      t.deepEqual(rows, expected, `x > ${literal}`);
    }
  });
  t.is(sources.size, 1);
  t.is(counts.compiled, 1);
  t.is(counts.reused, literals.length - 1);
  t.false([...sources][0]?.includes('123456789'), 'no literal in the generated source');
});

test.serial('string literals with quotes, backslashes, newlines and unicode match exactly and never enter the source', (t) => {
  const counts = counting(() => {
    STRINGS.forEach((text, index) => {
      const { rows, source } = filterRows(`s = ${quoted(text)}`);
      t.deepEqual(rows, [index], JSON.stringify(text));
      if (text.length > 2) t.false(source.includes(text), `${JSON.stringify(text)} is not in the source`);
    });
  });
  t.is(counts.compiled, 1);
  const concatenated = counting(() => {
    for (const text of STRINGS) t.is(project(`concat(s, ${quoted(text)})`).values[9], `plain${text}`);
  });
  t.is(concatenated.compiled, 1);
});

test.serial('NaN, NULL, negative zero and large longs are values of one shared function', (t) => {
  const sum = counting(() => {
    t.true(project('x + NaN').values.every((value) => Number.isNaN(value)));
    t.true(project('x + cast(null as double)').values.every((value) => Number.isNaN(value)));
    t.deepEqual(project('x + 2.5').values.slice(0, 2), [-1.5, 0]);
  });
  t.is(sum.compiled, 1, 'NaN, NULL and a number are the same shape');
  // -0.0 used to print as (0) in the source; as a constant it keeps its sign.
  t.true(Object.is(project('x * -0.0').values[4], -0), '2 * -0.0 is -0');
  t.is(project('x / -0.0').values[4], -Infinity);
  const longs = [project('x + 9007199254740993'), project('x + -9223372036854775807'), project('x + 2.5')];
  t.is(longs[0]?.values[0], -4 + 9007199254740993);
  t.is(longs[1]?.values[0], -4 - 9223372036854775807);
  t.is(new Set(longs.map((result) => result.source)).size, 1, 'a LONG literal beyond 2^53 is a constant like any other');
});

test.serial('timestamps, intervals, IN lists, patterns and casts share their functions too', (t) => {
  const shapes: readonly (readonly [string, string])[] = [
    ["ts > '2024-01-03T00:00:00.000000Z'", "ts > '2024-01-06T12:00:00.000000Z'"],
    ["ts in '2024-01-05'", "ts in '2024-01-07'"],
    ['x in (1, 2.5, 4)', 'x in (-4, 7, 9)'],
    ["s like 'p%'", "s like '%ck%'"],
    ["s ~ 'a.n'", "s ~ '^[bt]'"],
    ["dateadd('d', 3, ts) > '2024-01-09'", "dateadd('h', -30, ts) > '2024-01-01'"],
    ['x > 1 and cast(s as int) > 0', 'x > 1000 and cast(s as int) > 0'],
  ];
  for (const [first, second] of shapes) {
    const counts = counting(() => {
      const a = compileFilter(bind(first));
      const b = compileFilter(bind(second));
      t.is(a.source, b.source, `${first} / ${second}`);
    });
    t.true(counts.compiled <= 1, `${first} / ${second} compiled ${counts.compiled}`);
  }
  // Row k has x = 1.5k - 4 (row 3 NULL) and ts = 2024-01-05 + (k - 5) half days.
  t.deepEqual(filterRows("ts in '2024-01-05'").rows, [5, 6]);
  t.deepEqual(filterRows('x in (-4, 2, 9.5)').rows, [0, 4, 9]);
  t.deepEqual(filterRows("s like '%ck%'").rows, [1, 6]);
  t.deepEqual(filterRows("dateadd('d', 1, ts) = '2024-01-06'").rows, [5]);
});

test.serial('a cast failure reports the position of its own statement, which is a constant of the shared function', (t) => {
  const positions = ['x > 1 and cast(s as int) > 0', 'x > -100000 and cast(s as int) > 0'].map((text) => {
    const filter = compileFilter(bind(text));
    const error = t.throws(() => filter.run(sampleBatch(), createRuntime(0), new Int32Array(16)), { instanceOf: SqlError });
    return { source: filter.source, position: error?.position };
  });
  t.is(positions[0]?.source, positions[1]?.source);
  t.is((positions[1]?.position ?? 0) - (positions[0]?.position ?? 0), 'x > -100000'.length - 'x > 1'.length);
});

test.serial('the cache is an LRU: beyond its capacity the least recently used function is dropped and compiled again', (t) => {
  const events: SqlCompileEvent[] = [];
  const unsubscribe = sqlCompileChannel.subscribe((event) => events.push(event));
  configureCompileCache(3);
  try {
    const shape = (k: number): string => `x > 1${' + x'.repeat(k)}`;
    const fill = counting(() => {
      for (let k = 1; k <= 5; k++) compileFilter(bind(shape(k)));
    });
    t.is(fill.compiled, 5);
    t.is(compileCacheStats().entries, 3);
    t.is(counting(() => compileFilter(bind(shape(5)))).compiled, 0, 'the newest is kept');
    t.is(counting(() => compileFilter(bind(shape(3)))).compiled, 0, 'the third newest is kept');
    t.is(counting(() => compileFilter(bind(shape(1)))).compiled, 1, 'the oldest was evicted');
    t.is(counting(() => compileFilter(bind(shape(3)))).compiled, 0, 'a hit refreshed it, so shape 4 was evicted instead');
    t.is(counting(() => compileFilter(bind(shape(4)))).compiled, 1);
    t.true(events.some((event) => event.kind === 'compiled' && event.evicted === 1 && event.cacheEntries === 3));
    t.true(events.some((event) => event.kind === 'reused'));
  } finally {
    unsubscribe();
    configureCompileCache(compileCacheEntriesDefault);
  }
});

test('the generated source reads every constant into a local before the row loop', (t) => {
  t.is(compileFilter(bind("x > 1.5 and s = 'a''b'")).source, [
    "'use strict';",
    'const v0 = V[0];',
    'const v2 = V[2];',
    'const k0 = +K[0];',
    'const k1 = K[1];',
    'let k = 0;',
    'for (let i = 0; i < n; i++) { sel[k] = i; k += (((v0[i] > k0) && (v2[i] === k1))) ? 1 : 0; }',
    'return k;',
  ].join('\n'));
  t.is(compileProjection([bind("coalesce(i, 7) + cast(s as int)")]).source, [
    "'use strict';",
    'const v1 = V[1];',
    'const v2 = V[2];',
    'const k0 = +K[0];',
    'const k1 = +K[1];',
    'const o0 = O[0];',
    'for (let i = 0; i < n; i++) {',
    "{ const r = (rt.coalesceNum((v1[i] === -2147483648 ? NaN : v1[i]), k0) + rt.parseNumber(v2[i], 'INT', 'STRING', k1)); o0[i] = r !== r ? -2147483648 : r | 0; }",
    '}',
    'return n;',
  ].join('\n'));
});
