// IlpParser on valid bodies: every field type and its spellings, strings and escapes, comments, empty lines
// and CRLF, designated timestamps in every precision and suffix, protocol 2 binary doubles, repeated fields,
// columns that appear mid-request, and values written into the columns of a table that already exists.
import test from 'ava';
import {
  FIXED_NOW_MICROS, binaryDouble, bytesOf, columnTypes, columnValues, doubleWithDelimiterBytes, existingTables,
  parsedTable, parsedTables, tableMeta,
} from '../../helpers/ilp-parse.js';

test('integers: LONG with the i suffix, exact beyond 2^53, and the INT64 minimum read as the LONG null', (t) => {
  const table = parsedTable('t a=0i\nt a=-12i\nt a=+7i\nt a=9223372036854775807i\nt a=-9223372036854775807i\nt a=-9223372036854775808i\nt a=9007199254740993i\n');
  t.deepEqual(columnTypes(table), [['a', 'LONG']]);
  t.deepEqual(columnValues(table, 'a'), [0n, -12n, 7n, 9223372036854775807n, -9223372036854775807n, null, 9007199254740993n]);
});

test('doubles: decimals, exponents, .5 and 1., signed zero, NaN and both infinities', (t) => {
  const texts = ['1.5', '-2', '1e+21', '1E-3', '2.5e3', '.5', '1.', '-0.0', '0.0', 'NaN', 'Infinity', '-Infinity', '1e400', '123456789012345678901234567890', '0.1', '5e-324'];
  const table = parsedTable(texts.map((text) => `t x=${text}\n`).join(''));
  t.deepEqual(columnTypes(table), [['x', 'DOUBLE']]);
  t.deepEqual(columnValues(table, 'x'), [1.5, -2, 1e21, 0.001, 2500, 0.5, 1, -0, 0, NaN, Infinity, -Infinity, Infinity, 1.2345678901234568e29, 0.1, 5e-324]);
  t.true(Object.is(columnValues(table, 'x')[7], -0), '-0.0 keeps its sign');
});

test('booleans in every spelling QuestDB accepts', (t) => {
  const spellings = ['t', 'T', 'true', 'True', 'TRUE', 'f', 'F', 'false', 'False', 'FALSE'];
  const table = parsedTable(spellings.map((word) => `t b=${word}\n`).join(''));
  t.deepEqual(columnTypes(table), [['b', 'BOOLEAN']]);
  t.deepEqual(columnValues(table, 'b'), [true, true, true, true, true, false, false, false, false, false]);
});

test('strings: escaped quote and backslash, backslash-newline as the official client writes it, raw newlines and UTF-8', (t) => {
  const body = 't s="plain"\nt s="say \\"hi\\""\nt s="back\\\\slash"\nt s="line\\\nbreak"\nt s="raw\nnewline"\nt s=""\nt s="é 🙂, = x"\nt s="\\n stays"\n';
  const table = parsedTable(body);
  t.deepEqual(columnTypes(table), [['s', 'VARCHAR']]);
  t.deepEqual(columnValues(table, 's'), ['plain', 'say "hi"', 'back\\slash', 'line\nbreak', 'raw\nnewline', '', 'é 🙂, = x', '\\n stays']);
});

test('tags become SYMBOL columns; escaped space, comma and equals in table names, tag keys, tag values and field keys', (t) => {
  const table = parsedTable('my\\ table\\,x,tag\\ key=v\\ a\\,b\\=c,k2=plain fi\\=eld\\ x=1i,q=2i 1000\n');
  t.is(table.name, 'my table,x');
  t.deepEqual(columnTypes(table), [['tag key', 'SYMBOL'], ['k2', 'SYMBOL'], ['fi=eld x', 'LONG'], ['q', 'LONG']]);
  t.deepEqual(columnValues(table, 'tag key'), ['v a,b=c']);
  t.deepEqual(columnValues(table, 'fi=eld x'), [1n]);
});

test('TIMESTAMP fields: t is microseconds, n is nanoseconds truncated toward zero', (t) => {
  const table = parsedTable('t a=1700000000123456t,b=1700000000123456789n\nt a=-5t,b=-1999n\nt a=0t,b=999n\n');
  t.deepEqual(columnTypes(table), [['a', 'TIMESTAMP'], ['b', 'TIMESTAMP']]);
  t.deepEqual(columnValues(table, 'a'), [1700000000123456n, -5n, 0n]);
  t.deepEqual(columnValues(table, 'b'), [1700000000123456n, -1n, 0n]);
});

