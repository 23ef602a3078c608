// COPY FROM STDIN statements: PostgreSQL's option list, the older WITH CSV HEADER form, and what is refused.
import test from 'ava';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';

test('COPY FROM STDIN parses with the option list and the older WITH CSV HEADER form', (t) => {
  t.like(parseStatement('copy t from stdin'), { kind: 'copy', format: 'text', header: false });
  t.like(parseStatement("COPY t FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL 'NA')"), { kind: 'copy', format: 'csv', header: true, delimiter: ';', nullText: 'NA' });
  t.like(parseStatement("copy t from stdin with csv header delimiter as '|'"), { kind: 'copy', format: 'csv', header: true, delimiter: '|' });
  t.throws(() => parseStatement('copy t to stdout'), { message: /COPY TO is not supported/ });
  t.throws(() => parseStatement('copy t (a) from stdin'), { message: /column lists are not supported/ });
});
