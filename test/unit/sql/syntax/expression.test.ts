// Expressions: precedence and associativity, operators, literals, CASE/CAST/IN/BETWEEN/IS, calls, windows,
// arrays, and node positions. Each case is `SELECT <expr>` → the rendered first select item.
import test from 'ava';
import { expr, select, stringify } from './render.js';

const PRECEDENCE: [string, string][] = [
  ['a or b and c', '(or a (and b c))'],
  ['a and b or c', '(or (and a b) c)'],
  ['not a = b', '(not (= a b))'],
  ['not a and b', '(and (not a) b)'],
  ['y = false and not x = true', '(and (= y false) (not (= x true)))'],
  ['-x::int', '(- (:: x INT))'],
  ['- - x', '(- (- x))'],
  ['~x & 1', '(& (~ x) 1)'],
  ['1 + 2 * 3', '(+ 1 (* 2 3))'],
  ['1 - 2 - 3', '(- (- 1 2) 3)'],
  ['8 / 4 % 3', '(% (/ 8 4) 3)'],
  ["a || 'x' || b", "(|| (|| a 'x') b)"],
  ['a + b || c', '(|| (+ a b) c)'],
  ['a | b ^ c & d', '(| a (^ b (& c d)))'],
  ['a = b | c', '(= a (| b c))'],
  ['a < b = c', '(= (< a b) c)'],
  ['(a or b) and c', '(and (or a b) c)'],
  ['a <> b', '(!= a b)'],
  ["s ~ '^a' and s !~ 'b$'", "(and (~ s '^a') (!~ s 'b$'))"],
  ['x::double * 2', '(* (:: x DOUBLE) 2)'],
  ['a = not b', '(= a (not b))'],
];

for (const [text, expected] of PRECEDENCE) {
  test(`precedence: ${text}`, (t) => t.is(expr(text), expected));
}

const PREDICATES: [string, string][] = [
  ["x in ('a', 'b')", "(in x ['a', 'b'])"],
  ['x not in (1, 2)', '(not in x [1, 2])'],
  ["ts in '2024-01'", "(in ts ['2024-01'])"],
  ["ts not in '2024'", "(not in ts ['2024'])"],
  ['x in (select y from t)', '(in x subquery)'],
  ['x between 1 and 2 and y', '(and (between x 1 2) y)'],
  ['x not between -1 and 2', '(not between x (- 1) 2)'],
  ["s like 'a%'", "(like s 'a%')"],
  ["s not ilike 'A%'", "(not ilike s 'A%')"],
  ['x is null', '(is null x)'],
  ['x is not null or y', '(or (is not null x) y)'],
  ['b is true', '(= b true)'],
  ['b is not false', '(!= b false)'],
  ['not x in (1)', '(not (in x [1]))'],
];

for (const [text, expected] of PREDICATES) {
  test(`predicate: ${text}`, (t) => t.is(expr(text), expected));
}

const TERMS: [string, string][] = [
  ["case when a then 'x' when b then 'y' else 'z' end", "(case (when a 'x') (when b 'y') (else 'z'))"],
  ['case x when 1 then 2 end', '(case x (when 1 2))'],
  ['case when a then case when b then 1 end end', '(case (when a (case (when b 1))))'],
  ['cast(x as timestamp)', '(cast x TIMESTAMP)'],
  ['cast(x as double precision)', '(cast x DOUBLE)'],
  ['x::varchar(20)', '(:: x VARCHAR)'],
  ['x::geohash(8c)', '(:: x GEOHASH(8C))'],
  ['x::decimal(10, 2)', '(:: x DECIMAL(10,2))'],
  ['x::double[]', '(:: x DOUBLE[])'],
  ["'2024'::timestamp with time zone", "(:: '2024' TIMESTAMP)"],
  ["timestamp '2024-01-01'", "(cast '2024-01-01' TIMESTAMP)"],
  ['count(*)', 'count(*)'],
  ['count()', 'count()'],
  ['count(distinct x)', 'count(distinct x)'],
  ['sum(a + b)', 'sum((+ a b))'],
  ['t.price', 't.price'],
  ['"t"."my col"', 't.my col'],
  ['t.*', 't.*'],
  ['true', 'true'],
  ['null', 'null'],
  ['NaN', 'NaN'],
  ['(select 1)', '(subquery)'],
  ['ARRAY[1.0, 2.0]', '[1.0, 2.0]'],
  ['ARRAY[[1, 2], [3, 4]]', '[[1, 2], [3, 4]]'],
  ['arr[1]', '(index arr [1])'],
  ['arr[1, 2][3]', '(index (index arr [1, 2]) [3])'],
  ['extract(year from ts)', 'extract(year, ts)'],
  ["ts at time zone 'Europe/Berlin'", "to_timezone(ts, 'Europe/Berlin')"],
  ['left(s, 2)', 'left(s, 2)'],
  ['timestamp_floor(\'1h\', ts)', "timestamp_floor('1h', ts)"],
  ['exists (select 1)', 'exists((subquery))'],
];

