// The header rule for declared types: a first line naming the declared columns, or holding a value its
// declared type cannot take, is a header; a first line of valid values is data; nothing declared, no rule.
import test from 'ava';
import { CsvLexer, lexCsvBlock } from '../../../src/import/csv-lexer.js';
import { isDeclaredHeader, type DeclaredTypes } from '../../../src/import/declared-header.js';
import { parseSchemaPart } from '../../../src/import/schema-part.js';
import type { ColumnType } from '../../../src/types/column-type.js';

function headerOf(text: string, declared: DeclaredTypes): boolean {
  const buf = Buffer.from(text);
  const width = text.split('\n')[0]?.split(',').length ?? 1;
  const lexer = new CsvLexer({ delimiter: 0x2c, width, rowCapacity: 16, skipExtraValues: false, lineBytesMax: 1 << 20 });
  lexCsvBlock(lexer, buf, 0, buf.length, true, 16);
  return isDeclaredHeader(buf, lexer, declared);
}

const table = (...columns: [string, ColumnType][]): DeclaredTypes => ({ existingColumns: columns.map(([name, type]) => ({ name, type })) });

test('an existing table: its column names (any order, any case) make a header', (t) => {
  const declared = table(['v', 'INT'], ['s', 'VARCHAR']);
  t.true(headerOf('v,s\n1,a\nx,b\n', declared));
  t.true(headerOf('S,V\na,1\n', declared));
  t.false(headerOf('v,v\n1,2\n', table(['v', 'VARCHAR'], ['w', 'VARCHAR'])), 'a repeated name is not the table\'s names');
});

test('an existing table: a first-line value its type cannot take makes a header; valid values are data', (t) => {
  t.true(headerOf('value,label\n7,x\n', table(['v', 'INT'], ['s', 'VARCHAR'])));
  t.false(headerOf('8,y\n9,z\n', table(['v', 'INT'], ['s', 'VARCHAR'])));
  t.false(headerOf('a,b\n1,2\n', table(['s', 'VARCHAR'], ['t', 'SYMBOL'])), 'text columns take any first line');
  t.true(headerOf('when,n\n2024-01-01T00:00:00.000000Z,1\n', table(['ts', 'TIMESTAMP'], ['n', 'LONG'])));
  t.false(headerOf('2024-01-01T00:00:00.000000Z,1\n', table(['ts', 'TIMESTAMP'], ['n', 'LONG'])));
  t.false(headerOf('1704067200000000,1\n', table(['ts', 'TIMESTAMP'], ['n', 'LONG'])), 'epoch numbers are timestamps');
  t.true(headerOf('b,s\n1,2\n', table(['b', 'BYTE'], ['s', 'SHORT'])));
  t.true(headerOf('300,1\n', table(['b', 'BYTE'], ['s', 'SHORT'])), 'out of BYTE range');
  t.false(headerOf(',1\n2,3\n', table(['v', 'INT'], ['w', 'INT'])), 'a blank value is NULL, not bad');
});

test('a schema part: every named column in the first line makes a header; by index, a bad value does', (t) => {
  const named = { schema: parseSchemaPart(JSON.stringify([{ name: 'v', type: 'INT' }])) };
  t.true(headerOf('v,s\n3,c\nx,d\n', named));
  t.false(headerOf('3,c\n4,d\n', named));
  const indexed = { schema: parseSchemaPart(JSON.stringify({ columns: [{ file_column_index: 0, column_type: 'INT' }] })) };
  t.true(headerOf('count,label\n4,p\n', indexed));
  t.false(headerOf('4,p\n5,q\n', indexed));
  const generated = { schema: parseSchemaPart(JSON.stringify([{ name: 'f1', type: 'DOUBLE' }])) };
  t.true(headerOf('a,price\n1,2.5\n', generated), 'without a header f1 is the second column, whose first value is no DOUBLE');
});

test('nothing declared: the rule does not apply', (t) => {
  t.false(headerOf('v,s\n1,a\n', {}));
  t.false(headerOf('v,s\n1,a\n', { schema: parseSchemaPart('[]') }));
});
