// Queries: select lists and aliases, FROM sources and joins, WHERE / LATEST ON / SAMPLE BY / GROUP BY / ORDER BY /
// LIMIT, bare table queries, CTEs and set operations.
import test from 'ava';
import type { SelectQuery } from '../../../../src/sql/syntax/ast.js';
import { query, renderExpr, renderSource, select } from './render.js';

function columns(q: SelectQuery): string {
  return q.columns.map((c) => `${renderExpr(c.expr)}${c.alias === undefined ? '' : ` as ${c.alias.name}`}`).join(', ');
}

const SELECT_LISTS: [string, string][] = [
  ['select a b from t', 'a as b'],
  ['select a as b, c from t', 'a as b, c'],
  ['select a "my b", c \'s\' from t', 'a as my b, c as s'],
  ['select a as "from" from t', 'a as from'],
  ['select *, a from t', '*, a'],
  ['select t.*, u.x from t join u on t.id = u.id', 't.*, u.x'],
  ['select count(*) c, sum(x) from t', 'count(*) as c, sum(x)'],
  ['select a, from t', 'a'],
  ['select 1', '1'],
  ['select 1 one, 2', '1 as one, 2'],
  ['select distinct a from t', 'a'],
];

for (const [sql, expected] of SELECT_LISTS) {
  test(`select list: ${sql}`, (t) => t.is(columns(select(sql)), expected));
}

test('DISTINCT is recorded', (t) => {
  t.true(select('select distinct a from t').distinct);
  t.false(select('select a from t').distinct);
});

test('select without FROM has no source', (t) => {
  t.is(select('select 1').from, undefined);
});

const SOURCES: [string, string][] = [
  ['select * from trades', 'trades'],
  ['select * from trades t', 'trades t'],
  ['select * from trades as t', 'trades t'],
  ['select * from "My Table" "x"', 'My Table x'],
  ["select * from 'trades'", 'trades'],
  ['select * from public.trades', 'trades'],
  ['select * from trades timestamp(ts)', 'trades ts(ts)'],
  ['select * from (select * from t) x timestamp(ts)', '(query) x ts(ts)'],
  ['select * from (select * from t)', '(query)'],
  ['select * from long_sequence(10) x', 'long_sequence(10) x'],
  ['select * from tables()', 'tables()'],
  ["select * from table_columns('t')", "table_columns('t')"],
  ['select * from a join b on a.id = b.id', '(inner a b on (= a.id b.id))'],
  ['select * from a inner join b on x', '(inner a b using(x))'],
  ['select * from a left join b on (x, y)', '(left a b using(x, y))'],
  ['select * from a left outer join b using (x)', '(left a b using(x))'],
  ['select * from a right join b on (a.x = b.x) and a.y > 1', '(right a b on (and (= a.x b.x) (> a.y 1)))'],
  ['select * from a full outer join b on a.x = b.x', '(full a b on (= a.x b.x))'],
  ['select * from a cross join b', '(cross a b)'],
  ['select * from a, b, c', '(cross (cross a b) c)'],
  ['select * from trades t asof join quotes q on (sym)', '(asof trades t quotes q using(sym))'],
  ['select * from trades asof join quotes', '(asof trades quotes)'],
  ['select * from trades asof join quotes on sym tolerance 1s', '(asof trades quotes using(sym) tolerance 1s)'],
  ['select * from trades lt join quotes tolerance 10 m', '(lt trades quotes tolerance 10m)'],
  ['select * from a splice join b', '(splice a b)'],
  ['select * from a join b on a.id = b.id asof join c', '(asof (inner a b on (= a.id b.id)) c)'],
];

for (const [sql, expected] of SOURCES) {
  test(`from: ${sql}`, (t) => {
    const from = select(sql).from;
    t.is(from === undefined ? 'none' : renderSource(from), expected);
  });
}

test('join node position is its first join keyword', (t) => {
  const from = select('select * from a left join b on x').from;
  t.is(from?.position, 16);
});

test('clauses in QuestDB order: WHERE, LATEST ON, SAMPLE BY, GROUP BY, HAVING, ORDER BY, LIMIT', (t) => {
  const q = select('select sym, avg(p) from t where p > 0 latest on ts partition by sym sample by 1h group by sym having avg(p) > 1 order by sym limit 5');
  t.is(renderExpr(q.where ?? { kind: 'star', position: 0 }), '(> p 0)');
  t.like(q.latestOn, { timestamp: { name: 'ts' } });
  t.is(q.latestOn?.partitionBy.map(renderExpr).join(), 'sym');
  t.like(q.sampleBy, { count: 1, unit: 'h' });
  t.is(q.groupBy.map(renderExpr).join(), 'sym');
  t.is(q.having === undefined ? '' : renderExpr(q.having), '(> avg(p) 1)');
  t.is(q.orderBy.map((o) => renderExpr(o.expr)).join(), 'sym');
  t.is(q.limit === undefined ? '' : renderExpr(q.limit.lo), '5');
});

test('legacy LATEST BY after the table', (t) => {
  const q = select('select * from t latest by sym, exch where x > 1');
  t.is(q.latestOn?.timestamp, undefined);
  t.is(q.latestOn?.partitionBy.map(renderExpr).join(), 'sym,exch');
  t.truthy(q.where);
});

