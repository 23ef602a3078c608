// COPY text format to CSV: NULL marker, escapes, quoting, lines split across CopyData messages, the `\.` end line.
import test from 'ava';
import { CopyTextToCsv } from '../../../src/pgwire/copy-text-format.js';

test('fields become quoted CSV values; \\N becomes an empty unquoted field; escapes are decoded', (t) => {
  const converter = new CopyTextToCsv('\t', '\\N');
  t.is(converter.push(Buffer.from('1\t\\N\ta\\tb "c"\\\\\r\n')), '"1",,"a\tb ""c""\\"\n');
});

test('a line split across messages is converted once whole; a last line without a line end at the end', (t) => {
  const converter = new CopyTextToCsv('|', '');
  t.is(converter.push(Buffer.from('1|x\n2|')), '"1","x"\n');
  t.is(converter.push(Buffer.from('y\n3|')), '"2","y"\n');
  t.is(converter.end(), '"3",\n');
});

test('the \\. line ends the data', (t) => {
  const converter = new CopyTextToCsv('\t', '\\N');
  t.is(converter.push(Buffer.from('1\n\\.\n2\n')), '"1"\n');
});
