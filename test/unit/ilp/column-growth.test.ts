// Column builders double their buffers at 256, 512, 1024... rows; the value of the row that triggers the growth
// must land in the new buffer. It did not for every fixed-width type written as `view[builder.next()] = value`
// (the view was read before next() replaced it): rows 256, 512, 1024 held 0 or false, over HTTP and TCP alike.
import test from 'ava';
import { columnValues, existingTables, parsedTable, tableMeta } from '../../helpers/ilp-parse.js';

const ROWS = 2100;

function bodyOf(line: (row: number) => string): string {
  let body = '';
  for (let row = 0; row < ROWS; row++) body += `${line(row)}\n`;
  return body;
}

function expected<T>(value: (row: number) => T): T[] {
  return Array.from({ length: ROWS }, (_, row) => value(row));
}

test('new DOUBLE, BOOLEAN and LONG columns keep every value across buffer growth', (t) => {
  const table = parsedTable(bodyOf((row) => `g x=${row + 0.5},b=${row % 2 === 0 ? 't' : 'f'},n=${row}i ${row}000`));
  t.deepEqual(columnValues(table, 'x'), expected((row) => row + 0.5));
  t.deepEqual(columnValues(table, 'b'), expected((row) => row % 2 === 0));
  t.deepEqual(columnValues(table, 'n'), expected((row) => BigInt(row)));
});

test('integers and doubles converted into existing INT, SHORT, BYTE, FLOAT, DOUBLE and CHAR columns keep every value', (t) => {
  const meta = tableMeta('g', [['i', 'INT'], ['s', 'SHORT'], ['y', 'BYTE'], ['f', 'FLOAT'], ['d', 'DOUBLE'], ['fi', 'FLOAT'], ['c', 'CHAR'], ['ts', 'TIMESTAMP']], 'ts');
  const table = parsedTable(
    bodyOf((row) => `g i=${row}i,s=${row}i,y=${row % 100}i,f=${row}.5,d=${row}i,fi=${row}i,c="${String.fromCharCode(65 + (row % 26))}" ${row}000`),
    { lookupTable: existingTables(meta) },
  );
  t.deepEqual(columnValues(table, 'i'), expected((row) => row));
  t.deepEqual(columnValues(table, 's'), expected((row) => row));
  t.deepEqual(columnValues(table, 'y'), expected((row) => row % 100));
  t.deepEqual(columnValues(table, 'f'), expected((row) => row + 0.5));
  t.deepEqual(columnValues(table, 'd'), expected((row) => row));
  t.deepEqual(columnValues(table, 'fi'), expected((row) => row));
  t.deepEqual(columnValues(table, 'c'), expected((row) => String.fromCharCode(65 + (row % 26))));
});
