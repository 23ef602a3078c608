// The import session end to end (without disk): chunking independence, delimiters, quoting, line ends,
// BOM, request-level failures, atomicity modes, schema patterns, appends to existing tables, the designated
// timestamp, batch limits and the emitted vector layouts.
import test from 'ava';
import { ImportError } from '../../../src/core/errors.js';
import { createImportSession } from '../../../src/import/import-session.js';
import { parseSchemaPart } from '../../../src/import/schema-part.js';
import { importLineBytesMax } from '../../../src/import/import-limits.js';
import { allRows, csvText, fixedChunks, micros, randomChunks, runImport, wholeChunks } from './import-fixtures.js';

/** A small file touching every lexer path: BOM, CRLF, quotes with delimiters/quotes/newlines, UTF-8, blanks, bad values. */
const KITCHEN_SINK = '\ufeffts,name,price,qty,flag\r\n'
  + '2024-01-01T00:00:00.100000Z,"Smith, John",1.5,10,true\r\n'
  + '2024-01-01T00:00:01.000000Z,"say ""hi""",2.25,-3,false\r\n'
  + '\r\n'
  + '2024-01-01T00:00:02.5Z,"multi\nline",,7,TRUE\r\n'
  + '2024-01-02T00:00:00.000000Z,żółw 🐢,3e2,,false\r\n'
  + '2024-01-03T00:00:00.000000Z,plain,abc,12,false\r\n';

test('chunk boundaries at every byte and at random points give the same result as one chunk', async (t) => {
  const data = Buffer.from(KITCHEN_SINK, 'utf8');
  // Four records (header included) are analysed, so the bad price further down is an error, not VARCHAR.
  const options = { analysisMaxLines: 4 };
  const expected = await runImport(data, options);
  t.deepEqual(expected.columns.map((c) => c.type), ['TIMESTAMP', 'VARCHAR', 'DOUBLE', 'INT', 'BOOLEAN']);
  t.deepEqual(allRows(expected), [
    [micros('2024-01-01T00:00:00.100000Z'), 'Smith, John', 1.5, 10, 1],
    [micros('2024-01-01T00:00:01Z'), 'say "hi"', 2.25, -3, 0],
    [micros('2024-01-01T00:00:02.5Z'), 'multi\nline', null, 7, 1],
    [micros('2024-01-02T00:00:00Z'), 'żółw 🐢', 300, null, 0],
    [micros('2024-01-03T00:00:00Z'), 'plain', null, 12, 0],
  ]);
  t.deepEqual(expected.summary.columns.map((c) => c.errors), [0, 0, 1, 0, 0]);
  for (const chunking of [(d: Buffer) => fixedChunks(d, 1), (d: Buffer) => fixedChunks(d, 3)]) {
    const run = await runImport(data, options, chunking);
    t.deepEqual(allRows(run), allRows(expected));
    t.deepEqual(run.summary, expected.summary);
  }
  for (let seed = 1; seed <= 20; seed++) {
    const run = await runImport(data, options, (d) => randomChunks(d, seed));
    t.deepEqual(allRows(run), allRows(expected), `seed ${seed}`);
    t.deepEqual(run.summary, expected.summary, `seed ${seed}`);
  }
});

test('each delimiter: detected comma, TAB and pipe; a given delimiter is used as is', async (t) => {
  const rows = [['a', 'b'], ['1', 'xx'], ['2', 'yy']];
  for (const delimiter of [',', '\t', '|']) {
    const run = await runImport(csvText(rows, { delimiter }));
    t.deepEqual(allRows(run), [[1, 'xx'], [2, 'yy']], JSON.stringify(delimiter));
  }
  const given = await runImport(csvText(rows, { delimiter: ';' }), { delimiter: ';' });
  t.deepEqual(allRows(given), [[1, 'xx'], [2, 'yy']]);
  t.deepEqual(given.columns, [{ name: 'a', type: 'INT' }, { name: 'b', type: 'VARCHAR' }]);
});

