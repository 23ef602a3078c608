// The primary's capture spacing under sustained writes: the shortest while uploads are quick, four times
// the mean of the last four upload times as they slow down, never past the longest.
import test from 'ava';
import { CaptureSpacing } from '../../../src/replication/capture-spacing.js';
import { SEGMENT_SPACING_MS, SEGMENT_SPACING_MS_MAX } from '../../../src/replication/store-layout.js';

test('before any upload, and while uploads are quick, captures are the shortest spacing apart', (t) => {
  const spacing = new CaptureSpacing();
  t.is(spacing.spacingMs(), SEGMENT_SPACING_MS);
  spacing.noteUpload(20);
  spacing.noteUpload(40);
  t.is(spacing.spacingMs(), SEGMENT_SPACING_MS);
});

test('slower uploads space captures four times their mean apart, up to the longest spacing', (t) => {
  const spacing = new CaptureSpacing();
  for (const elapsedMs of [100, 120, 140, 160]) spacing.noteUpload(elapsedMs);
  t.is(spacing.spacingMs(), 4 * 130);
  spacing.noteUpload(2_000);
  t.is(spacing.spacingMs(), SEGMENT_SPACING_MS_MAX);
});

test('only the last four uploads count: the spacing comes back once uploads are quick again', (t) => {
  const spacing = new CaptureSpacing();
  spacing.noteUpload(5_000);
  for (let k = 0; k < 4; k++) spacing.noteUpload(30);
  t.is(spacing.spacingMs(), SEGMENT_SPACING_MS);
});

test('an upload time that is not a duration is a bug, not a spacing', (t) => {
  t.throws(() => new CaptureSpacing().noteUpload(Number.NaN));
});