test('comments, empty lines, CRLF line ends and a last line without a newline', (t) => {
  const table = parsedTable('# a comment\n\nt a=1i\r\n\r\n# another, with = and "quotes"\r\nt a=2i 5000\r\n\nt a=3i');
  t.deepEqual(columnValues(table, 'a'), [1n, 2n, 3n]);
  t.deepEqual(table.timestamps, [FIXED_NOW_MICROS, 5, FIXED_NOW_MICROS]);
});

test('a line without a timestamp takes the server clock', (t) => {
  const table = parsedTable('t a=1i\nt,tag=x a=2i\n');
  t.deepEqual(table.timestamps, [FIXED_NOW_MICROS, FIXED_NOW_MICROS]);
});

test('designated timestamps without a suffix are in the precision unit: n, u, ms, s, m and h', (t) => {
  const cases = [['ns', '1700000000123456789', 1700000000123456], ['us', '1700000000123456', 1700000000123456], ['ms', '1700000000123', 1700000000123000],
    ['s', '1700000000', 1700000000000000], ['m', '28333333', 1699999980000000], ['h', '472222', 1699999200000000]] as const;
  for (const [precision, text, micros] of cases) {
    t.deepEqual(parsedTable(`t a=1i ${text}\n`, { precision }).timestamps, [micros], precision);
  }
});

test('designated timestamps with a t (µs) or n (ns) suffix ignore the precision; nanoseconds are truncated', (t) => {
  for (const precision of ['ns', 's', 'h'] as const) {
    t.deepEqual(parsedTable('t a=1i 1700000000123456t\nt a=2i 1700000000123456999n\nt a=3i 999n\n', { precision }).timestamps, [1700000000123456, 1700000000123456, 0], precision);
  }
});

test('protocol 2 binary doubles, including values whose bytes hold a line feed, space, comma, quote and equals', (t) => {
  const awkward = doubleWithDelimiterBytes();
  const body = bytesOf('t x==', binaryDouble(1.25), ',y==', binaryDouble(awkward), ',z==', binaryDouble(NaN), ' 1000n\n',
    't x==', binaryDouble(-Infinity), ',y=2.5,z==', binaryDouble(-0), '\n', 't,tag=a x==', binaryDouble(Number.MAX_VALUE), '\r\n');
  const table = parsedTable(body);
  t.deepEqual(columnTypes(table), [['x', 'DOUBLE'], ['y', 'DOUBLE'], ['z', 'DOUBLE'], ['tag', 'SYMBOL']]);
  t.deepEqual(columnValues(table, 'x'), [1.25, -Infinity, Number.MAX_VALUE]);
  t.deepEqual(columnValues(table, 'y'), [awkward, 2.5, NaN]);
  t.true(Object.is(columnValues(table, 'z')[1], -0));
  t.deepEqual(table.timestamps, [1, FIXED_NOW_MICROS, FIXED_NOW_MICROS]);
});

test('a field repeated in a line keeps its first value, whatever the type of the second', (t) => {
  const table = parsedTable('t a=1i,a=2i,b="x",a=2.5,b="y"\nt,s=one,s=two s=3i\n');
  t.deepEqual(columnValues(table, 'a'), [1n, null]);
  t.deepEqual(columnValues(table, 'b'), ['x', null]);
  t.deepEqual(columnValues(table, 's'), [null, 'one']);
});

test('column names are case-insensitive: the first spelling names the column', (t) => {
  const table = parsedTable('t Val=1i\nt VAL=2i,val=3i\nt vAl=4i\n');
  t.deepEqual(columnTypes(table), [['Val', 'LONG']]);
  t.deepEqual(columnValues(table, 'Val'), [1n, 2n, 4n]);
});