test('a one-line file imports with a given delimiter and is "not enough lines" without one', async (t) => {
  const run = await runImport('1,2.5,hello', { delimiter: ',' });
  t.false(run.summary.header);
  t.deepEqual(allRows(run), [[1, 2.5, 'hello']]);
  await t.throwsAsync(runImport('1,2.5,hello\n'), { instanceOf: ImportError, message: 'not enough lines' });
});

test('an empty file and a binary file are request-level errors', async (t) => {
  await t.throwsAsync(runImport(''), { message: 'not enough lines' });
  await t.throwsAsync(runImport('\ufeff\r\n\n'), { message: 'not enough lines' });
  await t.throwsAsync(runImport('', { delimiter: ',' }), { message: 'not enough lines' });
  const binary = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x0a, 0x41, 0x0a]);
  await t.throwsAsync(runImport(binary), { instanceOf: ImportError, message: /^binary data is not supported/ });
});

test('atomicity skipCol: a bad value becomes null and counts in its column', async (t) => {
  const run = await runImport('a,b\n1,xx\nbad,yy\n3,zz\n', { analysisMaxLines: 2 });
  t.deepEqual(allRows(run), [[1, 'xx'], [null, 'yy'], [3, 'zz']]);
  t.like(run.summary, { rowsHandled: 3, rowsImported: 3, rowsRejected: 0 });
  t.deepEqual(run.summary.columns.map((c) => c.errors), [1, 0]);
});

test('atomicity skipRow: the row is dropped, counted in rowsRejected and in the column errors', async (t) => {
  const run = await runImport('a,b\n1,1.5\nbad,2.5\n3,oops\n4,4.5\n', { analysisMaxLines: 2, atomicity: 'skipRow' });
  t.deepEqual(allRows(run), [[1, 1.5], [4, 4.5]]);
  t.like(run.summary, { rowsHandled: 4, rowsImported: 2, rowsRejected: 2 });
  t.deepEqual(run.summary.columns.map((c) => c.errors), [1, 1]);
});

test('atomicity abort: the first bad value fails the import, naming its line and column', async (t) => {
  await t.throwsAsync(runImport('a,b\n1,1.5\n2,2.5\n3,oops\n', { analysisMaxLines: 2, atomicity: 'abort' }),
    { instanceOf: ImportError, message: 'bad syntax [line=4, col=1]' });
});

test('a failed session stays failed', async (t) => {
  const session = createImportSession({ analysisMaxLines: 1, forceHeader: false, atomicity: 'abort', skipLev: false, onBatch: () => undefined });
  await session.push(Buffer.from('a\n1\n'));
  await t.throwsAsync(session.push(Buffer.from('xx\n2\n')), { message: /bad syntax/ });
  await t.throwsAsync(session.finish(), { message: /bad syntax/ });
});

test('lines with extra values are rejected unless skipLev; missing values are nulls', async (t) => {
  const text = 'a,b\n1,2\n3,4,5\n6\n';
  // Four lines are too few for detection to accept a ragged delimiter count, so it is given.
  const strict = await runImport(text, { delimiter: ',' });
  t.deepEqual(allRows(strict), [[1, 2], [6, null]]);
  t.like(strict.summary, { rowsHandled: 3, rowsImported: 2, rowsRejected: 1 });
  const lenient = await runImport(text, { delimiter: ',', skipLev: true });
  t.deepEqual(allRows(lenient), [[1, 2], [3, 4], [6, null]]);
});

test('a record longer than the line limit is rejected and the import resynchronises on the next line', async (t) => {
  const long = `"${'x'.repeat(importLineBytesMax + 10)}`;
  const text = `v\n1\n2\n${long}\n3\n`;
  const run = await runImport(text, { analysisMaxLines: 2 }, (d) => fixedChunks(d, 1 << 20));
  t.deepEqual(allRows(run), [[1], [2], [3]]);
  t.like(run.summary, { rowsHandled: 4, rowsImported: 3, rowsRejected: 1 });
});

