// Every syntax error form: exact message and position (`message @ position`). Texts follow QuestDB's
// SqlParser / ExpressionParser / SqlCompilerImpl where it has one; end-of-input errors point at the text length.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import { SqlError } from '../../../../src/core/errors.js';
import { exprDepthMax } from '../../../../src/core/limits.js';
import { failure } from './render.js';

const RESERVED = (word: string): string =>
  `table and column names that are SQL keywords have to be enclosed in double quotes, such as "${word}"`;
const ALTER_ACTIONS = "'add', 'alter', 'attach', 'detach', 'drop', 'convert', 'resume', 'rename', 'set' or 'squash' expected";

const STATEMENT_ERRORS: [string, string][] = [
  ['select 1; select 2', 'unexpected token [select] @ 10'],
  ['select 1 from t x y', 'unexpected token [y] @ 18'],
  ['delete from t', 'unexpected token [delete] @ 0'],
  ['from t', 'unexpected token [from] @ 0'],
  ['42', 'unexpected token [42] @ 0'],
  [';', 'unexpected token [;] @ 0'],
  ['explain explain select 1', "'create', 'format', 'insert', 'update', 'select' or 'with' expected @ 8"],
  ['explain', "'create', 'format', 'insert', 'update', 'select' or 'with' expected @ 7"],
];

const SELECT_ERRORS: [string, string][] = [
  ['select', '[distinct] column expected @ 6'],
  ['select distinct', 'column expected @ 15'],
  ['select from t', 'column expression expected @ 7'],
  ['select a,', 'column expected @ 9'],
  ['select a b c from t', "found [tok='c', len=1] ',', 'from' or 'over' expected @ 11"],
  ['select *', "'from' expected @ 8"],
  ['select * x from t', 'wildcard cannot have alias @ 9'],
  ['select 1 limit 1', `${RESERVED('limit')} @ 9`],
  ['select * from', 'table name or sub-query expected @ 13'],
  ['SELECT * FROM table;', `${RESERVED('table')} @ 14`],
  ['select * from ,', 'table name expected @ 14'],
  ['select * from t where', 'empty where clause @ 21'],
  ['select * from t where;', 'empty where clause @ 21'],
  ['select * from t where order by x', `${RESERVED('order')} @ 22`],
  ['select * from (select 1', "')' expected @ 23"],
  ['select * from a join b', "'on' expected @ 22"],
  ['select * from a cross join b on x', 'Cross joins cannot have join clauses @ 29'],
  ['select * from a left b', "'join' expected @ 16"],
  ['select * from a join b on (x, y + 1)', 'Column name expected @ 32'],
  ['select * from t latest on ts', "'partition' expected @ 28"],
  ['select * from t latest', "'on' or 'by' expected @ 22"],
  ['select avg(x) from t sample by', 'time interval unit expected @ 30'],
  ['select avg(x) from t sample by 1x', 'one letter sample by period unit expected @ 32'],
  ['select avg(x) from t sample by 1 hour', 'one letter sample by period unit expected @ 33'],
  ['select avg(x) from t sample by 1h fill()', "'none', 'prev', 'mid', 'null' or number expected @ 39"],
  ['select avg(x) from t sample by 1h align to', "'calendar' or 'first observation' expected @ 42"],
  ['select * from t order by', 'literal expected @ 24'],
  ['select * from t order by a nulls', "'first' or 'last' expected @ 32"],
  ['select * from t limit', 'Expression expected @ 21'],
  ['select 1 union', "'select', 'with' or table name expected @ 14"],
  ['select a from t order by a union select b from u', 'unexpected token [union] @ 27'],
  ['with a as (select 1), a as (select 2) select * from a', 'duplicate name @ 22'],
  ['with a (select 1) select 1', "'as' expected @ 7"],
];

