// The line parser's series cache (src/ilp/series-cache.ts): lines whose `table,tag=value…` prefix repeats
// byte for byte take their tags from the remembered ids; everything else is parsed tag by tag. Each case checks
// the values built (the cache must never change them) and how many lines the cache served.
import test from 'ava';
import { IlpParser, type IlpParserOptions } from '../../../src/ilp/line-parser.js';
import { ilpSeriesCacheEntriesMax } from '../../../src/core/limits.js';
import { columnValues, decodeTable, existingTables, parseChunks, parserOptions, tableMeta, type ParsedTable } from '../../helpers/ilp-parse.js';

/** Table names long enough that every prefix below is longer than the prefixes the cache leaves to the general parse. */
const T = 'a_table_name_long_enough_for_its_series_to_be_cached';
const U = 'another_table_name_long_enough_for_its_series_to_be_cached';

interface Parsed {
  readonly tables: ParsedTable[];
  readonly hits: number;
  readonly size: number;
}

/** Parses `chunks` in order with one parser; the tables it built and its series cache figures. */
function parseWithCache(chunks: readonly string[], overrides: Partial<IlpParserOptions> = {}): Parsed {
  const parser = new IlpParser(parserOptions(overrides));
  for (const chunk of chunks) parser.feed(Buffer.from(chunk, 'utf8'));
  parser.finish();
  const stats = parser.seriesCacheStats();
  return { tables: parser.tables().map(decodeTable), hits: stats.hits, size: stats.size };
}

function tableNamed(parsed: Parsed, name: string): ParsedTable {
  const table = parsed.tables.find((candidate) => candidate.name === name);
  if (table === undefined) throw new Error(`no table ${name}`);
  return table;
}

test('a repeated prefix is served from the cache with the same values', (t) => {
  const parsed = parseWithCache([`${T},host=a,region=x v=1i 1000\n${T},host=a,region=x v=2i 2000\n${T},host=a,region=x v=3i 3000\n`]);
  const table = tableNamed(parsed, T);
  t.deepEqual(columnValues(table, 'host'), ['a', 'a', 'a']);
  t.deepEqual(columnValues(table, 'region'), ['x', 'x', 'x']);
  t.deepEqual(columnValues(table, 'v'), [1n, 2n, 3n]);
  t.is(parsed.hits, 2);
});

test('series alternate: each misses once, then hits', (t) => {
  const lines = [`${T},host=a v=1i\n`, `${T},host=b v=2i\n`, `${T},host=a v=3i\n`, `${T},host=c v=4i\n`, `${T},host=b v=5i\n`];
  const parsed = parseWithCache([lines.join('')]);
  t.deepEqual(columnValues(tableNamed(parsed, T), 'host'), ['a', 'b', 'a', 'c', 'b']);
  t.is(parsed.hits, 2);
  t.is(parsed.size, 3);
});

test('the same tags under another table are another series', (t) => {
  const parsed = parseWithCache([`${T},host=x v=1i\n${U},host=x v=2i\n${T},host=x v=3i\n${U},host=y v=4i\n`]);
  t.deepEqual(columnValues(tableNamed(parsed, T), 'host'), ['x', 'x']);
  t.deepEqual(columnValues(tableNamed(parsed, T), 'v'), [1n, 3n]);
  t.deepEqual(columnValues(tableNamed(parsed, U), 'host'), ['x', 'y']);
  t.deepEqual(columnValues(tableNamed(parsed, U), 'v'), [2n, 4n]);
  t.is(parsed.hits, 1);
});

test('escaped tags: the raw bytes are the key; an escaped comma is served, an escaped space is never looked up', (t) => {
  const parsed = parseWithCache([`${T},k\\=1=a\\,b v=1i\n${T},k\\=1=a\\ b v=2i\n${T},k\\=1=a\\,b v=3i\n${T},k\\=1=a\\ b v=4i\n${T},k\\=1=a\\=b v=5i\n`]);
  const table = tableNamed(parsed, T);
  t.deepEqual(columnValues(table, 'k=1'), ['a,b', 'a b', 'a,b', 'a b', 'a=b']);
  t.deepEqual(columnValues(table, 'v'), [1n, 2n, 3n, 4n, 5n]);
  t.is(parsed.hits, 1);
});

test('the same tags in another order are another series', (t) => {
  const parsed = parseWithCache([`${T},a=1,b=2 v=1i\n${T},b=2,a=1 v=2i\n${T},b=3,a=1 v=3i\n`]);
  const table = tableNamed(parsed, T);
  t.deepEqual(columnValues(table, 'a'), ['1', '1', '1']);
  t.deepEqual(columnValues(table, 'b'), ['2', '2', '3']);
  t.is(parsed.hits, 0);
  t.is(parsed.size, 3);
});

