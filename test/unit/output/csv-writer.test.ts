// The /exp CSV writer against QuestDB's format (http.md §4, ExportQueryProcessor.putValue): header, line ends,
// delimiters, every column type with its null, quoting and escaping, and batches longer than one slice.
import test from 'ava';
import type { ColumnBatch, Vector } from '../../../src/sql/exec/batch.js';
import { createCsvWriter } from '../../../src/output/csv-writer.js';
import type { ExportColumn } from '../../../src/output/parquet-params.js';

const LONG_MIN = -9223372036854775808n;

function csv(columns: readonly ExportColumn[], batches: readonly ColumnBatch[], delimiter = ',', header = true): string {
  const writer = createCsvWriter(columns, { delimiter, header });
  return writer.header() + batches.map((batch) => writer.writeBatch(batch).toString('utf8')).join('');
}

function int64Vector(type: 'LONG' | 'DATE' | 'TIMESTAMP', values: readonly (bigint | null)[]): Vector {
  return {
    type,
    data: Float64Array.from(values, (v) => (v === null ? Number.NaN : Number(v))),
    exact: BigInt64Array.from(values, (v) => v ?? LONG_MIN),
  };
}

test('QuestDB’s examples: `select 1`, and a SYMBOL/INT table with `,` and TAB delimiters', (t) => {
  t.is(csv([{ name: '1', type: 'INT' }], [{ rowCount: 1, vectors: [{ type: 'INT', data: Int32Array.of(1) }] }]), '"1"\r\n1\r\n');
  const columns: ExportColumn[] = [{ name: 'sym', type: 'SYMBOL' }, { name: 'num', type: 'INT' }];
  const batch: ColumnBatch = { rowCount: 1, vectors: [{ type: 'SYMBOL', data: Int32Array.of(0), symbols: ['a'] }, { type: 'INT', data: Int32Array.of(0) }] };
  t.is(csv(columns, [batch]), '"sym","num"\r\n"a",0\r\n');
  t.is(csv(columns, [batch], '\t'), '"sym"\t"num"\r\n"a"\t0\r\n');
});

test('nm=true: no header line; column names are escaped like strings', (t) => {
  const batch: ColumnBatch = { rowCount: 1, vectors: [{ type: 'INT', data: Int32Array.of(7) }] };
  t.is(csv([{ name: 'x', type: 'INT' }], [batch], ',', false), '7\r\n');
  t.is(createCsvWriter([{ name: 'say "hi"', type: 'INT' }], { delimiter: ',', header: true }).header(), '"say ""hi"""\r\n');
});

test('every column type, then the same row with every null', (t) => {
  const columns: ExportColumn[] = [
    { name: 'b', type: 'BOOLEAN' }, { name: 'by', type: 'BYTE' }, { name: 'sh', type: 'SHORT' }, { name: 'ch', type: 'CHAR' },
    { name: 'i', type: 'INT' }, { name: 'l', type: 'LONG' }, { name: 'f', type: 'FLOAT' }, { name: 'd', type: 'DOUBLE' },
    { name: 'dt', type: 'DATE' }, { name: 'ts', type: 'TIMESTAMP' }, { name: 'sym', type: 'SYMBOL' }, { name: 's', type: 'STRING' },
    { name: 'v', type: 'VARCHAR' }, { name: 'u', type: 'UUID' }, { name: 'ip', type: 'IPV4' }, { name: 'bin', type: 'BINARY' },
  ];
  const batch: ColumnBatch = {
    rowCount: 2,
    vectors: [
      { type: 'BOOLEAN', data: Int8Array.of(1, 0) },
      { type: 'BYTE', data: Int8Array.of(-12, 0) },
      { type: 'SHORT', data: Int16Array.of(3000, 0) },
      { type: 'CHAR', data: Uint16Array.of(0x41, 0) },
      { type: 'INT', data: Int32Array.of(-5, -2147483648) },
      int64Vector('LONG', [9223372036854775807n, null]),
      { type: 'FLOAT', data: Float32Array.of(1.5, Number.NaN) },
      { type: 'DOUBLE', data: Float64Array.of(100, Number.NaN) },
      int64Vector('DATE', [1104796800000n, null]),
      int64Vector('TIMESTAMP', [1704067200100000n, null]),
      { type: 'SYMBOL', data: Int32Array.of(0, -1), symbols: ['BTC-USD'] },
      { type: 'STRING', data: ['a,b', null] },
      { type: 'VARCHAR', data: ['ünï', null] },
      { type: 'UUID', data: ['11111111-2222-3333-4444-555555555555', null] },
      { type: 'IPV4', data: Int32Array.of(-1062731775, 0) },
      { type: 'BINARY', data: [Uint8Array.of(1, 2), null] },
    ],
  };
  const [, first, second] = csv(columns, [batch]).split('\r\n');
  // TIMESTAMP keeps six fraction digits (QuestDB's putISODate of a microsecond column); DATE three.
  t.is(first, 'true,-12,3000,A,-5,9223372036854775807,1.5,100.0,"2005-01-04T00:00:00.000Z","2024-01-01T00:00:00.100000Z","BTC-USD","a,b","ünï",11111111-2222-3333-4444-555555555555,192.168.0.1,');
  // BOOLEAN, BYTE and SHORT have no null in QuestDB; their zero prints as such.
  t.is(second, 'false,0,0,,,,,,,,,,,,,');
});