const SAMPLE_BY: [string, Record<string, unknown>][] = [
  ['select avg(p) from t sample by 15m', { count: 15, unit: 'm', unitPosition: 33, align: 'calendar', fill: [] }],
  ['select avg(p) from t sample by 1M', { count: 1, unit: 'M' }],
  ['select avg(p) from t sample by 2 d', { count: 2, unit: 'd', unitPosition: 33 }],
  ['select avg(p) from t sample by h', { count: 1, unit: 'h' }],
  ['select avg(p) from t sample by 1h align to first observation', { align: 'firstObservation' }],
  ['select avg(p) from t sample by 1d align to calendar time zone \'Europe/Berlin\' with offset \'01:00\'',
    { align: 'calendar', timeZone: { value: 'Europe/Berlin' }, offset: { value: '01:00' } }],
  ['select avg(p) from t sample by 1h fill(prev) align to calendar', { fill: [{ kind: 'prev' }] }],
  ['select avg(p) from t sample by 1h align to calendar fill(null, linear, none)',
    { fill: [{ kind: 'null' }, { kind: 'linear' }, { kind: 'none' }] }],
  ['select avg(p) from t sample by 1h fill(0, -1.5)', { fill: [{ kind: 'value', value: { value: 0 } }, { kind: 'value' }] }],
  ["select avg(p) from t sample by 1h from '2024-01-01' to '2024-02-01' fill(null)",
    { from: { value: '2024-01-01' }, to: { value: '2024-02-01' }, fill: [{ kind: 'null' }] }],
];

for (const [sql, expected] of SAMPLE_BY) {
  test(`sample by: ${sql}`, (t) => t.like(select(sql).sampleBy, expected));
}

const ORDER_LIMIT: [string, string][] = [
  ['select * from t order by a, b desc, c asc nulls first, d desc nulls last', 'a,b desc,c nulls first,d desc nulls last'],
  ['select * from t order by 1', '1'],
];

for (const [sql, expected] of ORDER_LIMIT) {
  test(`order by: ${sql}`, (t) => {
    const items = select(sql).orderBy;
    t.is(items.map((o) => `${renderExpr(o.expr)}${o.descending ? ' desc' : ''}${o.nulls === undefined ? '' : ` nulls ${o.nulls}`}`).join(), expected);
  });
}

const LIMITS: [string, string][] = [
  ['select * from t limit 10', '10'],
  ['select * from t limit -10', '(- 10)'],
  ['select * from t limit 2, 5', '2..5'],
  ['select * from t limit -5, -2', '(- 5)..(- 2)'],
];

for (const [sql, expected] of LIMITS) {
  test(`limit: ${sql}`, (t) => {
    const limit = select(sql).limit;
    t.is(limit === undefined ? 'none' : `${renderExpr(limit.lo)}${limit.hi === undefined ? '' : `..${renderExpr(limit.hi)}`}`, expected);
  });
}

const BARE: [string, string][] = [
  ['trades', 'trades'],
  ['trades t where x > 1', 'trades t'],
  ['"trades"', 'trades'],
  ['trades t asof join quotes q', '(asof trades t quotes q)'],
  ['(select * from t) where x > 1', '(query)'],
];

for (const [sql, expected] of BARE) {
  test(`bare table query: ${sql}`, (t) => {
    const q = select(sql);
    t.is(columns(q), '*');
    t.is(q.from === undefined ? 'none' : renderSource(q.from), expected);
  });
}

test('bare table query keeps WHERE, ORDER BY and LIMIT', (t) => {
  const q = select('trades where price > 10 order by ts desc limit 3');
  t.is(q.where === undefined ? '' : renderExpr(q.where), '(> price 10)');
  t.is(q.orderBy.length, 1);
  t.truthy(q.limit);
});

test('WITH attaches CTEs to the query', (t) => {
  const q = select('with a as (select 1 x), b as (select * from a) select * from b');
  t.deepEqual(q.with.map((cte) => cte.name.name), ['a', 'b']);
  t.is(q.position, 0);
  t.like(q.from, { kind: 'table', name: 'b' });
});

test('set operations are left-associative and INTERSECT binds tighter', (t) => {
  const q = query('select 1 union all select 2 except select 3 intersect select 4');
  t.like(q, { kind: 'setOperation', op: 'except', all: false, left: { op: 'union', all: true }, right: { op: 'intersect' } });
});

test('ORDER BY and LIMIT after the last operand belong to the set operation', (t) => {
  const q = query('select a from t union select b from u order by a limit 5');
  t.like(q, { kind: 'setOperation', position: 16, orderBy: [{ descending: false }], limit: { position: 49 } });
  t.like(q.kind === 'setOperation' ? q.right : undefined, { orderBy: [] });
  t.is(q.kind === 'setOperation' && q.right.kind === 'select' ? q.right.limit : 'x', undefined);
});

test('parenthesised operands keep their own ORDER BY / LIMIT inside a subquery', (t) => {
  const q = query('(select a from t order by a limit 1) union all (select a from u limit 1)');
  t.like(q, { kind: 'setOperation', all: true, left: { from: { kind: 'subquerySource' } }, right: { from: { kind: 'subquerySource' } } });
  t.is(q.limit, undefined);
});

test('WITH over a set operation attaches to the set operation', (t) => {
  const q = query('with a as (select 1 x) select * from a union select 2');
  t.like(q, { kind: 'setOperation', with: [{ name: { name: 'a' } }] });
});

test('keywords QuestDB allows as names work as table and column names', (t) => {
  const q = select('select timestamp, symbol from day where year > 2020 order by timestamp');
  t.is(columns(q), 'timestamp, symbol');
  t.like(q.from, { kind: 'table', name: 'day' });
});

test('a trailing semicolon is accepted', (t) => {
  t.is(columns(select('select a from t;')), 'a');
  t.is(columns(select('select a from t ; -- done')), 'a');
});