test('a tag column that appears later gets nulls in the rows of series without it, hits included', (t) => {
  const parsed = parseWithCache([`${T},a=1 v=1i\n${T},a=1,b=2 v=2i\n${T},a=1 v=3i\n${T},a=1,b=2 v=4i\n`]);
  const table = tableNamed(parsed, T);
  t.deepEqual(columnValues(table, 'a'), ['1', '1', '1', '1']);
  t.deepEqual(columnValues(table, 'b'), [null, '2', null, '2']);
  t.deepEqual(columnValues(table, 'v'), [1n, 2n, 3n, 4n]);
  t.is(parsed.hits, 2);
});

test('a repeated tag keeps its first value on hits too', (t) => {
  const parsed = parseWithCache([`${T},a=1,a=2 v=1i\n${T},a=1,a=2 v=2i\n`]);
  t.deepEqual(columnValues(tableNamed(parsed, T), 'a'), ['1', '1']);
  t.is(parsed.hits, 1);
});

test('the cache is bounded, and series past the bound are still parsed right', (t) => {
  const seriesCount = ilpSeriesCacheEntriesMax + 100;
  let body = '';
  for (let round = 0; round < 2; round++) for (let k = 0; k < seriesCount; k++) body += `${T},host=h${k} v=${k}i\n`;
  const parsed = parseWithCache([body]);
  const hosts = columnValues(tableNamed(parsed, T), 'host');
  t.is(hosts.length, seriesCount * 2);
  t.true(hosts.every((host, row) => host === `h${row % seriesCount}`));
  t.true(parsed.size <= ilpSeriesCacheEntriesMax);
});

test('a row cut off at a chunk end drops the dictionary entries it added: the remembered ids are not reused', (t) => {
  // The second line adds host=b and is remembered, then cut off; host=c takes b's dictionary id, then b returns.
  const parsed = parseWithCache([`${T},host=a v=1i\n${T},host=b v=`, '2i\n', `${T},host=c v=3i\n${T},host=b v=4i\n${T},host=b v=5i\n`]);
  t.deepEqual(columnValues(tableNamed(parsed, T), 'host'), ['a', 'b', 'c', 'b', 'b']);
  t.deepEqual(columnValues(tableNamed(parsed, T), 'v'), [1n, 2n, 3n, 4n, 5n]);
});

test('every cut of a body with repeated series builds the same columns as the whole body', (t) => {
  const body = `${T},host=a,r=x v=1i\n${T},host=b,r=x v=2i\n${T},host=a,r=x v=3i\n${T},host=c,r=y v=4i\n${T},host=b,r=x v=5i\n${T},host=c,r=y v=6i\n`;
  const expected = JSON.stringify(parseChunks([Buffer.from(body)]), (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
  for (let first = 1; first < body.length; first += 7) {
    for (let second = first; second < body.length; second += 11) {
      const outcome = parseChunks([Buffer.from(body.slice(0, first)), Buffer.from(body.slice(first, second)), Buffer.from(body.slice(second))]);
      t.is(JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)), expected, `cuts ${first},${second}`);
    }
  }
});

test('rows emptied between commit units (resetRows) are not served stale ids', (t) => {
  const parser = new IlpParser(parserOptions());
  parser.feed(Buffer.from(`${T},host=a v=1i\n${T},host=b v=2i\n`));
  parser.resetRows();
  parser.feed(Buffer.from(`${T},host=b v=3i\n${T},host=a v=4i\n${T},host=b v=5i\n`));
  parser.finish();
  const [table] = parser.tables().map(decodeTable);
  t.deepEqual(table === undefined ? [] : columnValues(table, 'host'), ['b', 'a', 'b']);
  t.is(parser.seriesCacheStats().hits, 1);
});

test('a tag written into an existing VARCHAR column is not remembered, and stays right', (t) => {
  const lookupTable = existingTables(tableMeta(T, [['host', 'VARCHAR'], ['v', 'LONG'], ['ts', 'TIMESTAMP']], 'ts'));
  const parsed = parseWithCache([`${T},host=a v=1i\n${T},host=a v=2i\n`], { lookupTable });
  t.deepEqual(columnValues(tableNamed(parsed, T), 'host'), ['a', 'a']);
  t.is(parsed.hits, 0);
  t.is(parsed.size, 0);
});