test('columns that appear mid-request hold nulls in the rows before them; rows that leave one out hold a null', (t) => {
  const table = parsedTable('t a=1i\nt a=2i,b=1.5\nt,s=x c="z"\nt a=4i,d=true\nt d=f\n');
  t.deepEqual(columnTypes(table), [['a', 'LONG'], ['b', 'DOUBLE'], ['s', 'SYMBOL'], ['c', 'VARCHAR'], ['d', 'BOOLEAN']]);
  t.deepEqual(columnValues(table, 'a'), [1n, 2n, null, 4n, null]);
  t.deepEqual(columnValues(table, 'b'), [NaN, 1.5, NaN, NaN, NaN]);
  t.deepEqual(columnValues(table, 's'), [null, null, 'x', null, null]);
  t.deepEqual(columnValues(table, 'c'), [null, null, 'z', null, null]);
  t.deepEqual(columnValues(table, 'd'), [false, false, false, true, false], 'BOOLEAN has no null: false');
});

test('fields reordered between lines land in the right columns', (t) => {
  const table = parsedTable('t a=1i,b=2i,c=3i\nt c=30i,a=10i,b=20i\nt b=200i\nt a=1000i,b=2000i,c=3000i\n');
  t.deepEqual(columnValues(table, 'a'), [1n, 10n, null, 1000n]);
  t.deepEqual(columnValues(table, 'b'), [2n, 20n, 200n, 2000n]);
  t.deepEqual(columnValues(table, 'c'), [3n, 30n, null, 3000n]);
});

test('one request writes several tables; table names are case-insensitive', (t) => {
  const tables = parsedTables('a x=1i\nb y=2i\nA x=3i\nb y=4i\n');
  t.deepEqual(tables.map((table) => [table.name, table.rowCount]), [['a', 2], ['b', 2]]);
  t.deepEqual(columnValues(tables[0] as (typeof tables)[0], 'x'), [1n, 3n]);
});

test('an auto-created table gets the designated timestamp column `timestamp`', (t) => {
  const table = parsedTable('t a=1i 1000\n');
  t.deepEqual(table.timestamps, [1]);
  t.deepEqual(columnTypes(table), [['a', 'LONG']], 'the designated timestamp is not one of the written columns');
});

const EXISTING = tableMeta('ex', [['b', 'BYTE'], ['s', 'SHORT'], ['i', 'INT'], ['f', 'FLOAT'], ['d', 'DOUBLE'], ['dt', 'DATE'], ['ts2', 'TIMESTAMP'],
  ['c', 'CHAR'], ['st', 'STRING'], ['sy', 'SYMBOL'], ['v', 'VARCHAR'], ['u', 'UUID'], ['ts', 'TIMESTAMP']], 'ts');

test('values convert into the wider types of existing columns, which keep their names and types', (t) => {
  const body = 'EX b=-128i,s=32767i,i=2147483647i,f=1.5,d=7i,dt=86400000i,ts2=1700000000000000i,c="x",st="text",sy="sym",v="var",u="11111111-2222-3333-4444-555555555555" 1000\n'
    + 'ex f=16777217i,d=9223372036854775807i,dt=86400000000t,ts2=5000n\n';
  const table = parsedTable(body, { lookupTable: existingTables(EXISTING) });
  t.is(table.name, 'ex');
  t.deepEqual(columnValues(table, 'b'), [-128, 0]);
  t.deepEqual(columnValues(table, 's'), [32767, 0]);
  t.deepEqual(columnValues(table, 'i'), [2147483647, null]);
  t.deepEqual(columnValues(table, 'f'), [1.5, 16777216]);
  t.deepEqual(columnValues(table, 'd'), [7, 9223372036854775807]);
  t.deepEqual(columnValues(table, 'dt'), [86400000n, 86400000n]);
  t.deepEqual(columnValues(table, 'ts2'), [1700000000000000n, 5n]);
  t.deepEqual(columnValues(table, 'c'), ['x', '\u0000']);
  t.deepEqual(columnValues(table, 'st'), ['text', null]);
  t.deepEqual(columnValues(table, 'sy'), ['sym', null]);
  t.deepEqual(columnValues(table, 'u'), ['11111111-2222-3333-4444-555555555555', null]);
  t.deepEqual(table.timestamps, [1, FIXED_NOW_MICROS]);
});

