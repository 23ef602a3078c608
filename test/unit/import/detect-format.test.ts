// Detection: delimiter, header, column types with QuestDB's probe order, and name cleaning/generation.
import test from 'ava';
import { detectDelimiter } from '../../../src/import/detect-delimiter.js';
import { resolveColumnNames } from '../../../src/import/import-names.js';
import { sanitizeColumnName, sanitizeTableName } from '../../../src/import/detect-format.js';
import { csvText, runImport } from './import-fixtures.js';

function delimiterOf(text: string, atEof = true): string {
  return String.fromCharCode(detectDelimiter(Buffer.from(text), 1000, atEof));
}

test('delimiter: comma, TAB, pipe, semicolon; quoted delimiters do not count', (t) => {
  const rows = [['a', 'b', 'c'], ['1', '2', '3'], ['4', '5', '6']];
  t.is(delimiterOf(csvText(rows)), ',');
  t.is(delimiterOf(csvText(rows, { delimiter: '\t' })), '\t');
  t.is(delimiterOf(csvText(rows, { delimiter: '|' })), '|');
  t.is(delimiterOf(csvText(rows, { delimiter: ';' })), ';');
  t.is(delimiterOf('name|note\nx|"a,b,c"\ny|"d,e"\n'), '|');
  t.is(delimiterOf('ts,v\n2024-01-01 10:00:00,1\n2024-01-02 11:00:00,2\n'), ',', 'ties go to the priority delimiter');
});

test('delimiter: a few ragged lines still give the common delimiter; a last line without LF counts at EOF', (t) => {
  const lines = ['a,b,c'];
  for (let i = 0; i < 20; i++) lines.push(i === 7 ? '1,2,3,4' : '1,2,3');
  t.is(delimiterOf(lines.join('\n')), ',');
  t.is(delimiterOf('a,b\n1,2', true), ',');
});

test('delimiter: fewer than two lines is "not enough lines"; one column without delimiters is read as CSV', (t) => {
  t.throws(() => delimiterOf('a,b\n'), { message: 'not enough lines' });
  t.throws(() => delimiterOf('a,b\n1,2', false), { message: 'not enough lines' });
  t.is(delimiterOf('alpha\nbe\ngamma\n'), ',');
  t.throws(() => delimiterOf('alpha\nbe\ngamma delta epsilon\nx\n'), { message: /^min deviation is too high \[delimiterStdDev=/ });
});

test('header: detected when the first line is text over typed columns, absent otherwise, forced on request', async (t) => {
  const withHeader = await runImport('id,price\n1,1.5\n2,2.5\n');
  t.true(withHeader.summary.header);
  t.deepEqual(withHeader.columns, [{ name: 'id', type: 'INT' }, { name: 'price', type: 'DOUBLE' }]);
  const noHeader = await runImport('1,1.5\n2,2.5\n');
  t.false(noHeader.summary.header);
  t.deepEqual(noHeader.columns.map((c) => c.name), ['f0', 'f1'], 'QuestDB generates f<index> names');
  const allText = await runImport('name,city\nann,paris\nbob,rome\n');
  t.false(allText.summary.header, 'all-text files look like data to QuestDB too');
  t.is(allText.summary.rowsImported, 3);
  const forced = await runImport('name,city\nann,paris\nbob,rome\n', { forceHeader: true });
  t.true(forced.summary.header);
  t.deepEqual(forced.columns, [{ name: 'name', type: 'VARCHAR' }, { name: 'city', type: 'VARCHAR' }]);
  t.is(forced.summary.rowsImported, 2);
});

test('types: every probe QuestDB runs, in its priority order', async (t) => {
  const header = ['c', 'i', 'l', 'd', 'b', 'u', 'ip', 'dmy', 'dt', 'dms', 'tsus', 'tsz', 'tsspace', 'v', 'blank'];
  const rows = [header,
    ['a', '1', '3000000000', '1.5', 'true', 'c2593f82-b430-328d-84a0-9f29df637e38', '10.0.0.1', '25/12/2024',
      '2024-01-01 10:00:00', '2024-01-01T00:00:00.123Z', '2024-01-01T00:00:00.100000Z', '2024-01-01T00:00:00Z',
      '2024-01-01 00:00:00.5', 'hello', ''],
    ['B', '-2', '-1', '2', 'FALSE', '00000000-0000-0000-0000-000000000001', '192.168.1.255', '01/02/2024',
      '2024-12-31 23:59:59', '2024-01-01T00:00:00.999Z', '2024-01-01T00:00:00.1Z', '2024-06-01T10:20:30Z',
      '2024-01-01 00:00:01.250000', 'x y', ''],
  ];
  const run = await runImport(csvText(rows));
  t.true(run.summary.header);
  t.deepEqual(run.columns.map((c) => c.type), ['CHAR', 'INT', 'LONG', 'DOUBLE', 'BOOLEAN', 'UUID', 'IPV4', 'DATE', 'DATE',
    'DATE', 'TIMESTAMP', 'TIMESTAMP', 'TIMESTAMP', 'VARCHAR', 'VARCHAR']);
});

test('types: blanks do not decide a type; mixed values fall back to VARCHAR; SYMBOL is never detected', async (t) => {
  const run = await runImport('a,b,c,d\n1,,xy,x\n,2.5,xy,y\n3,text,xy,z\n');
  t.deepEqual(run.columns.map((c) => c.type), ['INT', 'VARCHAR', 'VARCHAR', 'CHAR'], 'single letters are CHAR, as in QuestDB');
});

test('types: only analysisMaxLines lines are analysed', async (t) => {
  const rows = [['v'], ['1'], ['2'], ['oops']];
  const run = await runImport(csvText(rows), { analysisMaxLines: 3 });
  t.deepEqual(run.columns, [{ name: 'v', type: 'INT' }]);
  t.is(run.summary.columns[0].errors, 1);
});

test('names: the spec characters (all but `_`, which QuestDB keeps) are removed from table and column names', (t) => {
  t.is(sanitizeTableName('my data.csv'), 'mydatacsv');
  t.is(sanitizeTableName(' a?b,c:d\\e/f(g)h_i+j-k*l~m%n\u0000o\t'), 'abcdefgh_ijklmno');
  t.throws(() => sanitizeTableName('...'), { message: /invalid table name/ });
  t.is(sanitizeColumnName('Trip Id'), 'TripId');
  t.is(sanitizeColumnName('price_usd'), 'price_usd');
  t.is(sanitizeColumnName('"quoted"'), 'quoted');
  t.is(sanitizeColumnName('1st'), '_1st', 'a leading digit gets a leading underscore, as in QuestDB');
  t.is(sanitizeColumnName('\ufeffts'), 'ts');
});

test('names: empty header cells get f<index>, duplicates get a numeric suffix', (t) => {
  t.deepEqual(resolveColumnNames(['a', '', 'A', 'f1'], 4), ['a', 'f1_', 'A_2', 'f1']);
  t.deepEqual(resolveColumnNames(undefined, 3), ['f0', 'f1', 'f2']);
});
