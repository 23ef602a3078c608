// Bloom filters as DuckDB's parquet_bloom_probe reads them: written only for the requested columns, never
// excluding a row group that holds the value (no false negatives), excluding nearly all that do not, and
// sized by bloom_filter_fpp.
import test from 'ava';
import type { ColumnBatch } from '../../../src/sql/exec/batch.js';
import type { ExportColumn } from '../../../src/output/parquet-params.js';
import { loadParquetCodecs } from '../../../src/output/parquet-codecs.js';
import { ParquetReader, writeParquet } from '../../helpers/duckdb-parquet.js';

let reader: ParquetReader;
test.before(async () => {
  await loadParquetCodecs();
  reader = await ParquetReader.open();
});
test.after.always(() => reader.close());

const COLUMNS: readonly ExportColumn[] = [
  { name: 'sym', type: 'SYMBOL' }, { name: 'l', type: 'LONG' }, { name: 's', type: 'VARCHAR' },
  { name: 'd', type: 'DOUBLE' }, { name: 'i', type: 'INT' }, { name: 'plain', type: 'LONG' },
];
const GROUP_ROWS = 1000;
const SYMBOLS = Array.from({ length: 2000 }, (_, k) => `S${k}`);

/** Two row groups with disjoint values: group g holds k in [g * 1000, g * 1000 + 1000), every 10th row null. */
function disjointGroups(): ColumnBatch {
  const rows = 2 * GROUP_ROWS;
  const isNull = (k: number): boolean => k % 10 === 9;
  return {
    rowCount: rows,
    vectors: [
      { type: 'SYMBOL', data: Int32Array.from({ length: rows }, (_, k) => (isNull(k) ? -1 : k)), symbols: SYMBOLS },
      { type: 'LONG', data: Float64Array.from({ length: rows }, (_, k) => (isNull(k) ? Number.NaN : k * 1_000_003)) },
      { type: 'VARCHAR', data: Array.from({ length: rows }, (_, k) => (isNull(k) ? null : `v${k}`)) },
      { type: 'DOUBLE', data: Float64Array.from({ length: rows }, (_, k) => (isNull(k) ? Number.NaN : k + 0.5)) },
      { type: 'INT', data: Int32Array.from({ length: rows }, (_, k) => (isNull(k) ? -2147483648 : k - 700)) },
      { type: 'LONG', data: Float64Array.from({ length: rows }, (_, k) => k) },
    ],
  };
}

function literalFor(column: string, k: number): string {
  switch (column) {
    case 'sym': return `'S${k}'`;
    case 'l': return String(k * 1_000_003);
    case 's': return `'v${k}'`;
    case 'd': return `${k + 0.5}`;
    default: return String(k - 700);
  }
}

async function excludes(path: string, column: string, literal: string): Promise<boolean[]> {
  const rows = await reader.rows(`select bloom_filter_excludes x from parquet_bloom_probe('${path}', '${column}', ${literal}) order by row_group_id`);
  return rows.map((row) => row['x'] === true);
}

test('only the requested columns get a bloom filter, in every row group', async (t) => {
  const path = reader.save('bloom-columns.parquet', writeParquet(COLUMNS, [disjointGroups()], { rowGroupRows: GROUP_ROWS, bloomFilterColumns: ['sym', 'l', 's', 'd', 'i'] }));
  const rows = await reader.rows(`select path_in_schema p, count(bloom_filter_offset)::INT n from parquet_metadata('${path}') group by p order by p`);
  t.deepEqual(rows, [{ p: 'd', n: 2 }, { p: 'i', n: 2 }, { p: 'l', n: 2 }, { p: 'plain', n: 0 }, { p: 's', n: 2 }, { p: 'sym', n: 2 }]);
});

test('no false negatives: a value present in a row group never excludes it', async (t) => {
  const path = reader.save('bloom-present.parquet', writeParquet(COLUMNS, [disjointGroups()], { rowGroupRows: GROUP_ROWS, bloomFilterColumns: ['sym', 'l', 's', 'd', 'i'] }));
  for (const column of ['sym', 'l', 's', 'd', 'i']) {
    for (const k of [0, 1, 500, 998, 1000, 1500, 1998]) {
      const group = Math.floor(k / GROUP_ROWS);
      t.false((await excludes(path, column, literalFor(column, k)))[group], `${column} value ${k} is kept in group ${group}`);
    }
  }
});

test('absent values: nearly every probe is excluded at fpp 0.01, fewer at fpp 0.5, and the filters are smaller', async (t) => {
  const strict = reader.save('bloom-strict.parquet', writeParquet(COLUMNS, [disjointGroups()], { rowGroupRows: GROUP_ROWS, bloomFilterColumns: ['l'], bloomFilterFpp: 0.01 }));
  const loose = reader.save('bloom-loose.parquet', writeParquet(COLUMNS, [disjointGroups()], { rowGroupRows: GROUP_ROWS, bloomFilterColumns: ['l'], bloomFilterFpp: 0.5 }));
  let strictHits = 0;
  let looseHits = 0;
  const probes = 200;
  for (let k = 0; k < probes; k++) {
    // Values of the other group and values found nowhere: the filter of group 0 should say "absent".
    const absent = String((GROUP_ROWS + k * 3) * 1_000_003 + 1);
    if (!(await excludes(strict, 'l', absent))[0]) strictHits++;
    if (!(await excludes(loose, 'l', absent))[0]) looseHits++;
  }
  t.true(strictHits <= probes * 0.05, `fpp 0.01: ${strictHits} of ${probes} false positives`);
  t.true(looseHits > strictHits, `fpp 0.5 lets more through (${looseHits} vs ${strictHits})`);
  const size = async (path: string): Promise<number> => {
    const [row] = await reader.rows(`select sum(bloom_filter_length)::INT n from parquet_metadata('${path}')`);
    return Number(row?.['n']);
  };
  t.true((await size(loose)) < (await size(strict)));
});

test('a column of nulls only gets no filter; the rest of the file is unaffected', async (t) => {
  const batch: ColumnBatch = { rowCount: 3, vectors: [{ type: 'VARCHAR', data: [null, null, null] }, { type: 'INT', data: Int32Array.of(1, 2, 3) }] };
  const path = reader.save('bloom-nulls.parquet', writeParquet([{ name: 's', type: 'VARCHAR' }, { name: 'i', type: 'INT' }], [batch], { bloomFilterColumns: ['s', 'i'] }));
  const rows = await reader.rows(`select path_in_schema p, bloom_filter_offset is not null has_filter from parquet_metadata('${path}') order by p`);
  t.deepEqual(rows, [{ p: 'i', has_filter: true }, { p: 's', has_filter: false }]);
  t.deepEqual(await excludes(path, 'i', '2'), [false]);
  t.deepEqual(await excludes(path, 'i', '4'), [true]);
});
