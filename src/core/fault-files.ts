// Test-only FilesFacade that fails chosen storage calls: the Nth write, fsync or rename, or every write as a
// full disk. Selected by SVCTEST_FILE_FAULTS (never set in production); its value is either a fault list
// (`write:5,fsync:3,rename:1,enospc`) or `@<path>` of a control file holding one, which is re-read whenever it
// changes so a test can switch a fault on and clear it while the server runs. Counts restart at each change.
import * as fs from 'node:fs';
import { dirname } from 'node:path';
import type { FilesFacade } from './files.js';

type CountedCall = 'write' | 'fsync' | 'rename';

interface FaultPlan {
  /** 1-based index of the call (since the plan was loaded) that fails, per kind; 0 = never. */
  readonly failAt: Record<CountedCall, number>;
  /** Every write fails with ENOSPC while set. */
  readonly diskFull: boolean;
}

const NO_FAULTS: FaultPlan = { failAt: { write: 0, fsync: 0, rename: 0 }, diskFull: false };

/** Parses a fault list; unknown items are ignored so a half-written control file never breaks a run. */
export function parseFaultPlan(text: string): FaultPlan {
  const failAt: Record<CountedCall, number> = { write: 0, fsync: 0, rename: 0 };
  let diskFull = false;
  for (const item of text.split(/[\s,]+/)) {
    if (item === 'enospc') diskFull = true;
    const match = /^(write|fsync|rename):(\d+)$/.exec(item);
    if (match !== null) failAt[match[1] as CountedCall] = Number(match[2]);
  }
  return { failAt, diskFull };
}

function errnoError(code: string, text: string, call: string): Error {
  return Object.assign(new Error(`${code}: ${text}, ${call} (injected)`), { code, syscall: call });
}

export class FaultFiles implements FilesFacade {
  private plan: FaultPlan = NO_FAULTS;
  private readonly counts: Record<CountedCall, number> = { write: 0, fsync: 0, rename: 0 };
  private controlStamp = '';

  constructor(private readonly base: FilesFacade, private readonly setting: string) {
    if (!setting.startsWith('@')) this.load(setting);
  }

  private refresh(): void {
    if (!this.setting.startsWith('@')) return;
    const path = this.setting.slice(1);
    let stamp = 'absent';
    try {
      const stat = fs.statSync(path);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      // no control file: no faults
    }
    if (stamp === this.controlStamp) return;
    this.controlStamp = stamp;
    let text = '';
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch {
      text = '';
    }
    this.load(text);
  }

  private load(text: string): void {
    this.plan = parseFaultPlan(text);
    this.counts.write = 0;
    this.counts.fsync = 0;
    this.counts.rename = 0;
  }

  private check(call: CountedCall): void {
    this.refresh();
    if (call === 'write' && this.plan.diskFull) throw errnoError('ENOSPC', 'no space left on device', 'write');
    this.counts[call] += 1;
    if (this.counts[call] === this.plan.failAt[call]) throw errnoError('EIO', 'i/o error', call);
  }

  openRead(path: string): number { return this.base.openRead(path); }
  openWrite(path: string): number { return this.base.openWrite(path); }
  close(fd: number): void { this.base.close(fd); }
  read(fd: number, into: Uint8Array, position: number): number { return this.base.read(fd, into, position); }
  truncate(fd: number, length: number): void { this.base.truncate(fd, length); }
  size(fd: number): number { return this.base.size(fd); }
  readFile(path: string): Buffer { return this.base.readFile(path); }
  unlink(path: string): void { this.base.unlink(path); }
  removeTree(path: string): void { this.base.removeTree(path); }
  mkdirs(path: string): void { this.base.mkdirs(path); }
  exists(path: string): boolean { return this.base.exists(path); }
  list(path: string): string[] { return this.base.list(path); }
  fileSize(path: string): number { return this.base.fileSize(path); }

  write(fd: number, data: Uint8Array, position: number): void {
    this.check('write');
    this.base.write(fd, data, position);
  }

  /** One counted write, as the single call it is. */
  writeParts(fd: number, parts: readonly Uint8Array[], position: number): void {
    this.check('write');
    this.base.writeParts(fd, parts, position);
  }

  /** One counted write: the copy changes the target as a write does. */
  copyRange(source: number, target: number, length: number, sourceOffset: number, targetOffset: number): number {
    this.check('write');
    return this.base.copyRange(source, target, length, sourceOffset, targetOffset);
  }

  fsync(fd: number): void {
    this.check('fsync');
    this.base.fsync(fd);
  }

  rename(from: string, to: string): void {
    this.check('rename');
    this.base.rename(from, to);
  }

  fsyncDir(path: string): void {
    this.check('fsync');
    this.base.fsyncDir(path);
  }

  /** Built from the faultable calls above, so every step of an atomic replace can be made to fail. */
  writeFileAtomic(path: string, data: Uint8Array, durable: boolean): void {
    const temp = `${path}.tmp-${process.pid}`;
    const fd = this.base.openWrite(temp);
    try {
      this.base.truncate(fd, 0);
      this.write(fd, data, 0);
      if (durable) this.fsync(fd);
    } catch (error) {
      this.base.close(fd);
      this.base.unlink(temp);
      throw error;
    }
    this.base.close(fd);
    try {
      this.rename(temp, path);
    } catch (error) {
      this.base.unlink(temp);
      throw error;
    }
    if (durable) this.fsyncDir(dirname(path));
  }
}

/** The facade the storage layer uses: the real one, or a fault-injecting one when a test asks for it. */
export function filesFromEnvironment(base: FilesFacade, env: NodeJS.ProcessEnv): FilesFacade {
  const setting = env['SVCTEST_FILE_FAULTS'];
  return setting === undefined || setting === '' ? base : new FaultFiles(base, setting);
}
