// COPY <table> FROM STDIN with PostgreSQL's option list `(FORMAT csv, HEADER [true|false], DELIMITER 'c',
// NULL 'text')` or its older `[WITH] [CSV] [HEADER] [DELIMITER [AS] 'c'] [NULL [AS] 'text']` form. Only the
// FROM STDIN direction exists: rows arrive as protocol messages, so svc has no files to copy from or to.
import type { CopyStatement } from './ast.js';
import type { Token } from './token.js';
import { wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { parseTableName } from './parse-cursor.js';

interface CopyOptions {
  format: 'text' | 'csv';
  header: boolean;
  delimiter?: string;
  nullText?: string;
}

export function parseCopy(c: ParseCursor, first: Token): CopyStatement {
  const table = parseTableName(c);
  if (c.isOperator('(')) throw c.error('COPY column lists are not supported: the rows must have every column of the table, in order');
  if (c.isWord('to')) throw c.error('COPY TO is not supported: use /exp or a query');
  c.expectWord('from', "'from' expected");
  c.expectWord('stdin', "'stdin' expected: COPY reads only FROM STDIN");
  const options: CopyOptions = { format: 'text', header: false };
  c.acceptWord('with');
  if (c.acceptOperator('(')) {
    do parseCopyOption(c, options);
    while (c.acceptOperator(','));
    c.expectOperator(')');
  } else {
    while (!c.atStatementEnd()) parseLegacyCopyOption(c, options);
  }
  return {
    kind: 'copy', position: first.start, table, format: options.format, header: options.header,
    ...(options.delimiter === undefined ? {} : { delimiter: options.delimiter }),
    ...(options.nullText === undefined ? {} : { nullText: options.nullText }),
  };
}

function parseCopyOption(c: ParseCursor, options: CopyOptions): void {
  const name = c.next();
  switch (wordOf(name)) {
    case 'format': {
      const formatToken = c.next();
      const format = wordOf(formatToken);
      if (format !== 'csv' && format !== 'text') throw c.error("'csv' or 'text' expected", formatToken);
      options.format = format;
      return;
    }
    case 'header': {
      const value = wordOf(c.peek());
      if (value === 'true' || value === 'on' || value === 'false' || value === 'off') {
        c.next();
        options.header = value === 'true' || value === 'on';
      } else {
        options.header = true;
      }
      return;
    }
    case 'delimiter': options.delimiter = parseDelimiter(c); return;
    case 'null': options.nullText = parseQuoted(c); return;
    default: throw c.error(`unsupported COPY option: ${name.text}`, name);
  }
}

function parseLegacyCopyOption(c: ParseCursor, options: CopyOptions): void {
  const word = c.next();
  switch (wordOf(word)) {
    case 'csv': options.format = 'csv'; return;
    case 'header': options.header = true; return;
    case 'binary': throw c.error('COPY BINARY is not supported: use text or CSV', word);
    case 'delimiter': c.acceptWord('as'); options.delimiter = parseDelimiter(c); return;
    case 'null': c.acceptWord('as'); options.nullText = parseQuoted(c); return;
    default: throw c.error(`unsupported COPY option: ${word.text}`, word);
  }
}

function parseQuoted(c: ParseCursor): string {
  const token = c.peek();
  if (token.kind !== 'string') throw c.error('quoted string expected');
  c.next();
  return token.value;
}

function parseDelimiter(c: ParseCursor): string {
  const token = c.peek();
  const value = parseQuoted(c);
  if (value.length !== 1 || value === '\n' || value === '\r' || value === '"') throw c.error('COPY delimiter must be one character other than a quote or line end', token);
  return value;
}