const EXPRESSION_ERRORS: [string, string][] = [
  ['select 1 +', "too few arguments for '+' [found=1,expected=2] @ 9"],
  ['select a and', "too few arguments for 'and' [found=1,expected=2] @ 9"],
  ['select -', "too few arguments for '-' [found=0,expected=1] @ 7"],
  ['select not', "too few arguments for 'not' [found=0,expected=1] @ 7"],
  ['select a + from t', `${RESERVED('from')} @ 11`],
  ['select (1', 'unbalanced ( @ 7'],
  ['select (1 from t', "')' expected @ 10"],
  ['select f(1,)', 'missing arguments @ 11'],
  ['select f(,1)', 'missing arguments @ 9'],
  ['select f(1', 'unbalanced ( @ 8'],
  ['select case when a then 1', "unbalanced 'case' @ 7"],
  ['select case 1 end', "'when' expected @ 14"],
  ['select case when a 1 end', "'then' expected @ 19"],
  ['select case when a then 1 from t', "'end' expected @ 26"],
  ['select cast(x int)', "'as' missing @ 14"],
  ['select x::', 'type name expected @ 10'],
  ['select x is 1', 'IS must be followed by NULL, TRUE or FALSE @ 9'],
  ['select x is not 1', 'IS NOT must be followed by NULL, TRUE or FALSE @ 9'],
  ['select x between 1 2', "'and' expected @ 19"],
  ['select x in ()', "too few arguments for 'in' @ 13"],
  ['select x in', "too few arguments for 'in' [found=1,expected=2] @ 9"],
  ['select a.1', "'*' or column name expected @ 9"],
  ['select t.from', `${RESERVED('from')} @ 9`],
  ['select 1x', 'invalid constant: 1x @ 7'],
  ['select (1, 2)', 'no function or operator? @ 9'],
  ['select arr[]', 'empty brackets @ 10'],
  ['select arr[1:2:3]', "']' expected @ 14"],
  ['select arr[:2]', 'unexpected token [:] @ 11'],
  ['select count(distinct *) from t', 'count(distinct *) is not supported @ 22'],
  ['select sum(x) over (rows unbounded)', "'preceding' or 'following' expected @ 34"],
  ['select sum(x) over (order by ts rows current)', "'row' expected @ 44"],
  ['select sum(x) over (order by ts rows 1)', "'preceding' or 'following' expected @ 38"],
  ['select sum(x) over order by ts', "'(' expected @ 19"],
  ['select )', 'unexpected token [)] @ 7'],
];

const DDL_ERRORS: [string, string][] = [
  ['create', "'table' expected @ 6"],
  ['create table', 'table name expected @ 12'],
  ['create table t', "'(' or 'as' expected @ 14"],
  ['create table t x', 'unexpected token [x] @ 15'],
  ['create table t ()', "found [tok=')', len=1] missing column definition @ 16"],
  ['create table t (a)', "found [tok=')', len=1] missing column definition @ 17"],
  ['create table t (a int,)', "found [tok=')', len=1] missing column definition @ 22"],
  ['create table t (a int b int)', "found [tok='b', len=1] ',' or ')' expected @ 22"],
  ['create table t (a int', "',' or ')' expected @ 21"],
  ['create table t (a int, A long)', 'Duplicate column [name=A] @ 23'],
  ['create table t (s symbol capacity x)', "found [tok='x', len=1] bad integer @ 34"],
  ['create table t (ts timestamp) timestamp(ts) partition by decade', "'NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH' or 'YEAR' expected @ 57"],
  ['create table t (a int), cast(a as long)', "cast is only supported in 'create table as ...' context @ 24"],
  ['create table t (s symbol, a int), index(b)', 'Invalid column: b @ 40'],
  ['create table t (a int) ttl 2 decades', "invalid unit, expected 'HOUR(S)', 'DAY(S)', 'WEEK(S)', 'MONTH(S)' or 'YEAR(S)', but was 'decades' @ 27"],
  ['create table t (a int) ttl', 'missing argument, should be <number> <unit> or <number_with_unit> @ 26'],
  ['create table if t (a int)', "'if not exists' expected @ 16"],
  ['create table table (a int)', `${RESERVED('table')} @ 13`],
  ['create table t (a int) partition by day bypass', "'wal' expected @ 46"],
  ['drop', "'table' or 'all tables' expected @ 4"],
  ['drop table', 'expected IF EXISTS table-name @ 10'],
  ['drop table if t', 'expected EXISTS table-name @ 14'],
  ['drop table select', `${RESERVED('select')} @ 11`],
  ['truncate t', "'table' expected @ 9"],
  ['rename table a b', "'to' expected @ 15"],
  ['alter table t', `${ALTER_ACTIONS} @ 13`],
  ['alter table t frobnicate', `${ALTER_ACTIONS} @ 14`],
  ['alter table x drop', "'column' or 'partition' expected @ 18"],
  ['alter table x drop column', 'column name expected @ 25'],
  ['alter table x alter', "'column' expected @ 19"],
  ['alter table x alter column', 'column name expected @ 26'],
  ['alter table x alter column c', "'add index' or 'drop index' or 'type' or 'cache' or 'nocache' or 'symbol' expected @ 28"],
  ['alter table t add column a int, a long', 'Duplicate column [name=a] @ 32'],
  ['alter table t set foo', "'param', 'ttl' or 'type' expected @ 18"],
  ['alter table t drop partition', "'list' or 'where' expected @ 28"],
];

