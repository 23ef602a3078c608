// The /imp response bodies: QuestDB's fixed-width text table (cell widths 15/50/15/7/12, 113-dash borders,
// CRLF), the JSON key order, and the request-level failure forms.
import test from 'ava';
import {
  importReportFromSummary, renderImportFailure, renderImportReportJson, renderImportReportText, type ImportReport,
} from '../../../src/import/import-report.js';
import { runImport } from './import-fixtures.js';

const sp = (n: number): string => ' '.repeat(n);
const BORDER = `+${'-'.repeat(113)}+\r\n`;

/** The report QuestDB's HttpSecurityTest expects for `col_a,ts` with three rows imported into `test`. */
const THREE_ROWS: ImportReport = {
  location: 'test', partitionBy: 'NONE', header: true, rowsHandled: 3, rowsImported: 3, rowsRejected: 0,
  columns: [{ name: 'col_a', type: 'INT', errors: 0 }, { name: 'ts', type: 'INT', errors: 0 }],
};

test('text report: exact QuestDB layout', (t) => {
  const expected = BORDER
    + `|${sp(6)}Location:  |${sp(46)}test  |${sp(8)}Pattern  | Locale  |${sp(6)}Errors  |\r\n`
    + `|${sp(3)}Partition by  |${sp(46)}NONE  |${sp(15)}  |${sp(7)}  |${sp(12)}  |\r\n`
    + `|${sp(6)}Timestamp  |${sp(46)}NONE  |${sp(15)}  |${sp(7)}  |${sp(12)}  |\r\n`
    + BORDER
    + `|${sp(3)}Rows handled  |${sp(49)}3  |${sp(15)}  |${sp(7)}  |${sp(12)}  |\r\n`
    + `|${sp(2)}Rows imported  |${sp(49)}3  |${sp(15)}  |${sp(7)}  |${sp(12)}  |\r\n`
    + BORDER
    + `|${sp(14)}0  |${sp(45)}col_a  |${sp(22)}INT  |${sp(11)}0  |\r\n`
    + `|${sp(14)}1  |${sp(48)}ts  |${sp(22)}INT  |${sp(11)}0  |\r\n`
    + BORDER;
  t.is(renderImportReportText(THREE_ROWS), expected);
  for (const line of expected.split('\r\n').slice(0, -1)) t.is(line.length, 115, 'every line is 115 characters wide');
});

test('text report: designated timestamp, warnings, long names cut from the left, indexed symbols', (t) => {
  const text = renderImportReportText({
    ...THREE_ROWS, timestamp: 'ts', partitionBy: 'DAY', timestampFromTable: true, partitionByFromTable: true,
    location: `t${'x'.repeat(60)}`,
    columns: [{ name: 'sym', type: 'SYMBOL', errors: 12345, indexValueBlockCapacity: 256 }, { name: 'ip', type: 'IPV4', errors: 0 }],
  });
  const lines = text.split('\r\n');
  t.is(lines[1], `|${sp(6)}Location:  |...${'x'.repeat(47)}  |${sp(8)}Pattern  | Locale  |${sp(6)}Errors  |`);
  t.is(lines[2], `|${sp(3)}Partition by  |${sp(47)}DAY  |${sp(15)}  |${sp(7)}  |${sp(2)}From Table  |`);
  t.is(lines[3], `|${sp(6)}Timestamp  |${sp(48)}ts  |${sp(15)}  |${sp(7)}  |${sp(2)}From Table  |`);
  t.is(lines[8], `|${sp(14)}0  |${sp(47)}sym  |${sp(9)}(idx/256) SYMBOL  |${sp(7)}12345  |`);
  t.is(lines[9], `|${sp(14)}1  |${sp(48)}ip  |${sp(21)}IPv4  |${sp(11)}0  |`);
});

test('JSON report: QuestDB key order, sizes per type, optional timestamp and warnings', (t) => {
  t.is(renderImportReportJson(THREE_ROWS), '{"status":"OK","location":"test","rowsRejected":0,"rowsImported":3,"header":true,'
    + '"partitionBy":"NONE","columns":[{"name":"col_a","type":"INT","size":4,"errors":0},{"name":"ts","type":"INT","size":4,"errors":0}]}');
  const json = renderImportReportJson({
    location: 'trips', partitionBy: 'DAY', timestamp: 'ts', header: false, rowsHandled: 5, rowsImported: 3, rowsRejected: 2,
    timestampFromTable: true,
    columns: [{ name: 'ts', type: 'TIMESTAMP', errors: 2 }, { name: 'v', type: 'VARCHAR', errors: 0 }, { name: 's', type: 'SYMBOL', errors: 0 }],
  });
  t.is(json, '{"status":"OK","location":"trips","rowsRejected":2,"rowsImported":3,"header":false,"partitionBy":"DAY",'
    + '"timestamp":"ts","warnings":["Existing table timestamp column is used"],"columns":[{"name":"ts","type":"TIMESTAMP","size":8,"errors":2},'
    + '{"name":"v","type":"VARCHAR","size":0,"errors":0},{"name":"s","type":"SYMBOL","size":4,"errors":0}]}');
  t.deepEqual(Object.keys(JSON.parse(json) as object), ['status', 'location', 'rowsRejected', 'rowsImported', 'header',
    'partitionBy', 'timestamp', 'warnings', 'columns']);
});

test('request-level failures: `<reason> [table=<name>]` as text or {"status":…}', (t) => {
  t.is(renderImportFailure('not enough lines', 'x', 'tabular'), 'not enough lines [table=x]');
  t.is(renderImportFailure('not enough lines', 'x', 'json'), '{"status":"not enough lines [table=x]"}');
  t.is(renderImportFailure('cannot create [table=x]', 'x', 'json'), '{"status":"cannot create [table=x]"}');
  t.is(renderImportFailure('no file name given', undefined, 'tabular'), 'no file name given');
  t.is(renderImportFailure('bad "quote"', 't', 'json'), '{"status":"bad \\"quote\\" [table=t]"}');
});

test('a session summary becomes a report byte-identical to QuestDB\'s (col_a keeps its underscore)', async (t) => {
  const run = await runImport('col_a,ts\n1000,1000\n2000,2000\n3000,3000\n');
  const report = importReportFromSummary(run.summary, { location: 'test', partitionBy: 'NONE' });
  t.is(renderImportReportText(report), renderImportReportText(THREE_ROWS));
});
