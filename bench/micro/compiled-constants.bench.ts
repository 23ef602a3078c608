// Compiled-expression micro-bench: the filter `x > lit and y < lit` as svc compiles it (literals in the constants
// array, read into locals before the row loop) beside the same source with the literals spliced in (how svc
// compiled before the compile cache was keyed by shape), in rows/s and CPU ns/row; then the cost of preparing
// 2,000 statements that differ only in their literals, reusing the cached function versus also paying one
// `new Function` each (what every such statement cost before).
import { parseStatement } from '../../src/sql/syntax/parser.js';
import { bindExpression } from '../../src/sql/bind/bind-expression.js';
import { Scope } from '../../src/sql/bind/scope.js';
import type { BoundExpr } from '../../src/sql/bind/bound.js';
import { compileFilter } from '../../src/sql/codegen/compile.js';
import type { CompiledFilter } from '../../src/sql/codegen/compile.js';
import { createRuntime } from '../../src/sql/codegen/runtime.js';
import type { ColumnBatch } from '../../src/sql/exec/batch.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 20_000_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const batchRows = 65_536;

function bind(predicate: string): BoundExpr {
  const statement = parseStatement(`select ${predicate} from t`);
  if (statement.kind !== 'query' || statement.query.kind !== 'select') throw new Error('not a select');
  const expr = statement.query.columns[0]?.expr;
  if (expr === undefined) throw new Error('no expression');
  const scope = new Scope([{ name: 'x', type: 'DOUBLE', qualifiers: [] }, { name: 'y', type: 'INT', qualifiers: [] }], false);
  return bindExpression(expr, { scope, clause: 'WHERE' });
}

/** The compiled filter's source with every constant written into the code as a literal, compiled without the cache. */
function splicedFilter(filter: CompiledFilter, constants: readonly number[]): (batch: ColumnBatch, selection: Int32Array) => number {
  const source = filter.source.replace(/^const k\d+ = \+?K\[\d+\];$/gm, '').replace(/\bk(\d+)\b/g, (_, index: string) => `(${constants[Number(index)]})`);
  const loop = new Function('n', 'V', 'S', 'K', 'rt', 'O', 'sel', source) as (n: number, v: unknown[], s: unknown[], k: unknown[], rt: unknown, o: unknown[], sel: Int32Array) => number;
  const rt = createRuntime(0);
  return (batch, selection) => loop(batch.rowCount, batch.vectors.map((vector) => vector.data), [], [], rt, [], selection);
}

function batches(): ColumnBatch[] {
  const list: ColumnBatch[] = [];
  for (let start = 0; start < rowCount; start += batchRows) {
    const rows = Math.min(batchRows, rowCount - start);
    const x = Float64Array.from({ length: rows }, (_, k) => ((start + k) * 7919) % 1000);
    const y = Int32Array.from({ length: rows }, (_, k) => ((start + k) * 104729) % 1000);
    list.push({ rowCount: rows, vectors: [{ type: 'DOUBLE', data: x }, { type: 'INT', data: y }] });
  }
  return list;
}

interface Timing {
  readonly wallMs: number;
  readonly cpuNsPerRow: number;
  readonly matched: number;
}

function timeScan(data: readonly ColumnBatch[], run: (batch: ColumnBatch, selection: Int32Array) => number): Timing {
  const selection = new Int32Array(batchRows);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let matched = 0;
  for (const batch of data) matched += run(batch, selection);
  const used = process.cpuUsage(cpu);
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuNsPerRow: ((used.user + used.system) * 1000) / rowCount, matched };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The fastest round is the intrinsic cost on a shared machine; the median shows how noisy the run was. */
function report(name: string, timings: readonly Timing[]): void {
  const walls = timings.map((timing) => timing.wallMs);
  const cpu = timings.map((timing) => timing.cpuNsPerRow);
  const rate = (ms: number): string => ((rowCount / ms) * 1000 / 1e6).toFixed(1);
  process.stdout.write(`| ${name} | ${rate(Math.min(...walls))} / ${rate(median(walls))} M rows/s | ${Math.min(...cpu).toFixed(2)} / ${median(cpu).toFixed(2)} ns/row |\n`);
}

const data = batches();
const constantsFilter = compileFilter(bind('x > 500.5 and y < 250'));
const spliced = splicedFilter(constantsFilter, [500.5, 250]);
const rt = createRuntime(0);
const withConstants: Timing[] = [];
const withSplicedLiterals: Timing[] = [];
for (let round = 0; round < rounds; round++) {
  // Alternating which goes first spreads a noisy neighbour over both variants.
  if (round % 2 === 0) withConstants.push(timeScan(data, (batch, selection) => constantsFilter.run(batch, rt, selection)));
  withSplicedLiterals.push(timeScan(data, spliced));
  if (round % 2 === 1) withConstants.push(timeScan(data, (batch, selection) => constantsFilter.run(batch, rt, selection)));
}
if (withConstants[0]?.matched !== withSplicedLiterals[0]?.matched) throw new Error('the two filters disagree');
process.stdout.write(`\nCompiled filter x > 500.5 and y < 250 over ${rowCount} rows, ${rounds} rounds (shared machine: compare the two lines, not runs)\n`);
process.stdout.write('| variant | rate, best / median | CPU, best / median |\n|---|---:|---:|\n');
report('constants array, hoisted (svc)', withConstants);
report('literals spliced into the source', withSplicedLiterals);

const statements = 2000;
const prepared = (make: (k: number) => unknown): number => {
  const started = process.hrtime.bigint();
  for (let k = 0; k < statements; k++) make(k);
  return Number(process.hrtime.bigint() - started) / 1e6 / statements;
};
const cachedMs = prepared((k) => compileFilter(bind(`x > ${k + 0.5} and y < ${k}`)));
const freshMs = prepared((k) => splicedFilter(compileFilter(bind(`x > ${k + 0.5} and y < ${k}`)), [k + 0.5, k]));
process.stdout.write(`\nPreparing ${statements} statements that differ only in literals (per statement)\n| variant | time |\n|---|---:|\n`);
process.stdout.write(`| bind + cached function (svc) | ${(cachedMs * 1000).toFixed(1)} µs |\n| bind + new Function per statement (before) | ${(freshMs * 1000).toFixed(1)} µs |\n`);
