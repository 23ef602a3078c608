// Which statement the console runs for a cursor position: `;` separates statements only outside literals,
// quoted identifiers and comments, and offsets map back into the document for error marks.
import test from 'ava';
import { splitStatements, statementAtCursor, statementSeparators } from '../../../console/src/statement-at-cursor.js';

/** The statement text chosen with the cursor at the `|` of `marked` (the bar itself removed). */
function chosen(marked: string): string | undefined {
  const cursor = marked.indexOf('|');
  return statementAtCursor(marked.slice(0, cursor) + marked.slice(cursor + 1), cursor)?.text;
}

test('semicolons inside literals, quoted identifiers and comments do not separate statements', (t) => {
  t.deepEqual(statementSeparators("select ';' from t; select 1"), [17]);
  t.deepEqual(statementSeparators('select "a;b" from t;'), [19]);
  t.deepEqual(statementSeparators('select 1 -- no; here\n; select 2'), [21]);
  t.deepEqual(statementSeparators('select /* ; */ 1;'), [16]);
  t.deepEqual(statementSeparators("select 'it''s;' ; x"), [16]);
  t.deepEqual(statementSeparators("select 'unterminated; x"), []);
});

test('statements are trimmed and blank ones dropped, with document offsets', (t) => {
  t.deepEqual(splitStatements('  select 1 ;\n\n;select 2'), [
    { from: 2, to: 10, text: 'select 1' },
    { from: 15, to: 23, text: 'select 2' },
  ]);
  t.deepEqual(splitStatements(' \n ; '), []);
});

test('the cursor picks the statement it is in, or the one just before it', (t) => {
  t.is(chosen('select 1;\nsel|ect 2;\nselect 3;'), 'select 2');
  t.is(chosen('select 1;\nselect 2;|\nselect 3;'), 'select 2');
  t.is(chosen('select 1;\nselect 2;\n\n|'), 'select 2');
  t.is(chosen('|select 1; select 2'), 'select 1');
  t.is(chosen('  |  select 1; select 2'), 'select 1');
  t.is(chosen('select 1; |select 2'), 'select 2');
  t.is(chosen('|'), undefined);
});

test('a server position maps to the document through the statement offset', (t) => {
  const doc = 'select 1;\n  select nope from t';
  const statement = statementAtCursor(doc, doc.length);
  t.truthy(statement);
  // The server reports 7 for `nope` in "select nope from t".
  t.is(doc.slice((statement?.from ?? 0) + 7, (statement?.from ?? 0) + 11), 'nope');
});
