// The fault-injecting FilesFacade: the Nth write, fsync or rename fails once; `enospc` fails every write until
// cleared; a control file switches faults while the process runs; a failed atomic replace leaves the target
// and no temp file behind.
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
