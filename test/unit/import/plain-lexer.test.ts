// lexPlainBlock must lex quote-free input exactly as lexCsvBlock does at the end of input: the same rows,
// field offsets, record numbers and rejection counters, block by block, for seeded random inputs with blank
// lines, CR, CRLF, missing and extra fields, trailing delimiters and over-long lines.
import test from 'ava';
import { CsvLexer, lexCsvBlock } from '../../../src/import/csv-lexer.js';
import { lexPlainBlock } from '../../../src/import/plain-lexer.js';
import { seededRandom } from '../../helpers/seeded-random.js';

const PIECES = ['a', 'bc', '12.5', '2024-01-01T00:00:00.000000Z', '', 'x y', 'é', '-7'];
const LINE_ENDS = ['\n', '\r\n', '\r', '\n\n', '\r\n\r\n'];

function randomInput(random: () => number, delimiter: string): string {
  let text = random() < 0.2 ? '\n' : '';
  const records = 1 + Math.floor(random() * 60);
  for (let r = 0; r < records; r++) {
    const fields = 1 + Math.floor(random() * 6);
    const values: string[] = [];
    for (let f = 0; f < fields; f++) values.push(PIECES[Math.floor(random() * PIECES.length)] as string);
    if (random() < 0.05) values.push('z'.repeat(40));
    text += values.join(delimiter);
    if (r < records - 1 || random() < 0.7) text += LINE_ENDS[Math.floor(random() * LINE_ENDS.length)];
  }
  return text;
}

interface Lexed {
  rows: number[][];
  counters: number[];
}

function lexAll(buf: Buffer, delimiter: number, plain: boolean, options: { width: number; rowCapacity: number; skipExtraValues: boolean; lineBytesMax: number }): Lexed {
  const lexer = new CsvLexer({ delimiter, ...options });
  lexer.recordsToSkip = 1;
  const rows: number[][] = [];
  let pos = 0;
  for (;;) {
    const next = plain ? lexPlainBlock(lexer, buf, pos, buf.length, 7) : lexCsvBlock(lexer, buf, pos, buf.length, true, 7);
    for (let r = 0; r < lexer.rowCount; r++) {
      const row = [lexer.rowRecord[r] as number];
      for (let c = 0; c < options.width; c++) row.push(lexer.fieldStart[r * options.width + c] as number, lexer.fieldEnd[r * options.width + c] as number);
      rows.push(row);
    }
    pos = next;
    if (!lexer.stoppedAtLimit) break;
  }
  return { rows, counters: [lexer.recordCount, lexer.lastFieldCount, lexer.rejectedExtraCount, lexer.rejectedLongCount, lexer.recordsToSkip] };
}

test('quote-free input: the plain lexer agrees with the general lexer on 2,000 seeded inputs', (t) => {
  const random = seededRandom(20261123);
  for (let k = 0; k < 2000; k++) {
    const delimiter = [',', '\t', '|', ';'][k % 4] as string;
    const buf = Buffer.from(randomInput(random, delimiter), 'utf8');
    const options = { width: 1 + (k % 5), rowCapacity: 3 + (k % 9), skipExtraValues: k % 3 === 0, lineBytesMax: 30 + (k % 50) };
    const general = lexAll(buf, delimiter.charCodeAt(0), false, options);
    const plain = lexAll(buf, delimiter.charCodeAt(0), true, options);
    if (JSON.stringify(general) !== JSON.stringify(plain)) {
      t.deepEqual(plain, general, `input ${JSON.stringify(buf.toString('utf8'))} with ${JSON.stringify(options)}`);
      return;
    }
  }
  t.pass();
});
