// The constant-folding pass with the evaluator the server uses: calls over constants become constants (in
// filters, projections and LATEST ON predicates), so the interval pass sees a timestamp bound; calls that read
// the clock or a random generator, and calls that fail, stay as written. Every output plan keeps the invariants.
import test from 'ava';
import type { LogicalPlan } from '../../../../src/sql/plan/logical-plan.js';
import { filterPlan, latestPlan, projectPlan, scanPlan } from '../../../../src/sql/plan/plan-builders.js';
import { constantFoldingPass } from '../../../../src/sql/optimize/constant-folding.js';
import { intervalScanPass } from '../../../../src/sql/optimize/interval-scan.js';
import { evaluateConstantCall } from '../../../../src/sql/exec/evaluate-constant.js';
import { assertPlanInvariants } from '../../../../src/sql/plan/plan-invariants.js';
import { explainLogical } from '../../../../src/sql/plan/explain-logical.js';
import type { FakeColumn } from '../../../helpers/plan-fixtures.js';
import { boundItem, boundWhere, explainAfterPass, fakeSnapshot } from '../../../helpers/plan-fixtures.js';

const COLUMNS: readonly FakeColumn[] = [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'price', type: 'DOUBLE' }, { name: 'k', type: 'SYMBOL' }];
const scan = scanPlan(fakeSnapshot('t', COLUMNS, 0), [0, 1, 2]);
const pass = constantFoldingPass(evaluateConstantCall);
const JAN_4_MICROS = Date.UTC(2024, 0, 4) * 1000;

function filtered(where: string): string[] {
  return explainAfterPass(pass, filterPlan(scan, boundWhere(where, COLUMNS)));
}

test('arithmetic over literals is computed once', (t) => {
  t.is(filtered('price > 2 * 250')[0], 'Filter >(price, 500)');
  t.is(filtered('price + (1 + 2) * 10 > 0')[0], 'Filter >(+(price, 30), 0)');
});

test('date functions and casts over literals fold to timestamps', (t) => {
  t.is(filtered("ts > dateadd('d', -1, '2024-01-05'::timestamp)")[0], `Filter >(ts, ${JAN_4_MICROS})`);
  t.is(filtered("ts >= cast('2024-01-04' as timestamp) + 1000")[0], `Filter >=(ts, ${JAN_4_MICROS + 1000})`);
});

test('a folded bound reaches the interval pass as scan ranges, which the call itself does not', (t) => {
  const written: LogicalPlan = filterPlan(scan, boundWhere("ts >= dateadd('d', -1, '2024-01-03'::timestamp) and price > 1", COLUMNS));
  let plan: LogicalPlan = written;
  for (const next of [pass, intervalScanPass]) {
    plan = next.apply(plan);
    assertPlanInvariants(plan);
  }
  t.deepEqual(explainLogical(plan), ['Filter >(price, 1)', '    Scan t [ts, price, k] intervals: [2024-01-02T00:00:00.000000Z, MAX] ranges: 2']);
  t.is(explainLogical(intervalScanPass.apply(written)).length, 2);
  t.regex(explainLogical(intervalScanPass.apply(written))[1] ?? '', /^ {4}Scan t \[ts, price, k\]$/);
});

test('the clock and random generators are never folded, nor what reads them', (t) => {
  t.is(filtered("ts > dateadd('d', -1, now())")[0], "Filter >(ts, dateadd('d', -1, now()))");
  t.is(filtered('ts < systimestamp()')[0], 'Filter <(ts, systimestamp())');
  t.is(filtered('price > rnd_double() * 2')[0], 'Filter >(price, *(rnd_double(), 2))');
});

test('a call that fails at run time stays, so its error is raised only if a row evaluates it', (t) => {
  t.is(filtered("ts > cast('not a number' as long)")[0], "Filter >(ts, cast('not a number'))");
});

test('projections and LATEST ON predicates fold too', (t) => {
  const projected = projectPlan(scan, [boundItem('1 + 1', COLUMNS), boundItem('price * (3 - 1)', COLUMNS)], ['two', 'twice'], -1);
  t.is(explainAfterPass(pass, projected)[0], 'Project 2 as two, *(price, 2) as twice');
  const latest = latestPlan(scan, { predicate: boundWhere('price > 10.0 / 4', COLUMNS), keySlots: [2], timestampSlot: 0, designated: true });
  t.is(explainAfterPass(pass, latest)[0], 'Latest keys: [k] where >(price, 2.5)');
});

test('a plan without foldable calls is returned as it is', (t) => {
  const plan = filterPlan(scan, boundWhere("price > 3 and k = 'a'", COLUMNS));
  t.is(pass.apply(plan), plan);
});