const OTHER_ERRORS: [string, string][] = [
  ['insert', 'into or batch expected @ 6'],
  ['insert t values (1)', "'into' expected @ 7"],
  ['insert into', 'table name expected @ 11'],
  ['insert into t', "'select' or 'values' expected @ 13"],
  ['insert into t (a) foo', "found [tok='foo', len=3] 'select' or 'values' expected @ 18"],
  ['insert into t ()', "found [tok=')', len=1] missing column name @ 15"],
  ['insert into t values (1', 'unbalanced ( @ 21'],
  ['insert into t values', "'(' expected @ 20"],
  ['insert batch 0 into t select 1', 'batch size must be positive integer @ 13'],
  ['update t', 'SET expected @ 8'],
  ['update t set a = 1 foo', 'FROM, WHERE or EOF expected @ 19'],
  ['update t set a = 1 from u join v on x', 'JOIN is not supported on UPDATE statement @ 26'],
  ['update t as set a = 1', 'table alias expected @ 12'],
  ['update t set a 1', "'=' expected @ 15"],
  ['show columns t', "'from' expected @ 13"],
  ['show create view v', "expected 'TABLE' or 'VIEW' or 'MATERIALIZED VIEW' or 'LIVE VIEW' or 'DATABASE' @ 12"],
  ['checkpoint foo', "'create' or 'release' expected @ 11"],
  ['snapshot', "'prepare' or 'complete' expected @ 8"],
  ['cancel query x', 'non-negative integer literal expected as query id @ 13'],
  ['cancel foo', "'QUERY' expected' @ 7"],
  ['vacuum table', 'table name expected @ 12'],
];

for (const [group, cases] of [
  ['statement', STATEMENT_ERRORS], ['select', SELECT_ERRORS], ['expression', EXPRESSION_ERRORS], ['ddl', DDL_ERRORS],
  ['other', OTHER_ERRORS],
] as const) {
  for (const [sql, expected] of cases) {
    test(`${group} error: ${sql}`, (t) => t.is(failure(sql), expected));
  }
}

test('SHOW with a target that is not a name names every form QuestDB accepts', (t) => {
  // A name is a session parameter (SHOW DateStyle); the binder refuses one it does not know.
  t.regex(failure('show 42'), /^expected 'TABLES', 'COLUMNS FROM <tab>', .* or 'time zone' @ 5$/);
});

test('empty text is SVC_EMPTY_QUERY at 0', (t) => {
  for (const text of ['', '   ', '-- just a comment\n', '/* c */']) {
    const error = t.throws(() => parseStatement(text), { instanceOf: SqlError });
    t.is(error?.message, 'empty query');
    t.is(error?.code, 'SVC_EMPTY_QUERY');
    t.is(error?.position, 0);
  }
});

test('syntax errors carry SVC_SQL_SYNTAX and HTTP 400', (t) => {
  const error = t.throws(() => parseStatement('select * from'), { instanceOf: SqlError });
  t.is(error?.code, 'SVC_SQL_SYNTAX');
  t.is(error?.httpStatus, 400);
});

test('error positions are UTF-16 offsets', (t) => {
  t.is(failure("select 'ü😀' x y from t"), "found [tok='y', len=1] ',', 'from' or 'over' expected @ 15");
});

const DEPTH_CASES: [string, string][] = [
  ['parentheses', `select ${'('.repeat(50_000)}1${')'.repeat(50_000)}`],
  ['unary minus', `select ${'- '.repeat(50_000)}1`],
  ['NOT', `select ${'not '.repeat(50_000)}true`],
  ['subqueries', `select * from ${'(select * from '.repeat(20_000)}t${')'.repeat(20_000)}`],
  ['function calls', `select ${'f('.repeat(50_000)}1${')'.repeat(50_000)}`],
  ['CASE', `select ${'case when a then '.repeat(20_000)}1${' end'.repeat(20_000)}`],
  ['arrays', `select ARRAY${'['.repeat(50_000)}1${']'.repeat(50_000)}`],
];

for (const [what, sql] of DEPTH_CASES) {
  test(`deep nesting of ${what} fails cleanly with 'expression is too complex'`, (t) => {
    const error = t.throws(() => parseStatement(sql), { instanceOf: SqlError });
    t.is(error?.message, 'expression is too complex');
    t.true((error?.position ?? 0) > 0 && (error?.position ?? 0) < sql.length);
  });
}

test('nesting within exprDepthMax parses', (t) => {
  const depth = Math.floor(exprDepthMax / 2) - 2;
  t.notThrows(() => parseStatement(`select ${'('.repeat(depth)}1${')'.repeat(depth)}`));
});

test('long left-associative chains do not recurse', (t) => {
  t.notThrows(() => parseStatement(`select * from t where ${Array.from({ length: 20_000 }, (_, i) => `x = ${i}`).join(' or ')}`));
});
