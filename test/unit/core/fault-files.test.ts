// The fault-injecting FilesFacade: the Nth write, fsync or rename fails once; `enospc` fails every write until
// cleared; a control file switches faults while the process runs; a failed atomic replace leaves the target
// and no temp file behind. Also the real facade's range copy, in the kernel and across file systems.
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFiles } from '../../../src/core/files.js';
import { FaultFiles, filesFromEnvironment, parseFaultPlan } from '../../../src/core/fault-files.js';

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fault-files-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function codeOf(action: () => void): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

test('fault lists parse; unknown items are ignored', (t) => {
  t.deepEqual(parseFaultPlan('write:5,fsync:3 rename:1,enospc,bogus,write:x'), { failAt: { write: 5, fsync: 3, rename: 1 }, diskFull: true });
  t.deepEqual(parseFaultPlan(''), { failAt: { write: 0, fsync: 0, rename: 0 }, diskFull: false });
});

test('the Nth write and fsync fail once, with an errno code', (t) => withDir((dir) => {
  const files = new FaultFiles(realFiles, 'write:2,fsync:1');
  const fd = files.openWrite(join(dir, 'a'));
  try {
    t.is(codeOf(() => files.write(fd, Buffer.from('x'), 0)), undefined);
    t.is(codeOf(() => files.write(fd, Buffer.from('y'), 1)), 'EIO');
    t.is(codeOf(() => files.write(fd, Buffer.from('z'), 1)), undefined);
    t.is(codeOf(() => files.fsync(fd)), 'EIO');
    t.is(codeOf(() => files.fsync(fd)), undefined);
  } finally {
    files.close(fd);
  }
  t.is(readFileSync(join(dir, 'a'), 'utf8'), 'xz');
}));

test('copyRange copies a range between offsets, answers fewer bytes at the source\'s end, and counts as a write', (t) => withDir((dir) => {
  const source = join(dir, 'source');
  // Past 1 MiB, so a copy that went through a buffer would take several blocks.
  const bytes = Buffer.from(Array.from({ length: 3 << 20 }, (_, k) => (k * 7 + (k >>> 11)) & 0xff));
  writeFileSync(source, bytes);
  const files = new FaultFiles(realFiles, 'write:2');
  const from = files.openRead(source);
  const to = files.openWrite(join(dir, 'target'));
  try {
    t.is(files.copyRange(from, to, 2 << 20, 5, 3), 2 << 20);
    t.is(codeOf(() => files.copyRange(from, to, 10, 0, 0)), 'EIO', 'the second counted write fails');
    // Asked for more than the source has after the offset: what is there.
    t.is(files.copyRange(from, to, 100, bytes.length - 40, (2 << 20) + 3), 40);
  } finally {
    files.close(from);
    files.close(to);
  }
  const copied = readFileSync(join(dir, 'target'));
  t.is(copied.length, (2 << 20) + 43);
  t.deepEqual(copied.subarray(0, 3), Buffer.alloc(3));
  t.true(copied.subarray(3, (2 << 20) + 3).equals(bytes.subarray(5, (2 << 20) + 5)));
  t.true(copied.subarray((2 << 20) + 3).equals(bytes.subarray(bytes.length - 40)));
}));

// tmpfs to the temp directory's file system: the kernel refuses copy_file_range between different file system
// types (EXDEV), so the copy goes through a buffer. Where the temp directory is tmpfs too, the kernel copies.
test('copyRange between file systems copies the same bytes', (t) => withDir((dir) => {
  const shm = mkdtempSync(join('/dev/shm', 'svc-copy-'));
  try {
    const bytes = Buffer.from(Array.from({ length: (1 << 20) * 2 + 123 }, (_, k) => (k * 13) & 0xff));
    writeFileSync(join(shm, 'source'), bytes);
    const from = realFiles.openRead(join(shm, 'source'));
    const to = realFiles.openWrite(join(dir, 'target'));
    try {
      t.is(realFiles.copyRange(from, to, bytes.length - 10, 10, 0), bytes.length - 10);
    } finally {
      realFiles.close(from);
      realFiles.close(to);
    }
    t.true(readFileSync(join(dir, 'target')).equals(bytes.subarray(10)));
  } finally {
    rmSync(shm, { recursive: true, force: true });
  }
}));

test('a control file switches a full disk on and off; counts restart at each change', (t) => withDir((dir) => {
  const control = join(dir, 'faults');
  const files = new FaultFiles(realFiles, `@${control}`);
  const target = join(dir, 'target');
  files.writeFileAtomic(target, Buffer.from('one'), true);
  writeFileSync(control, 'enospc');
  t.is(codeOf(() => files.writeFileAtomic(target, Buffer.from('two'), true)), 'ENOSPC');
  t.is(codeOf(() => files.writeFileAtomic(target, Buffer.from('two'), true)), 'ENOSPC');
  writeFileSync(control, 'rename:1');
  utimesSync(control, new Date(), new Date(Date.now() + 5000));
  t.is(codeOf(() => files.writeFileAtomic(target, Buffer.from('three'), true)), 'EIO');
  t.is(readFileSync(target, 'utf8'), 'one', 'a failed replace leaves the target as it was');
  t.deepEqual(readdirSync(dir).sort(), ['faults', 'target'], 'and no temp file');
  writeFileSync(control, '');
  files.writeFileAtomic(target, Buffer.from('four'), true);
  t.is(readFileSync(target, 'utf8'), 'four');
}));

test('without SVCTEST_FILE_FAULTS the real facade is used', (t) => {
  t.is(filesFromEnvironment(realFiles, {}), realFiles);
  t.is(filesFromEnvironment(realFiles, { SVCTEST_FILE_FAULTS: '' }), realFiles);
  t.true(filesFromEnvironment(realFiles, { SVCTEST_FILE_FAULTS: 'enospc' }) instanceof FaultFiles);
});