test('schema: a timestamp pattern, SYMBOL and LONG by schema, other columns still detected', async (t) => {
  const schema = parseSchemaPart('[{"name":"when","type":"TIMESTAMP","pattern":"dd/MM/yyyy HH:mm"},'
    + '{"name":"sym","type":"SYMBOL"},{"name":"n","type":"LONG"}]');
  const run = await runImport('when,sym,n,v\n25/12/2024 10:30,A,9007199254740993,1.5\n26/12/2024 11:00,B,-1,2\n01/01/2025 00:00,A,,3\n', { schema });
  t.deepEqual(run.columns.map((c) => c.type), ['TIMESTAMP', 'SYMBOL', 'LONG', 'DOUBLE']);
  t.deepEqual(allRows(run), [
    [micros('2024-12-25T10:30:00Z'), 'A', 9007199254740993n, 1.5],
    [micros('2024-12-26T11:00:00Z'), 'B', -1n, 2],
    [micros('2025-01-01T00:00:00Z'), 'A', null, 3],
  ]);
  t.is(run.batches[0].columns[1]?.kind, 'var', 'SYMBOL values travel as text; the table assigns the keys');
});

test('designated timestamp: must exist and be a timestamp; rows without a valid one are rejected', async (t) => {
  const text = 'ts,v\n2024-01-01T00:00:00.000000Z,1\n,2\nnot-a-time,3\n2024-01-01T00:00:01.000000Z,4\n';
  const run = await runImport(text, { timestampColumn: 'TS', analysisMaxLines: 2 });
  t.deepEqual(allRows(run), [[micros('2024-01-01T00:00:00Z'), 1], [micros('2024-01-01T00:00:01Z'), 4]]);
  t.like(run.summary, { rowsHandled: 4, rowsImported: 2, rowsRejected: 2 });
  t.is(run.summary.columns[0].errors, 2);
  await t.throwsAsync(runImport(text, { timestampColumn: 'nope' }), { message: "invalid timestamp column 'nope'" });
  await t.throwsAsync(runImport('ts,v\nx,1\ny,2\n', { timestampColumn: 'v' }), { message: "not a timestamp 'v'" });
  const promoted = await runImport('ts,v\n2024-01-01 10:00:00,1\n2024-01-02 10:00:00,2\n', { timestampColumn: 'ts' });
  t.deepEqual(promoted.columns[0], { name: 'ts', type: 'TIMESTAMP' }, 'a DATE-detected designated column becomes TIMESTAMP');
  t.is(allRows(promoted)[1][0], micros('2024-01-02T10:00:00Z'));
});

test('existing table: columns matched by name (any case) or position, converted, absent ones null', async (t) => {
  const existingColumns = [
    { name: 'ts', type: 'TIMESTAMP' as const }, { name: 'sym', type: 'SYMBOL' as const },
    { name: 'price', type: 'FLOAT' as const }, { name: 'qty', type: 'LONG' as const }, { name: 'note', type: 'STRING' as const },
  ];
  const run = await runImport('PRICE,TS,Qty\n1.5,2024-01-01T00:00:00Z,7\n2.5,2024-01-02T00:00:00Z,8\n', { existingColumns });
  t.deepEqual(run.columns, existingColumns);
  t.deepEqual(allRows(run), [
    [micros('2024-01-01T00:00:00Z'), null, 1.5, 7n, null],
    [micros('2024-01-02T00:00:00Z'), null, 2.5, 8n, null],
  ]);
  const positional = await runImport('1,x\n2,y\n', { existingColumns: [{ name: 'id', type: 'SHORT' }, { name: 's', type: 'VARCHAR' }] });
  t.deepEqual(allRows(positional), [[1, 'x'], [2, 'y']]);
  await t.throwsAsync(runImport('a,b,c\n1,2,3\n4,5,6\n', { existingColumns: [{ name: 'a', type: 'INT' }] }),
    { message: 'column count mismatch [textColumnCount=3, tableColumnCount=1]' });
});

