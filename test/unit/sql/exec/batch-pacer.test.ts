// The batch pacer of parallel fragments: a new one starts at its floor, and a scan that ran before over the same
// rows starts where that one ended, so its batches fall on the same rows again.
import test from 'ava';
import { BatchPacer } from '../../../../src/sql/exec/batch-pacer.js';
import { batchRowsMax } from '../../../../src/core/limits.js';

test('a new pacer starts at its floor and reports the rows it handed out', (t) => {
  const pacer = new BatchPacer(256);
  t.is(pacer.nextRows(), 256);
  t.is(pacer.currentRows, 256);
});

test('a pacer given where the last scan ended starts there, within its floor and batchRowsMax', (t) => {
  t.is(new BatchPacer(256, batchRowsMax).nextRows(), batchRowsMax);
  t.is(new BatchPacer(256, 4096).nextRows(), 4096);
  t.is(new BatchPacer(256, 16).nextRows(), 256);
  t.is(new BatchPacer(256, batchRowsMax * 4).nextRows(), batchRowsMax);
});
