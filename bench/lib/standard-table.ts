// The standard benchmark table of the performance reference, built identically in svc (INSERT ... SELECT over
// long_sequence through HTTP) and in DuckDB, plus the two 1M-row ASOF side tables.
// Row i: ts = 2024-01-01 + i * 100 ms, sym = 'S' || (i % 100), price uniform [0, 1000), amount 1..10000.
import type { DuckDBConnection } from '@duckdb/node-api';
import { exec } from '../../test/helpers/http.js';

const LONG_TIMEOUT = { signal: AbortSignal.timeout(3_600_000) };

// price needs (i * 1103515245 + 12345) mod 2^31 exactly; the product overflows 2^53, so it is split into
// 16-bit steps that doubles and longs both compute exactly: 1103515245 = 16838 * 65536 + 20077.
const SVC_PRICE = 'round(((((x - 1) * 16838) % 2147483648 * 65536 + (x - 1) * 20077 + 12345) % 2147483648) / 2147483648.0 * 1000, 2)';

export async function loadSvcStandardTable(baseUrl: string, rowCount: number): Promise<void> {
  await svcOk(baseUrl, 'create table t (ts timestamp, sym symbol, price double, amount long) timestamp(ts) partition by DAY');
  await svcOk(baseUrl, `insert into t select
    cast(1704067200000000 + (x - 1) * 100000 as timestamp),
    'S' || ((x - 1) % 100),
    ${SVC_PRICE},
    ((x - 1) * 48271) % 10000 + 1
  from long_sequence(${rowCount})`);
}

export async function loadDuckStandardTable(duck: DuckDBConnection, rowCount: number): Promise<void> {
  await duck.run(`create table t as select
    timestamp '2024-01-01' + to_milliseconds(i * 100) ts,
    'S' || (i % 100) sym,
    round(((i::HUGEINT * 1103515245 + 12345) % 2147483648) / 2147483648.0 * 1000, 2) price,
    (i * 48271) % 10000 + 1 amount
  from range(${rowCount}) r(i)`);
}

/** trades1m = the first 1M rows of the standard table; quotes1m = 1M quotes 37 ms before each trade slot. */
export async function loadSvcAsofTables(baseUrl: string): Promise<void> {
  await svcOk(baseUrl, 'create table trades1m (ts timestamp, sym symbol, price double, amount long) timestamp(ts) partition by DAY');
  await svcOk(baseUrl, `insert into trades1m select
    cast(1704067200000000 + (x - 1) * 100000 as timestamp), 'S' || ((x - 1) % 100), ${SVC_PRICE}, ((x - 1) * 48271) % 10000 + 1
  from long_sequence(1000000)`);
  await svcOk(baseUrl, 'create table quotes1m (ts timestamp, sym symbol, bid double) timestamp(ts) partition by DAY');
  await svcOk(baseUrl, `insert into quotes1m select
    cast(1704067200000000 + (x - 1) * 100000 - 37000 as timestamp), 'S' || (((x - 1) * 7) % 100), (((x - 1) * 69069 + 1) % 1000003) / 1000.0
  from long_sequence(1000000)`);
}

export async function loadDuckAsofTables(duck: DuckDBConnection): Promise<void> {
  await duck.run('create table trades1m as select * from t order by ts limit 1000000');
  await duck.run(`create table quotes1m as select
    timestamp '2024-01-01' + to_milliseconds(i * 100 - 37) ts, 'S' || ((i * 7) % 100) sym, ((i * 69069 + 1) % 1000003) / 1000.0 bid
  from range(1000000) r(i)`);
}

async function svcOk(baseUrl: string, sql: string): Promise<void> {
  const response = await exec(baseUrl, sql, {}, LONG_TIMEOUT);
  if (response.status !== 200) throw new Error(`${sql.slice(0, 80)} → ${response.status} ${response.text}`);
}
