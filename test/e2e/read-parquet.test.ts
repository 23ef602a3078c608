// read_parquet('<path>') over HTTP: an /exp Parquet export of a table with every column type reads back with the
// same values and loads into a table with INSERT ... SELECT; TIMESTAMP(col) designates the timestamp; paths are
// confined to cairo.sql.copy.root (`..`, absolute paths elsewhere, symbolic links out are refused). The same
// all-types table also survives a round trip of its partitions through Parquet.
import test from 'ava';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/server.js';
import { exec, execOk, rows, sqlUrl } from '../helpers/http.js';

const ALL_TYPES = `select x id, rnd_symbol('a','b',null) sym, rnd_double() d, cast(rnd_double() as float) f, rnd_str('x','yy',null) s, `
  + `rnd_varchar('é','ü',null) v, rnd_uuid4() u, rnd_ipv4() ip, cast(x * 1000 as date) dt, rnd_boolean() b, cast(x as short) sh, `
  + `cast(x as byte) by, case when x % 3 = 0 then null else cast(x as int) end i, case when x % 4 = 0 then null else x * 7 end l, `
  + `rnd_char() c, timestamp_sequence('2024-01-01', 45000000L) ts from long_sequence(9000)`;

test('read_parquet reads an /exp export back, loads it with INSERT SELECT, and stays inside cairo.sql.copy.root', async (t) => {
  const copyRoot = mkdtempSync(join(tmpdir(), 'svc-copy-root-'));
  const server = await startServer({ workers: 2, env: { SVC_CAIRO_SQL_COPY_ROOT: copyRoot } });
  try {
    await execOk(server.baseUrl, `create table t as (${ALL_TYPES}) timestamp(ts) partition by day`);
    const original = await rows(server.baseUrl, 'select * from t');
    const exported = await fetch(sqlUrl(server.baseUrl, '/exp', 'select * from t', { fmt: 'parquet' }));
    t.is(exported.status, 200);
    mkdirSync(join(copyRoot, 'sub'));
    writeFileSync(join(copyRoot, 'sub', 't.parquet'), new Uint8Array(await exported.arrayBuffer()));

    // Types follow the export (SYMBOL, STRING and CHAR come back as VARCHAR); every value reads back equal.
    t.deepEqual(await rows(server.baseUrl, "select * from read_parquet('sub/t.parquet')"), original);
    t.deepEqual(await rows(server.baseUrl, "select count(), sum(l), sum(i) from read_parquet('sub/t.parquet') where b"), await rows(server.baseUrl, 'select count(), sum(l), sum(i) from t where b'));
    t.deepEqual(
      await rows(server.baseUrl, "select ts, count(), sum(d) from read_parquet('sub/t.parquet') timestamp(ts) sample by 1d"),
      await rows(server.baseUrl, 'select ts, count(), sum(d) from t sample by 1d'),
    );
    await execOk(server.baseUrl, 'create table t2 as (select * from t where id < 0) timestamp(ts) partition by day');
    await execOk(server.baseUrl, "insert into t2 select * from read_parquet('sub/t.parquet')");
    t.deepEqual(await rows(server.baseUrl, 'select * from t2'), original, 'INSERT ... SELECT FROM read_parquet loads every row');

    // The all-types table through Parquet partitions and back.
    await execOk(server.baseUrl, "alter table t convert partition to parquet where ts < '2030-01-01'");
    t.deepEqual(await rows(server.baseUrl, 'select * from t'), original, 'every type reads back from Parquet partitions');
    await execOk(server.baseUrl, "alter table t convert partition to native where ts < '2030-01-01'");
    t.deepEqual(await rows(server.baseUrl, 'select * from t'), original, 'every type survives the round trip to native');

    symlinkSync('/etc/hostname', join(copyRoot, 'out.parquet'));
    const refused: [string, string][] = [
      ['../t.parquet', 'path is outside cairo.sql.copy.root [path=../t.parquet]'],
      ['sub/../../x.parquet', 'path is outside cairo.sql.copy.root [path=sub/../../x.parquet]'],
      ['/etc/hostname', 'path is outside cairo.sql.copy.root [path=/etc/hostname]'],
      ['out.parquet', 'path is outside cairo.sql.copy.root [path=out.parquet]'],
      ['missing.parquet', 'file does not exist [path=missing.parquet]'],
      ['sub', 'not a file [path=sub]'],
    ];
    for (const [path, message] of refused) {
      const response = await exec(server.baseUrl, `select * from read_parquet('${path}')`);
      t.is(response.status, 400, path);
      t.deepEqual(response.json, { query: `select * from read_parquet('${path}')`, error: message, position: 27 }, path);
    }
    writeFileSync(join(copyRoot, 'junk.parquet'), 'not parquet at all');
    const junk = await exec(server.baseUrl, "select * from read_parquet('junk.parquet')");
    t.is(junk.status, 400);
    t.regex((junk.json as { error: string }).error, /^not a parquet file/);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
