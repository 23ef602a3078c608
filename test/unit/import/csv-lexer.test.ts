// The byte-level CSV lexer: field offsets, quoting, line ends, incomplete records at a buffer's end,
// rejected records, and blank lines.
import test from 'ava';
import { CsvLexer, lexCsvBlock, utf8BomLength } from '../../../src/import/csv-lexer.js';
import { decodeField } from '../../../src/import/value-parsers.js';

interface LexResult {
  readonly rows: string[][];
  readonly consumed: number;
  readonly lexer: CsvLexer;
}

function lex(text: string, width: number, options: { atEof?: boolean; delimiter?: string; skipExtraValues?: boolean; lineBytesMax?: number } = {}): LexResult {
  const buf = Buffer.from(text, 'utf8');
  const lexer = new CsvLexer({
    delimiter: (options.delimiter ?? ',').charCodeAt(0), width, rowCapacity: 64,
    skipExtraValues: options.skipExtraValues ?? false, lineBytesMax: options.lineBytesMax ?? 1 << 20,
  });
  const consumed = lexCsvBlock(lexer, buf, 0, buf.length, options.atEof ?? true, 64);
  const rows: string[][] = [];
  for (let r = 0; r < lexer.rowCount; r++) {
    const cells: string[] = [];
    for (let c = 0; c < width; c++) {
      const slot = r * width + c;
      cells.push(decodeField(buf, lexer.fieldStart[slot], lexer.fieldEnd[slot], lexer.fieldEscaped[slot]));
    }
    rows.push(cells);
  }
  return { rows, consumed, lexer };
}

test('plain fields split on the delimiter; LF, CRLF and CR end records', (t) => {
  t.deepEqual(lex('a,b\nc,d\r\ne,f\rg,h', 2).rows, [['a', 'b'], ['c', 'd'], ['e', 'f'], ['g', 'h']]);
});

test('TAB, pipe and other single-byte delimiters', (t) => {
  t.deepEqual(lex('a\tb\n1\t2\n', 2, { delimiter: '\t' }).rows, [['a', 'b'], ['1', '2']]);
  t.deepEqual(lex('a|b\n1|2\n', 2, { delimiter: '|' }).rows, [['a', 'b'], ['1', '2']]);
  t.deepEqual(lex('a;b\n1;2\n', 2, { delimiter: ';' }).rows, [['a', 'b'], ['1', '2']]);
});

test('quoted fields keep delimiters, line ends and doubled quotes', (t) => {
  const { rows } = lex('"a,b","say ""hi""","line1\nline2"\n"",x,"\r\n"\n', 3);
  t.deepEqual(rows, [['a,b', 'say "hi"', 'line1\nline2'], ['', 'x', '\r\n']]);
});

test('a quote inside an unquoted field is literal; text after a closing quote is dropped', (t) => {
  t.deepEqual(lex('ab"c,"q"tail,z\n', 3).rows, [['ab"c', 'q', 'z']]);
});

test('empty fields, a trailing delimiter and blank lines', (t) => {
  t.deepEqual(lex(',,\n\n\r\n1,,3,\n', 4).rows, [['', '', '', ''], ['1', '', '3', '']]);
});

test('missing fields are empty; extra fields reject the record unless skipExtraValues', (t) => {
  const strict = lex('1\n1,2,3\n4,5\n', 2);
  t.deepEqual(strict.rows, [['1', ''], ['4', '5']]);
  t.is(strict.lexer.rejectedExtraCount, 1);
  const lenient = lex('1,2,3\n', 2, { skipExtraValues: true });
  t.deepEqual(lenient.rows, [['1', '2']]);
  t.is(lenient.lexer.lastFieldCount, 3);
});

test('an incomplete last record is left unconsumed unless at the end of input', (t) => {
  const partial = lex('a,b\nc,d', 2, { atEof: false });
  t.deepEqual(partial.rows, [['a', 'b']]);
  t.is(partial.consumed, 4);
  t.deepEqual(lex('a,b\nc,d', 2, { atEof: true }).rows, [['a', 'b'], ['c', 'd']]);
  // A quote in the last byte may be the first half of "": undecidable until more bytes arrive.
  t.is(lex('"ab"', 1, { atEof: false }).consumed, 0);
  t.is(lex('a,"x\ny', 2, { atEof: false }).consumed, 0);
});

test('an unclosed quote at the end of input rejects the record', (t) => {
  const result = lex('a,b\n"open,x\n', 2);
  t.deepEqual(result.rows, [['a', 'b']]);
  t.is(result.lexer.rejectedQuoteCount, 1);
});

test('records longer than lineBytesMax are rejected', (t) => {
  const result = lex('short\nthis-line-is-too-long\nok\n', 1, { lineBytesMax: 10 });
  t.deepEqual(result.rows, [['short'], ['ok']]);
  t.is(result.lexer.rejectedLongCount, 1);
});

test('recordsToSkip consumes the header; rowRecord numbers records from 1', (t) => {
  const buf = Buffer.from('h1,h2\n1,2\n\n3,4\n');
  const lexer = new CsvLexer({ delimiter: 0x2c, width: 2, rowCapacity: 8, skipExtraValues: false, lineBytesMax: 100 });
  lexer.recordsToSkip = 1;
  lexCsvBlock(lexer, buf, 0, buf.length, true, 8);
  t.is(lexer.rowCount, 2);
  t.deepEqual([lexer.rowRecord[0], lexer.rowRecord[1]], [2, 3]);
  t.is(lexer.recordCount, 3);
});

test('the row limit stops a block early and reports it', (t) => {
  const buf = Buffer.from('1\n2\n3\n');
  const lexer = new CsvLexer({ delimiter: 0x2c, width: 1, rowCapacity: 8, skipExtraValues: false, lineBytesMax: 100 });
  const consumed = lexCsvBlock(lexer, buf, 0, buf.length, true, 2);
  t.is(lexer.rowCount, 2);
  t.true(lexer.stoppedAtLimit);
  t.is(consumed, 4);
});

test('byte order mark length', (t) => {
  t.is(utf8BomLength(Buffer.from('\ufeffa')), 3);
  t.is(utf8BomLength(Buffer.from('a')), 0);
});

test('a quote or line end cannot be the delimiter', (t) => {
  t.throws(() => new CsvLexer({ delimiter: 0x22, width: 1, rowCapacity: 1, skipExtraValues: false, lineBytesMax: 1 }), { message: /invalid delimiter/ });
  t.throws(() => new CsvLexer({ delimiter: 0x0a, width: 1, rowCapacity: 1, skipExtraValues: false, lineBytesMax: 1 }), { message: /invalid delimiter/ });
});

test('an escaped-quote flag of a rejected record does not leak into the record that reuses its slots', (t) => {
  const result = lex('"a""b",x,extra\nplain,y\n', 2);
  t.deepEqual(result.rows, [['plain', 'y']]);
  t.is(result.lexer.fieldEscaped[0], 0);
});