test('a LONG beyond 2^53 written into an existing FLOAT column keeps its magnitude (it was stored as NaN)', (t) => {
  const table = parsedTable('fl f=9223372036854775807i\nfl f=-9007199254740993i\n', { lookupTable: existingTables(tableMeta('fl', [['f', 'FLOAT'], ['ts', 'TIMESTAMP']], 'ts')) });
  t.deepEqual(columnValues(table, 'f'), [Math.fround(9223372036854775807), Math.fround(-9007199254740993)]);
});

test('a tag whose name is an existing non-SYMBOL text column writes into it', (t) => {
  const table = parsedTable('ex,v=tagged,st=also a=1i\n', { lookupTable: existingTables(EXISTING) });
  t.deepEqual(columnValues(table, 'v'), ['tagged']);
  t.deepEqual(columnValues(table, 'st'), ['also']);
});

test('an existing table without a designated timestamp takes rows with or without a timestamp', (t) => {
  const table = parsedTable('plain a=1i 1000\nplain a=2i\n', { lookupTable: existingTables(tableMeta('plain', [['a', 'LONG']])) });
  t.deepEqual(table.timestamps, []);
  t.deepEqual(columnValues(table, 'a'), [1n, 2n]);
});

test('new columns are added to an existing table when auto-create of columns is on', (t) => {
  const table = parsedTable('ex i=1i,extra=2.5\n', { lookupTable: existingTables(EXISTING) });
  t.deepEqual(columnTypes(table), [['i', 'INT'], ['extra', 'DOUBLE']]);
});

/** Lines repeating an earlier line's tag section byte for byte are replayed from the table's tag-set cache. */
const REPEATED_TAGS_BODY = [
  't,h=a,r=x v=1i 1000', 't,h=b,r=x v=2i 2000', 't,h=a,r=x v=3i 3000', 't,h=a,h=z,r=x v=4i 4000', 't,h=a,h=z,r=x v=5i 5000',
  't,h=a,r=x', 't,h=a,r=x v=6i 6000', 't,h=a,r=x h=7i 7000', 't,h\\ q=c,r=x v=8i 8000', 't,h\\ q=c,r=x v=9i 9000', 't,h=a,r=y v=10i 10000',
  // A skipped repeat of a key whose value or key holds an escape: the section is never recorded.
  't,h=a,h=w\\\\b,r=x v=11i 11000', 't,h=a,h=w\\\\b,r=x v=12i 12000', 't,h=a,h\\=k=c,h\\=k=d v=13i 13000', 't,h=a,h\\=k=c,h\\=k=d v=14i 14000',
].join('\n');

test('repeated tag sections give the values a first parse gives: duplicate keys, no fields, a field named like a tag, escaped keys', (t) => {
  const table = parsedTable(`${REPEATED_TAGS_BODY}\n`);
  t.deepEqual(columnValues(table, 'h'), ['a', 'b', 'a', 'a', 'a', 'a', 'a', 'a', null, null, 'a', 'a', 'a', 'a', 'a'], 'the first of a repeated tag key wins; a tag beats a later field');
  t.deepEqual(columnValues(table, 'r'), ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'y', 'x', 'x', null, null]);
  t.deepEqual(columnValues(table, 'h q'), [null, null, null, null, null, null, null, null, 'c', 'c', null, null, null, null, null]);
  t.deepEqual(columnValues(table, 'h=k'), [null, null, null, null, null, null, null, null, null, null, null, null, null, 'c', 'c']);
  t.deepEqual(columnValues(table, 'v'), [1n, 2n, 3n, 4n, 5n, null, 6n, null, 8n, 9n, 10n, 11n, 12n, 13n, 14n]);
});

/** Tag sections that differ only late, or have equal lengths, and more of them than the cache keeps at once. */
function manyTagSetsBody(sets: number, rounds: number): { body: string; hosts: string[] } {
  const lines: string[] = [];
  const hosts: string[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sets; k++) {
      // Same length for every k below 10000 and a difference only in the last tag's value: hashes and compares
      // must look at every byte.
      const host = `h${String(k).padStart(4, '0')}`;
      lines.push(`t,dc=eu,rack=r1,host=${host} v=${round * sets + k}i ${1000 + round * sets + k}`);
      hosts.push(host);
    }
    // A cycle in another order, so the entry tried first (the one that followed last time) is the wrong one.
    for (let k = sets - 1; k >= 0; k -= 7) {
      lines.push(`t,dc=eu,rack=r1,host=h${String(k).padStart(4, '0')} v=-1i ${1000 + round * sets + k}`);
      hosts.push(`h${String(k).padStart(4, '0')}`);
    }
  }
  return { body: `${lines.join('\n')}\n`, hosts };
}