for (const [text, expected] of TERMS) {
  test(`term: ${text}`, (t) => t.is(expr(text), expected));
}

const WINDOWS: [string, string][] = [
  ['row_number() over ()', 'row_number() over ()'],
  ['sum(x) over (partition by a, b order by ts desc)', 'sum(x) over (partition a, b; order ts desc)'],
  ['lag(x) ignore nulls over (order by ts)', 'lag(x) ignore nulls over (order ts)'],
  ['lag(x) respect nulls over (order by ts)', 'lag(x) over (order ts)'],
  ['avg(x) over (order by ts rows between unbounded preceding and current row)',
    'avg(x) over (order ts; rows unboundedPreceding..currentRow)'],
  ['avg(x) over (order by ts rows 3 preceding)', 'avg(x) over (order ts; rows 3 preceding..currentRow)'],
  ["avg(x) over (order by ts range between '1' hour preceding and current row)",
    "avg(x) over (order ts; range '1' HOUR preceding..currentRow)"],
  ['avg(x) over (order by ts range between 10 minutes preceding and 1 second following)',
    'avg(x) over (order ts; range 10 MINUTE preceding..1 SECOND following)'],
  ['sum(x) over (order by ts groups between 1 preceding and unbounded following exclude current row)',
    'sum(x) over (order ts; groups 1 preceding..unboundedFollowing exclude currentRow)'],
  ['sum(x) over (order by ts nulls last)', 'sum(x) over (order ts nulls last)'],
];

for (const [text, expected] of WINDOWS) {
  test(`window: ${text}`, (t) => t.is(expr(text), expected));
}

test('literal types and values', (t) => {
  const items = select("select 1, 3000000000, 10L, 1.5, 2f, 'x', true, null, NaN").columns.map((c) => c.expr);
  t.is(stringify(items.map((e) => (e.kind === 'literal' ? [e.literalType, e.value] : e.kind))),
    '[["INT",1],["LONG","3000000000n"],["LONG","10n"],["DOUBLE",1.5],["FLOAT",2],["STRING","x"],["BOOLEAN",true],["NULL",null],["DOUBLE",null]]');
  const nan = items[8];
  t.true(nan.kind === 'literal' && Number.isNaN(nan.value));
});

test('node positions are token starts (operators at the operator, calls at the name)', (t) => {
  const q = select('SELECT nope, a + b, f(x), x::int, x in (1), -y FROM t');
  t.deepEqual(q.columns.map((c) => c.expr.position), [7, 15, 20, 27, 36, 44]);
  const cast = q.columns[3].expr;
  t.true(cast.kind === 'cast' && cast.typePosition === 29);
});

test('positions are UTF-16 offsets after non-ASCII text', (t) => {
  const q = select("select 'héllo😀' || x from t");
  const concat = q.columns[0].expr;
  t.true(concat.kind === 'binary' && concat.position === 17);
  t.true(concat.kind === 'binary' && concat.right.position === 20);
});

test('keywords QuestDB allows as names work as column references', (t) => {
  const names = select('select timestamp, symbol, count, year, day, left, first from t').columns.map((c) => c.expr);
  t.deepEqual(names.map((e) => (e.kind === 'column' ? e.name : e.kind)), ['timestamp', 'symbol', 'count', 'year', 'day', 'left', 'first']);
});
