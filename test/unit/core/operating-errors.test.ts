// Operating failures are told apart from bugs: errno errors from the file layer become SVC_STORAGE (HTTP 500
// with the cause), V8's structure-size RangeErrors become SVC_SQL_LIMIT (found by probing GROUP BY and
// count_distinct over 20M keys, which answered 500 as if they were bugs); everything else passes unchanged.
import test from 'ava';
import { SqlError, StorageError, asLimitError, asStorageError } from '../../../src/core/errors.js';

test('errno errors become storage errors naming their cause', (t) => {
  const error = asStorageError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
  t.true(error instanceof StorageError);
  t.is((error as StorageError).httpStatus, 500);
  t.is((error as StorageError).message, 'storage failure, nothing was committed [ENOSPC: no space left on device, write]');
  const plain = new Error('not a file error');
  t.is(asStorageError(plain), plain);
  const sql = new SqlError('bad', 3);
  t.is(asStorageError(sql), sql);
});

test('structures that outgrow V8 limits become SVC_SQL_LIMIT, other RangeErrors stay bugs', (t) => {
  for (const message of ['Map maximum size exceeded', 'Set maximum size exceeded', 'Array buffer allocation failed', 'Invalid string length']) {
    const error = asLimitError(new RangeError(message));
    t.true(error instanceof SqlError, message);
    t.is((error as SqlError).code, 'SVC_SQL_LIMIT');
    t.is((error as SqlError).httpStatus, 400);
    t.is((error as SqlError).message, `query exceeds a memory limit [${message}]`);
  }
  const bug = new RangeError('Invalid typed array length: -1');
  t.is(asLimitError(bug), bug);
});

test('a real Set overflow is recognised', (t) => {
  // 2^24 entries is V8's Set limit; reaching it takes about a second, so the message is checked once here.
  const set = new Set<number>();
  let caught: unknown;
  try {
    for (let k = 0; k < 20_000_000; k++) set.add(k);
  } catch (error) {
    caught = error;
  }
  t.true(asLimitError(caught) instanceof SqlError, `V8 still reports ${String(caught)}`);
});
