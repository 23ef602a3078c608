// rowsWrittenToFiles: what a commit wrote into column files, read off the partition lists before and after it.
import test from 'ava';
import { rowsWrittenToFiles, type PartitionEntry } from '../../../src/storage/txn-file.js';

function entry(name: string, version: number, rowCount: number): PartitionEntry {
  return { name, version, rowCount, minTimestamp: 0, maxTimestamp: 0 };
}

test('appended rows count once; a new partition or a new version counts whole; untouched partitions not at all', (t) => {
  const before = [entry('2024-01-01', 0, 100), entry('2024-01-02', 0, 50), entry('2024-01-03', 4, 30)];
  t.is(rowsWrittenToFiles(before, before), 0);
  // 7 rows appended in place to the last partition.
  t.is(rowsWrittenToFiles(before, [before[0] as PartitionEntry, before[1] as PartitionEntry, entry('2024-01-03', 4, 37)]), 7);
  // An out-of-order merge into the first: its new version holds all 103 rows; plus a new partition of 5.
  t.is(rowsWrittenToFiles(before, [entry('2024-01-01', 9, 103), before[1] as PartitionEntry, before[2] as PartitionEntry, entry('2024-01-04', 0, 5)]), 108);
  // A dropped partition writes nothing.
  t.is(rowsWrittenToFiles(before, [before[0] as PartitionEntry, before[2] as PartitionEntry]), 0);
});
