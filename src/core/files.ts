// FilesFacade: every file-system call the storage layer makes goes through this interface,
// so tests can swap in a facade that fails the Nth write, fsync or rename, or reports a full disk.
import * as fs from 'node:fs';
import { dirname } from 'node:path';
import { nativeBinding } from './native-binding.js';

export interface FilesFacade {
  openRead(path: string): number;
  /** Opens for read/write, creating the file when absent; never truncates. */
  openWrite(path: string): number;
  close(fd: number): void;
  /** Writes all of `data` at `position` (pwrite). */
  write(fd: number, data: Uint8Array, position: number): void;
  /** Writes the parts one after another from `position` (pwritev): one call for a record made of many buffers. */
  writeParts(fd: number, parts: readonly Uint8Array[], position: number): void;
  read(fd: number, into: Uint8Array, position: number): number;
  /**
   * Copies `length` bytes of `source` from `sourceOffset` to `target` at `targetOffset`, inside the kernel where
   * it can; answers the bytes copied, fewer only when the source ends first.
   */
  copyRange(source: number, target: number, length: number, sourceOffset: number, targetOffset: number): number;
  fsync(fd: number): void;
  truncate(fd: number, length: number): void;
  size(fd: number): number;
  readFile(path: string): Buffer;
  /** Writes a whole file atomically: temp file, fsync (when asked), rename over the target, fsync the directory. */
  writeFileAtomic(path: string, data: Uint8Array, durable: boolean): void;
  rename(from: string, to: string): void;
  unlink(path: string): void;
  removeTree(path: string): void;
  mkdirs(path: string): void;
  exists(path: string): boolean;
  list(path: string): string[];
  fileSize(path: string): number;
  fsyncDir(path: string): void;
}

function writeAll(fd: number, data: Uint8Array, position: number): void {
  let offset = 0;
  while (offset < data.length) {
    offset += fs.writeSync(fd, data, offset, data.length - offset, position + offset);
  }
}

/** Parts per pwritev call, below Linux's IOV_MAX (1024). */
const WRITE_PARTS_MAX = 512;

function writePartsAll(fd: number, parts: readonly Uint8Array[], position: number): void {
  let at = position;
  for (let first = 0; first < parts.length; first += WRITE_PARTS_MAX) {
    const group = parts.slice(first, first + WRITE_PARTS_MAX);
    let left = fs.writevSync(fd, group, at);
    // A short write (rare for regular files): the rest of the group part by part.
    for (const part of group) {
      const skip = Math.min(part.length, left);
      if (skip < part.length) writeAll(fd, part.subarray(skip), at + skip);
      left -= skip;
      at += part.length;
    }
  }
}

const COPY_BLOCK_BYTES = 1 << 20;
let copyBlock: Buffer | undefined;

/** copyRange through a buffer: where the kernel cannot copy between the two files (another file system). */
function copyByBlocks(source: number, target: number, length: number, sourceOffset: number, targetOffset: number): number {
  copyBlock ??= Buffer.allocUnsafe(COPY_BLOCK_BYTES);
  const block = copyBlock;
  let done = 0;
  while (done < length) {
    const read = fs.readSync(source, block, 0, Math.min(block.length, length - done), sourceOffset + done);
    if (read <= 0) break;
    writeAll(target, block.subarray(0, read), targetOffset + done);
    done += read;
  }
  return done;
}

/**
 * copy_file_range(2): the bytes never pass through this process, and where the file system shares blocks (XFS,
 * Btrfs) it is a clone. Against a read and write a block at a time, one late row into a day partition of 5M
 * rows took 26-30 ms instead of 163-167 ms (`npm run bench -- o3`); copies of 1M rows per file and less
 * measured the same either way (bench/micro/column-copy.bench.ts).
 */
function copyRangeInKernel(source: number, target: number, length: number, sourceOffset: number, targetOffset: number): number {
  const copied = nativeBinding().copyRange(source, target, length, sourceOffset, targetOffset);
  if (copied === length) return copied;
  // The source ended, or the kernel refused these files: the rest through a buffer (which stops at the end too).
  return copied + copyByBlocks(source, target, length - copied, sourceOffset + copied, targetOffset + copied);
}

export const realFiles: FilesFacade = {
  openRead: (path) => fs.openSync(path, 'r'),
  openWrite: (path) => fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644),
  close: (fd) => fs.closeSync(fd),
  write: writeAll,
  writeParts: writePartsAll,
  read: (fd, into, position) => fs.readSync(fd, into, 0, into.length, position),
  copyRange: copyRangeInKernel,
  fsync: (fd) => fs.fsyncSync(fd),
  truncate: (fd, length) => fs.ftruncateSync(fd, length),
  size: (fd) => fs.fstatSync(fd).size,
  readFile: (path) => fs.readFileSync(path),
  writeFileAtomic(path, data, durable) {
    const temp = `${path}.tmp-${process.pid}`;
    const fd = fs.openSync(temp, 'w', 0o644);
    try {
      writeAll(fd, data, 0);
      if (durable) fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(temp, path);
    } catch (error) {
      // A failed replace leaves the target as it was and no temp file behind (a full disk stays full otherwise).
      try { fs.closeSync(fd); } catch { /* already closed */ }
      fs.rmSync(temp, { force: true });
      throw error;
    }
    if (durable) realFiles.fsyncDir(dirname(path));
  },
  rename: (from, to) => fs.renameSync(from, to),
  unlink: (path) => fs.rmSync(path, { force: true }),
  removeTree: (path) => fs.rmSync(path, { recursive: true, force: true }),
  mkdirs: (path) => { fs.mkdirSync(path, { recursive: true }); },
  exists: (path) => fs.existsSync(path),
  list: (path) => (fs.existsSync(path) ? fs.readdirSync(path) : []),
  fileSize: (path) => fs.statSync(path).size,
  fsyncDir(path) {
    const fd = fs.openSync(path, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
};

/**
 * Removes a directory tree when it can. For leftovers nothing refers to any more (uncommitted partitions,
 * aborted staging): a failure leaves them to the clean-up at the next start, so callers need not handle it.
 */
export function removeTreeQuietly(files: FilesFacade, path: string): void {
  try {
    files.removeTree(path);
  } catch {
    // Removed at the next start.
  }
}

/**
 * fsyncs every file and directory under `root` (fsync acts on the inode, so data written through other
 * descriptors or mmap is flushed too); returns the number of files synced. Used by shutdown and
 * SNAPSHOT PREPARE, whatever the commit mode.
 */
export function syncTree(root: string): number {
  let count = 0;
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) {
        syncPath(path);
        count++;
      }
    }
    syncPath(dir);
  };
  if (fs.existsSync(root)) visit(root);
  return count;
}

function syncPath(path: string): void {
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch (error) {
    // Removed meanwhile (a partition version past its grace period): nothing left to flush.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