test('thousands of tag sets repeated in and out of order (past the cache size) give the values a first parse gives', (t) => {
  const { body, hosts } = manyTagSetsBody(5000, 2);
  const table = parsedTable(body);
  t.deepEqual(columnValues(table, 'host'), hosts);
  t.true(columnValues(table, 'dc').every((value) => value === 'eu'));
  t.true(columnValues(table, 'rack').every((value) => value === 'r1'));
});

/**
 * From the second line on, a field whose column the previous line found at the same position is read by the
 * plain readers (ilp-fast-values.ts) when its text is plain; every other text falls back to the general path.
 */
test('integers, decimals and line timestamps read on the plain path give what the general path gives', (t) => {
  const longs = ['0', '-0', '7', '-12', '+7', '999999999999999', '1000000000000000', '9007199254740993', '-9223372036854775807'];
  const doubles = ['1.5', '-2', '.5', '1.', '-0.0', '0.1', '123456789012345', '1234567890.123456', '2.5e3', 'NaN', '1e400'];
  const body = longs.map((text, k) => `t a=${text}i,x=${doubles[k] ?? '0'} ${1704067200000000000 + k * 1000}\n`).join('')
    + 't a=1i,x=2 1704067200123456789n\nt a=1i,x=2 1704067200123\nt a=1i,x=2 9007199254740991999\n';
  const table = parsedTable(body);
  t.deepEqual(columnValues(table, 'a'), [0n, 0n, 7n, -12n, 7n, 999999999999999n, 1000000000000000n, 9007199254740993n, -9223372036854775807n, 1n, 1n, 1n]);
  t.deepEqual(columnValues(table, 'x'), [1.5, -2, 0.5, 1, -0, 0.1, 123456789012345, 1234567890.123456, 2500, 2, 2, 2]);
  t.true(Object.is(columnValues(table, 'x')[4], -0), '-0.0 keeps its sign');
  const micros = Date.UTC(2024, 0, 1) * 1000;
  t.deepEqual(table.timestamps, [...longs.map((_, k) => micros + k), micros + 123456, 1704067200, 9007199254740991]);
});

test('a repeated field keeps its first value on the plain path too', (t) => {
  const table = parsedTable('t a=1i,a=2i,x=1.5,x=2.5\nt a=3i,a=4i,x=3.5,x=4.5\n');
  t.deepEqual(columnValues(table, 'a'), [1n, 3n]);
  t.deepEqual(columnValues(table, 'x'), [1.5, 3.5]);
});

/**
 * Builders take their buffers from the process's pool, filled by earlier requests: every value and every null
 * must be written, never read from what a buffer held before (a BOOLEAN false, a column appearing mid-request).
 */
test('a request parsed into memory an earlier request filled holds only its own values and nulls', (t) => {
  const rows = 3000;
  const full = Array.from({ length: rows }, (_, k) => `t,s=v${k % 7} b=t,c=${k}i,d=${k}.5,e="x${k}" ${1000 + k}\n`).join('');
  parsedTable(full);
  const sparse = Array.from({ length: rows }, (_, k) => (k < rows - 2 ? `t b=f ${1000 + k}\n` : `t,s=late b=f,c=1i,d=2.5,e="y" ${1000 + k}\n`)).join('');
  const table = parsedTable(sparse);
  t.true(columnValues(table, 'b').every((value) => value === false));
  const nulls = Array.from({ length: rows - 2 }, () => null);
  t.deepEqual(columnValues(table, 's'), [...nulls, 'late', 'late']);
  t.deepEqual(columnValues(table, 'c'), [...nulls, 1n, 1n]);
  // A DOUBLE null reads back as NaN.
  t.deepEqual(columnValues(table, 'd'), [...nulls.map(() => NaN), 2.5, 2.5]);
  t.deepEqual(columnValues(table, 'e'), [...nulls, 'y', 'y']);
});