test('batches hold at most batchRowsMax rows, each with fresh buffers', async (t) => {
  const lines = ['id,sym'];
  for (let i = 0; i < 70_000; i++) lines.push(`${i},S${i % 3}`);
  const schema = parseSchemaPart('[{"name":"sym","type":"SYMBOL"}]');
  const run = await runImport(`${lines.join('\n')}\n`, { schema }, (d) => fixedChunks(d, 65536));
  t.deepEqual(run.batches.map((b) => b.rowCount), [65536, 70_000 - 65536]);
  t.not(run.batches[0].columns[0]?.bytes.buffer, run.batches[1].columns[0]?.bytes.buffer);
  t.is(allRows(run)[65536][1], 'S1');
  t.is(run.summary.rowsImported, 70_000);
  t.is(allRows(run)[69_999][0], 69_999);
});

test('columns() is available once detection has run', async (t) => {
  const session = createImportSession({ analysisMaxLines: 2, forceHeader: false, atomicity: 'skipCol', skipLev: false, onBatch: () => undefined });
  await session.push(Buffer.from('a,b\n1,2\n3,4\n5,6\n'));
  t.deepEqual(session.columns(), [{ name: 'a', type: 'INT' }, { name: 'b', type: 'INT' }]);
  const summary = await session.finish();
  t.like(summary, { header: true, rowsHandled: 3, rowsImported: 3, rowsRejected: 0 });
});

test('whole-chunk helper sanity: one push, same as many', async (t) => {
  const text = csvText([['x'], ['1'], ['2']], { lineEnd: '\r\n', trailingLineEnd: false });
  t.deepEqual(allRows(await runImport(text, {}, wholeChunks)), allRows(await runImport(text, {}, (d) => fixedChunks(d, 1))));
});

test('storage layouts: every importable type, with its null and its conversion errors', async (t) => {
  const schema = parseSchemaPart(JSON.stringify([
    { name: 'b', type: 'BYTE' }, { name: 'sh', type: 'SHORT' }, { name: 'f', type: 'FLOAT' }, { name: 's', type: 'STRING' },
    { name: 'd', type: 'DATE', pattern: 'dd/MM/yyyy' },
  ]));
  const text = 'c,u,ip,bool,b,sh,f,s,d\n'
    + 'a,c2593f82-b430-328d-84a0-9f29df637e38,1.2.3.4,true,7,-300,1.5,"x,y",25/12/2024\n'
    + ',,,,,,,,\n'
    + 'Z,C2593F82-B430-328D-84A0-9F29DF637E38,10.0.0.1,FALSE,999,70000,abc,z,31/02/2024\n';
  const run = await runImport(text, { schema, analysisMaxLines: 3 });
  t.deepEqual(run.columns.map((c) => c.type), ['CHAR', 'UUID', 'IPV4', 'BOOLEAN', 'BYTE', 'SHORT', 'FLOAT', 'STRING', 'DATE']);
  const widths = run.batches[0].columns.map((column) => (column.kind === 'fixed' ? column.width : 0));
  t.deepEqual(widths, [2, 0, 4, 1, 1, 2, 4, 0, 8], 'column-file widths; UUID and STRING as text records');
  t.deepEqual(allRows(run), [
    ['a', 'c2593f82-b430-328d-84a0-9f29df637e38', 0x01020304, 1, 7, -300, 1.5, 'x,y', Date.UTC(2024, 11, 25)],
    [null, null, 0, 0, 0, 0, null, null, null],
    ['Z', 'c2593f82-b430-328d-84a0-9f29df637e38', 0x0a000001, 0, 0, 0, null, 'z', null],
  ]);
  t.deepEqual(run.summary.columns.map((c) => c.errors), [0, 0, 0, 0, 1, 1, 1, 0, 1]);
});
