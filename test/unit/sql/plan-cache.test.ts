// Which statements the /exec plan cache may keep: plain single SELECTs over tables calling pure functions. Every
// form that depends on the clock, a random generator, the catalog, the session, bind parameters or a nested
// query is refused, and the table names of a kept statement are listed for the cache to check.
import test from 'ava';
import { parseStatement } from '../../../src/sql/syntax/parser.js';
import { cacheableTableNames } from '../../../src/sql/plan-cache.js';

function tablesOf(sql: string): string[] | undefined {
  return cacheableTableNames(parseStatement(sql));
}

test('plain selects over tables are kept, with the tables they read', (t) => {
  t.deepEqual(tablesOf('select count(*) from t'), ['t']);
  t.deepEqual(tablesOf("select count(*), avg(price) from t where ts in '2024-01-05'"), ['t']);
  t.deepEqual(tablesOf("select sym, avg(price), timestamp_floor('1h', ts) h from trades where sym in ('a', 'b') order by sym limit 10"), ['trades']);
  t.deepEqual(tablesOf('select * from t limit -10'), ['t']);
  t.deepEqual(tablesOf('select t.x, q.y from t asof join q on (sym)'), ['t', 'q']);
  t.deepEqual(tablesOf('select 1'), []);
});

test('clock, random, session and catalog functions are refused', (t) => {
  for (const sql of [
    'select now() from t',
    'select * from t where ts > now()',
    'select systimestamp() from t',
    'select sysdate() from t',
    'select rnd_double() from t',
    'select current_user from t',
    'select version()',
    'select rnd_geohash(5) from t',
  ]) t.is(tablesOf(sql), undefined, sql);
});

test('nested queries, table functions, parameters and windows are refused', (t) => {
  for (const sql of [
    'select * from t where x in (select x from u)',
    'select (select max(x) from u) from t',
    'select * from (select * from t)',
    'with w as (select * from t) select * from w',
    'select * from t union select * from u',
    'select * from tables()',
    'select * from long_sequence(10)',
    'select * from t where x = $1',
    'select row_number() over (order by ts) from t',
    'select avg(x) over (partition by sym) from t',
  ]) t.is(tablesOf(sql), undefined, sql);
});

test('statements other than queries are refused', (t) => {
  for (const sql of ['insert into t values (1)', 'explain select * from t', 'show tables', 'create table u (x int)']) {
    t.is(tablesOf(sql), undefined, sql);
  }
});
