// Reads WAL segments in order and yields their records, stopping at the first torn or corrupt record
// (which is truncated away so later appends start from a clean tail). Of records sharing a sequence number
// only the last is returned.
import { join } from 'node:path';
import type { FilesFacade } from '../../core/files.js';
import type { WalRecord } from './wal-record.js';
import { decodeWalRecord } from './wal-record.js';

export function listWalSegments(files: FilesFacade, walDir: string): number[] {
  return files
    .list(walDir)
    .filter((name) => /^\d+\.wal$/.test(name))
    .map((name) => Number(name.slice(0, -4)))
    .sort((a, b) => a - b);
}

export function readWalRecords(files: FilesFacade, tableDir: string): WalRecord[] {
  const walDir = join(tableDir, 'wal');
  const records: WalRecord[] = [];
  for (const segment of listWalSegments(files, walDir)) {
    const path = join(walDir, `${segment}.wal`);
    const bytes = files.readFile(path);
    let offset = 0;
    for (;;) {
      const decoded = decodeWalRecord(bytes, offset);
      if (decoded === undefined) break;
      // A failed insert whose WAL tail could not be cut off is followed by the next insert under the same
      // sequence number: the later record is the one that was committed.
      const last = records[records.length - 1];
      if (last !== undefined && last.seq === decoded.record.seq) records[records.length - 1] = decoded.record;
      else records.push(decoded.record);
      offset = decoded.next;
    }
    if (offset < bytes.length) truncateTornTail(files, path, offset);
  }
  return records;
}

function truncateTornTail(files: FilesFacade, path: string, length: number): void {
  const fd = files.openWrite(path);
  try {
    files.truncate(fd, length);
  } finally {
    files.close(fd);
  }
}