test('strings: quotes and backslashes doubled, control characters escaped as QuestDB’s escapeCsvStr does', (t) => {
  const batch: ColumnBatch = { rowCount: 4, vectors: [{ type: 'STRING', data: ['say "hi"', 'back\\slash', 'two\nlines\ttab', ''] }] };
  t.is(csv([{ name: 's', type: 'STRING' }], [batch], ',', false), '"say ""hi"""\r\n"back\\\\slash"\r\n"two\\nlines\\ttab"\r\n""\r\n');
});

test('doubles and floats: QuestDB’s shortest round-trip text, non-finite values empty', (t) => {
  const batch: ColumnBatch = {
    rowCount: 5,
    vectors: [
      { type: 'DOUBLE', data: Float64Array.of(0.1, 1e21, -0, Infinity, -Infinity) },
      { type: 'FLOAT', data: Float32Array.of(0.1, 3.4028234663852886e38, -0, Infinity, Number.NaN) },
    ],
  };
  t.is(csv([{ name: 'd', type: 'DOUBLE' }, { name: 'f', type: 'FLOAT' }], [batch], ',', false), '0.1,0.1\r\n1.0E21,3.4028235E38\r\n-0.0,-0.0\r\n,\r\n,\r\n');
});

test('LONG: values past 2^53 print from the exact 64-bit form', (t) => {
  const batch: ColumnBatch = { rowCount: 3, vectors: [int64Vector('LONG', [9007199254740993n, -9223372036854775807n, -1n])] };
  t.is(csv([{ name: 'l', type: 'LONG' }], [batch], ',', false), '9007199254740993\r\n-9223372036854775807\r\n-1\r\n');
  const numbersOnly: ColumnBatch = { rowCount: 2, vectors: [{ type: 'LONG', data: Float64Array.of(-42, Number.NaN) }] };
  t.is(csv([{ name: 'l', type: 'LONG' }], [numbersOnly], ',', false), '-42\r\n\r\n');
});

test('batches longer than one formatting slice keep every row in order; symbol tables may grow between batches', (t) => {
  const symbols = ['s0'];
  const rows = 5000;
  const first: ColumnBatch = {
    rowCount: rows,
    vectors: [{ type: 'INT', data: Int32Array.from({ length: rows }, (_, k) => k) }, { type: 'SYMBOL', data: new Int32Array(rows), symbols }],
  };
  const writer = createCsvWriter([{ name: 'k', type: 'INT' }, { name: 'sym', type: 'SYMBOL' }], { delimiter: ';', header: false });
  const text = writer.writeBatch(first).toString('utf8');
  t.deepEqual(text.split('\r\n').slice(0, -1), Array.from({ length: rows }, (_, k) => `${k};"s0"`));
  symbols.push('s "1"');
  const second: ColumnBatch = { rowCount: 2, vectors: [{ type: 'INT', data: Int32Array.of(1, 2) }, { type: 'SYMBOL', data: Int32Array.of(1, -1), symbols }] };
  t.is(writer.writeBatch(second).toString('utf8'), '1;"s ""1"""\r\n2;\r\n');
  t.is(writer.writeBatch({ rowCount: 0, vectors: second.vectors }).length, 0);
});
