// Which GROUP BY queries plan as SAMPLE BY: one calendar bucket of the designated timestamp among the keys
// (timestamp_floor, date_trunc, QuestDB's to_utc(floor(to_timezone(ts, tz)), tz)), the stride and unit it maps
// to, and the forms that keep the hash GROUP BY.
import test from 'ava';
import type { Expr } from '../../../../src/sql/syntax/ast.js';
import { timeBucketGroupBy } from '../../../../src/sql/optimize/time-bucket-group-by.js';
import { defaultColumnName } from '../../../../src/sql/bind/output-names.js';
import { select } from '../syntax/render.js';

const isTs = (expr: Expr): boolean => expr.kind === 'column' && expr.name.toLowerCase() === 'ts';

function plan(sql: string): string | undefined {
  const query = select(sql);
  const items = query.columns.map((item) => ({ expr: item.expr, name: item.alias?.name ?? defaultColumnName(item.expr) }));
  const result = timeBucketGroupBy(query, items, isTs);
  if (result === undefined) return undefined;
  const zone = result.clause.timeZone;
  const leading = result.items.findIndex((item) => isTs(item.expr));
  const local = result.bucketOutput === undefined ? '' : ' local';
  return `${result.clause.count}${result.clause.unit}${zone?.kind === 'literal' ? ` tz ${String(zone.value)}` : ''}${local} item ${leading}`;
}

const PLANNED: [string, string][] = [
  ["select timestamp_floor('1h', ts) h, avg(x) from t group by h", '1h item 0'],
  ["select timestamp_floor('15m', ts), count() from t group by 1", '15m item 0'],
  ["select timestamp_floor('M', ts) b, k, count() from t group by b, k", '1M item 0'],
  ["select k, date_trunc('hour', ts), sum(x) from t group by k, date_trunc('hour', ts)", '1h item 1'],
  ["select date_trunc('Quarter', ts), count() from t", '3M item 0'],
  ["select date_trunc('week', ts) w, count() from t group by w", '1w item 0'],
  ["select max(x) from t group by timestamp_floor('1d', ts)", '1d item -1'],
  ["select to_utc(timestamp_floor('1d', to_timezone(ts, 'Europe/Berlin')), 'Europe/Berlin') d, count() from t group by d", '1d tz Europe/Berlin item 0'],
  ["select to_utc(timestamp_floor('1h', to_timezone(ts, '+05:30')), '+05:30') d, count() from t group by d", '1h tz +05:30 item 0'],
  ["select timestamp_floor('1d', to_timezone(ts, 'Europe/Berlin')) d, count() from t group by d", '1d tz Europe/Berlin local item 0'],
  ["select date_trunc('month', to_timezone(t.ts, 'America/New_York')) m, count() from t group by m", '1M tz America/New_York local item 0'],
];

for (const [sql, expected] of PLANNED) {
  test(`planned as SAMPLE BY: ${sql}`, (t) => {
    t.is(plan(sql), expected);
  });
}

const KEPT: string[] = [
  // Not the designated timestamp, or not a bucket of it.
  "select timestamp_floor('1h', other) h, count() from t group by h",
  "select timestamp_floor('1h', dateadd('s', 1, ts)) h, count() from t group by h",
  'select ts, count() from t group by ts',
  // Two time keys, or another key reading the timestamp.
  "select timestamp_floor('1h', ts) h, timestamp_floor('1d', ts) d, count() from t group by h, d",
  "select timestamp_floor('1h', ts) h, hour(ts) hr, count() from t group by h, hr",
  // HAVING and DISTINCT keep the GROUP BY plan; a GROUP BY key the select list lacks besides the bucket too.
  "select timestamp_floor('1h', ts) h, count() from t group by h having count() > 1",
  "select distinct timestamp_floor('1h', ts) h, count() from t group by h",
  "select timestamp_floor('1h', ts) h, count() from t group by h, k",
  // Units and zones without a SAMPLE BY equivalent (or where to_utc and SAMPLE BY differ at DST changes).
  "select date_trunc('decade', ts) d, count() from t group by d",
  "select timestamp_floor('10n', ts) d, count() from t group by d",
  "select to_utc(timestamp_floor('1h', to_timezone(ts, 'Europe/Berlin')), 'Europe/Berlin') d, count() from t group by d",
  "select to_utc(timestamp_floor('1d', to_timezone(ts, 'Europe/Berlin')), 'Europe/Paris') d, count() from t group by d",
  "select to_utc(timestamp_floor('1d', to_timezone(ts, 'Nowhere/Land')), 'Nowhere/Land') d, count() from t group by d",
  "select timestamp_floor('1h', to_timezone(ts, 'Europe/Berlin')) d, count() from t group by d",
  "select timestamp_floor(u, ts) d, count() from t group by d",
];

for (const sql of KEPT) {
  test(`kept as GROUP BY: ${sql}`, (t) => {
    t.is(plan(sql), undefined);
  });
}
