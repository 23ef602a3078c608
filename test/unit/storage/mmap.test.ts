// The mmap adapter over svc's Node-API binding: views hold the file's bytes, a grown file is remapped, a file
// replaced at the same path is mapped anew while a renamed-away one keeps serving the pinned version, and the
// mapped-bytes gauge follows the cache; a failed map is a StorageError.
import test from 'ava';
import { appendFileSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentMappedBytes, forgetMappings, mapFileRange, mapFileRangeIfExists } from '../../../src/storage/mmap.js';

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mmap-test-'));
  try {
    run(dir);
  } finally {
    forgetMappings(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

function bytesOf(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

test('a view holds the requested range of the file; zero bytes need no mapping', (t) => {
  withDir((dir) => {
    const path = join(dir, 'x.d');
    writeFileSync(path, bytesOf('0123456789'));
    t.deepEqual(mapFileRange(path, 4), bytesOf('0123'));
    t.deepEqual(mapFileRange(path, 10), bytesOf('0123456789'));
    t.is(mapFileRange(path, 0).length, 0);
    t.is(mapFileRangeIfExists(join(dir, 'missing.d'), 8), undefined);
  });
});

test('a grown file is remapped; the gauge counts each cached mapping once and forgetMappings releases them', (t) => {
  withDir((dir) => {
    const before = currentMappedBytes();
    const path = join(dir, 'grow.d');
    writeFileSync(path, bytesOf('abcd'));
    t.deepEqual(mapFileRange(path, 4), bytesOf('abcd'));
    t.is(currentMappedBytes() - before, 4);
    appendFileSync(path, bytesOf('efgh'));
    t.deepEqual(mapFileRange(path, 8), bytesOf('abcdefgh'));
    t.is(currentMappedBytes() - before, 8, 'the larger mapping replaced the smaller one');
    forgetMappings(dir);
    t.is(currentMappedBytes(), before);
  });
});

test('a file replaced at the same path is mapped anew; a renamed-away file keeps serving its version', (t) => {
  withDir((dir) => {
    const path = join(dir, 'col.d');
    writeFileSync(path, bytesOf('old-values'));
    const pinned = mapFileRange(path, 10);
    unlinkSync(path);
    writeFileSync(join(dir, 'next.d'), bytesOf('new-values'));
    renameSync(join(dir, 'next.d'), path);
    t.deepEqual(mapFileRangeIfExists(path, 10), bytesOf('new-values'));
    t.deepEqual(pinned, bytesOf('old-values'), 'the earlier view still reads the deleted file');
    renameSync(path, join(dir, 'moved.d'));
    t.deepEqual(mapFileRange(path, 10), bytesOf('new-values'), 'a missing file is the version the caller chose');
  });
});

test('a failed map is a StorageError naming the file and the system error', (t) => {
  withDir((dir) => {
    // A directory opens for reading but cannot be mapped (ENODEV).
    const error = t.throws(() => mapFileRange(dir, 8));
    t.is(error?.name, 'StorageError');
    t.regex(error?.message ?? '', new RegExp(`cannot map ${dir} \\[mmap\\(.*\\) failed: .*\\(errno \\d+\\)\\]`));
  });
});
