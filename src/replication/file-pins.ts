// Open file descriptors that keep a captured file's bytes readable until its upload is done: an fd refers to
// the inode, so the bytes survive the file being replaced or deleted (an old partition version, a dropped
// table), and a later append does not disturb the captured range. Opening costs one syscall per file and
// inode, not one per commit: the files every commit appends to (the active partition's columns) stay open
// between captures, so recording a commit's change costs no syscall beyond the scan's stat.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { assert } from '../core/assert.js';

/** One open descriptor of one inode; closed when the last reference (a capture or the cache) goes. */
export interface PinnedFile {
  readonly fd: number;
  readonly ino: bigint;
  references: number;
}

/** Open pins at most; past it captures fall back to hard links (a checkpoint of a table with many files). */
export const FILE_PINS_MAX = 1_024;

export class FilePins {
  /** By tracked path: the descriptor of the inode seen at the latest capture that used it. */
  private readonly cached = new Map<string, PinnedFile>();
  private openCount = 0;

  constructor(private readonly rootDir: string) {}

  get size(): number {
    return this.openCount;
  }

  hasRoom(): boolean {
    return this.openCount < FILE_PINS_MAX;
  }

  /** A reference to `path` at inode `ino` (the scan's stamp, taken in the same writer turn). */
  pin(path: string, ino: bigint): PinnedFile {
    const cached = this.cached.get(path);
    if (cached !== undefined && cached.ino === ino) {
      cached.references++;
      return cached;
    }
    if (cached !== undefined) this.dropCached(path, cached);
    const fd = fs.openSync(join(this.rootDir, path), 'r');
    const opened = fs.fstatSync(fd, { bigint: true }).ino;
    if (opened !== ino) {
      fs.closeSync(fd);
      assert(false, `a tracked file changed inode within one writer turn [path=${path}]`);
    }
    this.openCount++;
    // One reference for the cache, one for the caller.
    const file: PinnedFile = { fd, ino, references: 2 };
    this.cached.set(path, file);
    return file;
  }

  release(file: PinnedFile): void {
    assert(file.references > 0, 'a pinned file is released once per pin');
    if (--file.references === 0) {
      fs.closeSync(file.fd);
      this.openCount--;
    }
  }

  /** Keeps cached only the files the latest capture used; the rest close once their captures are uploaded. */
  retainOnly(paths: ReadonlySet<string>): void {
    for (const [path, file] of this.cached) if (!paths.has(path)) this.dropCached(path, file);
  }

  /** Drops the cache's references (stop); captures still queued keep theirs. */
  clear(): void {
    for (const [path, file] of this.cached) this.dropCached(path, file);
  }

  private dropCached(path: string, file: PinnedFile): void {
    this.cached.delete(path);
    this.release(file);
  }
}
