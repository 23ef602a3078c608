// A FilesFacade for in-process crash tests. Armed with a fault list, it fails the Nth write, fsync or rename
// (through FaultFiles); in crash mode the process "dies" at that call: every later call that would change the
// disk throws, so the files stay as they were when the failed call was made, as after a kill -9 there.
// It models a process crash, not a power loss: fsyncs are counted and may fail, but do not reach the disk
// (the page cache outlives a killed process), which keeps a matrix of hundreds of commits fast.
import type { FilesFacade } from '../../src/core/files.js';
import { realFiles } from '../../src/core/files.js';
import { FaultFiles } from '../../src/core/fault-files.js';

/** The real files without the cost of fsync. */
const unsyncedFiles: FilesFacade = {
  ...realFiles,
  fsync: () => undefined,
  fsyncDir: () => undefined,
  writeFileAtomic: (path, data) => realFiles.writeFileAtomic(path, data, false),
};

function isInjected(error: unknown): boolean {
  return error instanceof Error && error.message.endsWith('(injected)');
}

export class CrashFiles implements FilesFacade {
  private inner: FilesFacade = unsyncedFiles;
  private crashAtFault = false;
  /** An injected failure happened since the last arm(). */
  fired = false;
  /** Crash mode and the fault fired: nothing changes the disk any more. */
  dead = false;

  /** Fails the call the fault list names (`write:3`), counting from now; `crash` makes that call the last. */
  arm(faults: string, crash: boolean): void {
    this.inner = new FaultFiles(unsyncedFiles, faults);
    this.crashAtFault = crash;
    this.fired = false;
    this.dead = false;
  }

  disarm(): void {
    this.inner = unsyncedFiles;
    this.crashAtFault = false;
    this.dead = false;
  }

  private change<T>(call: () => T): T {
    if (this.dead) throw Object.assign(new Error('EIO: the process crashed before this call (simulated)'), { code: 'EIO' });
    try {
      return call();
    } catch (error) {
      if (isInjected(error)) {
        this.fired = true;
        this.dead = this.crashAtFault;
      }
      throw error;
    }
  }

  openRead(path: string): number { return this.inner.openRead(path); }
  openWrite(path: string): number { return this.change(() => this.inner.openWrite(path)); }
  close(fd: number): void { this.inner.close(fd); }
  read(fd: number, into: Uint8Array, position: number): number { return this.inner.read(fd, into, position); }
  size(fd: number): number { return this.inner.size(fd); }
  readFile(path: string): Buffer { return this.inner.readFile(path); }
  exists(path: string): boolean { return this.inner.exists(path); }
  list(path: string): string[] { return this.inner.list(path); }
  fileSize(path: string): number { return this.inner.fileSize(path); }
  write(fd: number, data: Uint8Array, position: number): void { this.change(() => this.inner.write(fd, data, position)); }
  writeParts(fd: number, parts: readonly Uint8Array[], position: number): void { this.change(() => this.inner.writeParts(fd, parts, position)); }
  copyRange(source: number, target: number, length: number, sourceOffset: number, targetOffset: number): number {
    return this.change(() => this.inner.copyRange(source, target, length, sourceOffset, targetOffset));
  }
  fsync(fd: number): void { this.change(() => this.inner.fsync(fd)); }
  truncate(fd: number, length: number): void { this.change(() => this.inner.truncate(fd, length)); }
  writeFileAtomic(path: string, data: Uint8Array, durable: boolean): void { this.change(() => this.inner.writeFileAtomic(path, data, durable)); }
  rename(from: string, to: string): void { this.change(() => this.inner.rename(from, to)); }
  unlink(path: string): void { this.change(() => this.inner.unlink(path)); }
  removeTree(path: string): void { this.change(() => this.inner.removeTree(path)); }
  mkdirs(path: string): void { this.change(() => this.inner.mkdirs(path)); }
  fsyncDir(path: string): void { this.change(() => this.inner.fsyncDir(path)); }
}
