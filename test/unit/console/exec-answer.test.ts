// Narrowing /exec answers in the console: rows with count and timings, acknowledgements, errors with their
// position, and anything else as an error rather than a crash.
import test from 'ava';
import { parseExecBody } from '../../../console/src/exec-answer.js';

test('a result keeps columns, timestamp index, rows, count and timings', (t) => {
  const body = {
    query: 'select', columns: [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'v', type: 'LONG' }], timestamp: 0,
    dataset: [['2024-01-01T00:00:00.000000Z', 1], ['2024-01-01T00:00:01.000000Z', null]], count: 250,
    timings: { authentication: 0, compiler: 1200, execute: 3400, count: 5 },
  };
  t.deepEqual(parseExecBody(body), {
    kind: 'rows', columns: body.columns, timestampIndex: 0, dataset: body.dataset, count: 250, timings: { compiler: 1200, execute: 3400, count: 5 },
  });
});

test('without count the row count is the page size, and without timings there are none', (t) => {
  const parsed = parseExecBody({ columns: [{ name: 'x', type: 'LONG' }], dataset: [[1], [2]] });
  t.like(parsed, { kind: 'rows', count: 2, timestampIndex: -1, timings: undefined });
});

test('acknowledgements and errors', (t) => {
  t.deepEqual(parseExecBody({ ddl: 'OK' }), { kind: 'ddl' });
  t.deepEqual(parseExecBody({ dml: 'OK' }), { kind: 'dml' });
  t.deepEqual(parseExecBody({ query: 'x', error: 'Invalid column: x', position: 7 }), { kind: 'error', message: 'Invalid column: x', position: 7 });
  t.deepEqual(parseExecBody({ error: 'Unauthorized', code: 'SVC_AUTH_REQUIRED' }), { kind: 'error', message: 'Unauthorized', position: 0 });
  t.like(parseExecBody('nonsense'), { kind: 'error', position: 0 });
});
