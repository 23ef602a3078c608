// The adapter of svc's memory maps (native/mmap, Node-API, loaded by core/native-binding.ts): maps committed
// column-file ranges read-only into Buffers. A mapping stays valid after its file is renamed or deleted, so
// readers keep the version they pinned; mappings are released (munmap) by the garbage collector when no view
// references them.
import { constants as bufferConstants } from 'node:buffer';
import * as fs from 'node:fs';
import { StorageError } from '../core/errors.js';
import { nativeBinding } from '../core/native-binding.js';

// Loaded at import: a process that maps column files needs the binding, and a missing build fails at start.
const binding = nativeBinding();

interface CachedMapping {
  readonly buffer: Buffer;
  readonly identity: string;
}

/**
 * Every mapping's memory. Committed rows of a mapped column file never change while the file is the same
 * inode (appends go past them; rewrites make new partition versions), so a fact computed over a range of such a
 * buffer stays true for as long as the buffer lives: see isMappedColumnMemory.
 */
const mappedMemory = new WeakSet<ArrayBufferLike>();

/** Mapped bytes currently referenced by the cache, for the memory metrics. */
let mappedBytes = 0;
const cache = new Map<string, CachedMapping>();

/**
 * Which file a path names. The inode alone is not enough: a dropped table's files are deleted and a new
 * table's files can get the same inode numbers, so the creation time is part of it (the change time where
 * the file system has no creation time; it moves on every append, which only costs a remap).
 */
function fileIdentity(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.birthtimeMs > 0 ? stat.birthtimeMs : stat.ctimeMs}`;
}

/**
 * Returns a read-only view of at least `sizeBytes` bytes of the file. Mappings are cached per path and
 * reused while the file is the same inode and the mapping is large enough (column files only grow in place).
 * The inode is checked on every call: a table dropped and created again (by the primary, so this process never
 * hears of it) puts new files at the old paths, and a mapping of the old file would serve its stale values.
 */
export function mapFileRange(path: string, sizeBytes: number): Buffer {
  if (sizeBytes === 0) return Buffer.alloc(0);
  const cached = cache.get(path);
  if (cached !== undefined && cached.buffer.length >= sizeBytes) {
    // A missing file was renamed or deleted after the caller read which files to use: the old mapping is
    // still the version it asked for.
    const current = fs.statSync(path, { throwIfNoEntry: false });
    if (current === undefined || fileIdentity(current) === cached.identity) return cached.buffer.subarray(0, sizeBytes);
  }
  return mapAndCache(path, sizeBytes);
}

/**
 * As mapFileRange, but undefined when the file does not exist (a column added after its partition was
 * written). One stat answers both questions: does the file exist, and is a cached mapping still of it.
 */
export function mapFileRangeIfExists(path: string, sizeBytes: number): Buffer | undefined {
  const current = fs.statSync(path, { throwIfNoEntry: false });
  if (current === undefined) return undefined;
  if (sizeBytes === 0) return Buffer.alloc(0);
  const cached = cache.get(path);
  if (cached !== undefined && cached.buffer.length >= sizeBytes && cached.identity === fileIdentity(current)) return cached.buffer.subarray(0, sizeBytes);
  return mapAndCache(path, sizeBytes);
}

/** Maps the file as it is now (the whole file, at least `sizeBytes`) and makes that the cached mapping of its path. */
function mapAndCache(path: string, sizeBytes: number): Buffer {
  const fd = fs.openSync(path, 'r');
  try {
    const stat = fs.fstatSync(fd);
    const buffer = mapWhole(path, fd, Math.max(sizeBytes, stat.size));
    const previous = cache.get(path);
    if (previous !== undefined) mappedBytes -= previous.buffer.length;
    mappedBytes += buffer.length;
    cache.set(path, { buffer, identity: fileIdentity(stat) });
    return buffer.subarray(0, sizeBytes);
  } finally {
    fs.closeSync(fd);
  }
}

/** One read-only shared mapping from offset 0; column scans read front to back, hence the sequential advice. */
function mapWhole(path: string, fd: number, sizeBytes: number): Buffer {
  // A Buffer cannot be longer than this (4 GiB on Node 20, 2^53 - 1 bytes from Node 22 on).
  if (sizeBytes > bufferConstants.MAX_LENGTH) {
    throw new StorageError(`cannot map ${path}: ${sizeBytes} bytes is more than this Node.js allows in one Buffer (${bufferConstants.MAX_LENGTH})`);
  }
  try {
    const buffer = binding.map(sizeBytes, fd, 0, binding.advice.sequential);
    mappedMemory.add(buffer.buffer);
    return buffer;
  } catch (error) {
    throw new StorageError(`cannot map ${path} [${error instanceof Error ? error.message : String(error)}]`);
  }
}

/** Drops cached mappings under a directory (a dropped table or a deleted partition version). */
export function forgetMappings(pathPrefix: string): void {
  for (const [path, mapping] of cache) {
    if (path.startsWith(pathPrefix)) {
      mappedBytes -= mapping.buffer.length;
      cache.delete(path);
    }
  }
}

/**
 * Whether `memory` is a column-file mapping made here, whose committed bytes are immutable for its lifetime (a
 * pooled or decoded buffer may be reused for other values, so facts about its contents must not be cached).
 */
export function isMappedColumnMemory(memory: ArrayBufferLike): boolean {
  return mappedMemory.has(memory);
}

export function currentMappedBytes(): number {
  return mappedBytes;
}
