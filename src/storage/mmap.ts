// The only importer of @riaskov/mmap-io: maps committed column-file ranges read-only into Buffers.
// A mapping stays valid after its file is renamed or deleted, so readers keep the version they pinned;
// mappings are released by the garbage collector when no view references them.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';

/** The part of the native binding this module uses (its bundled typings do not resolve under NodeNext). */
interface MmapBinding {
  map(size: number, protection: number, flags: number, fd: number, offset: number, advise: number): Buffer;
  readonly PROT_READ: number;
  readonly MAP_SHARED: number;
  readonly MADV_SEQUENTIAL: number;
}

const mmapIo = createRequire(import.meta.url)('@riaskov/mmap-io') as MmapBinding;

interface CachedMapping {
  readonly buffer: Buffer;
  readonly identity: string;
}

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
    const buffer = mmapIo.map(Math.max(sizeBytes, stat.size), mmapIo.PROT_READ, mmapIo.MAP_SHARED, fd, 0, mmapIo.MADV_SEQUENTIAL);
    const previous = cache.get(path);
    if (previous !== undefined) mappedBytes -= previous.buffer.length;
    mappedBytes += buffer.length;
    cache.set(path, { buffer, identity: fileIdentity(stat) });
    return buffer.subarray(0, sizeBytes);
  } finally {
    fs.closeSync(fd);
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

export function currentMappedBytes(): number {
  return mappedBytes;
}
