// The predicate push-down pass: a filter over a projection that only picks columns, or over a sort, moves
// below it with its column references rewritten; a projection computing a column the filter reads stops it.
import test from 'ava';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import type { BoundExpr } from '../../../../src/sql/bind/bound.js';
import { filterPlan, projectPlan, scanPlan, sortPlan } from '../../../../src/sql/plan/plan-builders.js';
import { predicatePushDownPass } from '../../../../src/sql/optimize/predicate-push-down.js';
import { boundWhere, explainAfterPass, fakeSnapshot } from '../../../helpers/plan-fixtures.js';

const COLUMNS = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'x', type: 'LONG' }] as const;
const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1]);
const column = (index: number, type: 'TIMESTAMP' | 'LONG'): BoundExpr => ({ kind: 'column', type, index, position: 0 });
/** `select x, ts from t`: the columns swapped and renamed. */
const swapped = projectPlan(scan, [column(1, 'LONG'), column(0, 'TIMESTAMP')], ['y', 'at'], 1);
const SWAPPED_COLUMNS = [{ name: 'y', type: 'LONG' }, { name: 'at', type: 'TIMESTAMP' }] as const;

function optimized(plan: LogicalPlan): string[] {
  return explainAfterPass(predicatePushDownPass, plan);
}

test('a filter over a projection of columns moves below it, over the input columns', (t) => {
  t.deepEqual(optimized(filterPlan(swapped, boundWhere("at in '2024-01-02' and y > 1", SWAPPED_COLUMNS))), [
    'Project x as y, ts as at',
    '    Filter and(in_interval(ts, [2024-01-02T00:00:00.000000Z, 2024-01-02T23:59:59.999999Z]), >(x, 1))',
    '        Scan t [ts, x]',
  ]);
});

test('a filter over a sort moves below it', (t) => {
  const sorted = sortPlan(scan, [{ index: 1, descending: true }], undefined);
  t.deepEqual(optimized(filterPlan(sorted, boundWhere('x > 1', COLUMNS))), ['Sort [x desc]', '    Filter >(x, 1)', '        Scan t [ts, x]']);
});

test('a computed column the filter reads, or a sort cut by LIMIT, keeps the filter above', (t) => {
  const computed = projectPlan(scan, [column(0, 'TIMESTAMP'), { kind: 'call', type: 'LONG', name: 'abs', args: [column(1, 'LONG')], emit: (args) => `Math.abs(${args[0] ?? ''})`, position: 0 }], ['ts', 'y'], 0);
  t.is(optimized(filterPlan(computed, boundWhere('y > 1', [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'y', type: 'LONG' }])))[0], 'Filter >(y, 1)');
  const topRows = sortPlan(scan, [{ index: 1, descending: false }], 5);
  t.is(optimized(filterPlan(topRows, boundWhere('x > 1', COLUMNS)))[0], 'Filter >(x, 1)');
});

test('a predicate reading a symbol column outside its arguments (IN over a symbol) keeps the filter above', (t) => {
  const symbols = scanPlan(fakeSnapshot('s', [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'k', type: 'SYMBOL' }], 0), [0, 1]);
  const renamed = projectPlan(symbols, [column(1, 'LONG'), column(0, 'TIMESTAMP')].map((expr, k) => (k === 0 ? { ...expr, type: 'SYMBOL' as const } : expr)), ['kk', 'ts'], 1);
  const filtered = filterPlan(renamed, boundWhere("kk in ('a', 'b')", [{ name: 'kk', type: 'SYMBOL' }, { name: 'ts', type: 'TIMESTAMP' }]));
  t.is(optimized(filtered)[0], 'Filter in()');
});
