// ObjectStore over a local or network file system (fs::root=...;atomic_write_dir=...;). A key is a path
// under root. Every write goes to a fresh file in atomic_write_dir, is fsynced, then renamed (or, for
// create-if-absent, hard-linked, which fails atomically if the key exists) into place, so readers never see a
// partial object. Both directories must be on one file system (rename cannot cross devices); open checks it.
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { ObjectInfo, ObjectStore, PutIfAbsentOutcome, ListOptions, RangeOptions, RequestOptions } from './object-store.js';
import { LIST_KEYS_MAX } from './object-store.js';
import { objectStoreError } from './object-store-error.js';
import type { FsLocation } from './connection-string.js';
import { describeLocation } from './connection-string.js';
import type { StoreOptions } from './store-options.js';
import { withRetries, type Classified } from './retry.js';
import { checkKeyPrefix, checkObjectKey } from './object-key.js';

/** errno codes that a network file system can return and that may pass (server restart, stale handle). */
const TRANSIENT_FS_ERRNO = new Set(['EIO', 'EAGAIN', 'ESTALE', 'ETIMEDOUT', 'EBUSY', 'EINTR', 'ECONNRESET']);

export class FsObjectStore implements ObjectStore {
  readonly description: string;

  private constructor(private readonly location: FsLocation, private readonly options: StoreOptions) {
    this.description = describeLocation(location);
  }

  /** Creates root and atomic_write_dir if missing and checks they share a file system. */
  static async open(location: FsLocation, options: StoreOptions): Promise<FsObjectStore> {
    const store = new FsObjectStore(location, options);
    await store.request('open', '', undefined, async () => {
      await mkdir(location.root, { recursive: true });
      await mkdir(location.atomicWriteDir, { recursive: true });
      const [rootStat, scratchStat] = await Promise.all([stat(location.root), stat(location.atomicWriteDir)]);
      if (rootStat.dev !== scratchStat.dev) {
        throw objectStoreError('rejected', 'open', store.description, '', `atomic_write_dir ${location.atomicWriteDir} is on another file system than root; objects could not be renamed into place`);
      }
    });
    return store;
  }

  async put(key: string, body: Uint8Array, options?: RequestOptions): Promise<void> {
    const target = this.pathOf(key);
    await this.request('put', key, options?.signal, async () => {
      const scratch = await this.writeScratch((path) => writeSynced(path, body));
      await this.moveIntoPlace(scratch, target);
    });
  }

  async putIfAbsent(key: string, body: Uint8Array, options?: RequestOptions): Promise<PutIfAbsentOutcome> {
    const target = this.pathOf(key);
    return this.request('put if absent', key, options?.signal, async (): Promise<PutIfAbsentOutcome> => {
      const scratch = await this.writeScratch((path) => writeSynced(path, body));
      try {
        await mkdir(dirname(target), { recursive: true });
        await link(scratch, target);
        await syncDirectory(dirname(target));
        return 'created';
      } catch (error) {
        if (errnoOf(error) === 'EEXIST') return 'exists';
        // File systems without hard links (some SMB mounts): callers fall back as on a store without conditional PUT.
        if (errnoOf(error) === 'ENOTSUP' || errnoOf(error) === 'EOPNOTSUPP') return 'unsupported';
        throw error;
      } finally {
        await unlink(scratch).catch(() => undefined);
      }
    });
  }

  async putFile(key: string, path: string, options?: RequestOptions): Promise<void> {
    const target = this.pathOf(key);
    await this.request('put file', key, options?.signal, async () => {
      const scratch = await this.writeScratch(async (scratchPath) => {
        await copyFile(path, scratchPath);
        await syncFile(scratchPath);
      });
      await this.moveIntoPlace(scratch, target);
    });
  }

  async get(key: string, options?: RequestOptions): Promise<Buffer> {
    const path = this.pathOf(key);
    return this.request('get', key, options?.signal, () => readFile(path));
  }

  async getRange(key: string, offset: number, lengthBytes: number, options?: RangeOptions): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(lengthBytes) || lengthBytes < 0) {
      throw new RangeError(`bad byte range: offset ${offset}, length ${lengthBytes}`);
    }
    const path = this.pathOf(key);
    return this.request('get range', key, options?.signal, async () => {
      const handle = await open(path, 'r');
      try {
        const info = await handle.stat();
        const sizeBytes = info.size;
        const etag = etagOf(info.mtimeMs, sizeBytes);
        if (options?.ifMatch !== undefined && options.ifMatch !== etag) {
          throw objectStoreError('changed', 'get range', this.description, key, `object is version ${etag}, not the pinned ${options.ifMatch}`);
        }
        if (lengthBytes === 0) return Buffer.alloc(0);
        if (offset >= sizeBytes) throw objectStoreError('rejected', 'get range', this.description, key, `range starts at ${offset}, past the object's end (${sizeBytes} bytes)`);
        const wanted = Math.min(lengthBytes, sizeBytes - offset);
        const buffer = Buffer.allocUnsafe(wanted);
        let filled = 0;
        while (filled < wanted) {
          const { bytesRead } = await handle.read(buffer, filled, wanted - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return filled === wanted ? buffer : buffer.subarray(0, filled);
      } finally {
        await handle.close();
      }
    });
  }

  async head(key: string, options?: RequestOptions): Promise<ObjectInfo | null> {
    const path = this.pathOf(key);
    return this.request('head', key, options?.signal, async () => {
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        return { key, sizeBytes: info.size, etag: etagOf(info.mtimeMs, info.size), lastModifiedMs: info.mtimeMs };
      } catch (error) {
        if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return null;
        throw error;
      }
    });
  }

  async list(prefix: string, options?: ListOptions): Promise<ObjectInfo[]> {
    checkKeyPrefix(prefix, this.description);
    const keysMax = Math.min(options?.keysMax ?? LIST_KEYS_MAX, LIST_KEYS_MAX);
    const startAfter = options?.startAfter ?? '';
    const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const keys = await this.request('list', prefix, options?.signal, () => this.listFiles(base === '' ? this.location.root : join(this.location.root, base)));
    const selected = keys.filter((key) => key.startsWith(prefix) && key > startAfter).sort().slice(0, keysMax);
    const found: ObjectInfo[] = [];
    for (const key of selected) {
      const info = await this.head(key, options);
      if (info !== null) found.push(info);
    }
    return found;
  }

  async delete(keys: readonly string[], options?: RequestOptions): Promise<void> {
    for (const key of keys) {
      const path = this.pathOf(key);
      await this.request('delete', key, options?.signal, async () => {
        try {
          await unlink(path);
        } catch (error) {
          if (errnoOf(error) !== 'ENOENT') throw error;
        }
      });
    }
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }

  private pathOf(key: string): string {
    checkObjectKey(key, this.description);
    return join(this.location.root, ...key.split('/'));
  }

  private async writeScratch(write: (path: string) => Promise<void>): Promise<string> {
    const scratch = join(this.location.atomicWriteDir, `.put-${process.pid}-${randomBytes(8).toString('hex')}`);
    try {
      await write(scratch);
    } catch (error) {
      await unlink(scratch).catch(() => undefined);
      throw error;
    }
    return scratch;
  }

  private async moveIntoPlace(scratch: string, target: string): Promise<void> {
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(scratch, target);
      await syncDirectory(dirname(target));
    } catch (error) {
      await unlink(scratch).catch(() => undefined);
      throw error;
    }
  }

  /** Every regular file under `directory` as a key; the scratch directory is skipped if it lies inside root. */
  private async listFiles(directory: string): Promise<string[]> {
    const keys: string[] = [];
    // Our own walk rather than readdir's recursive option: Dirent.parentPath is missing on Node 20.11.
    const pending = [directory];
    while (pending.length > 0) {
      const current = pending.pop() ?? directory;
      if (current === this.location.atomicWriteDir) continue;
      let entries;
      try {
        entries = await readdir(current, { withFileTypes: true });
      } catch (error) {
        if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') continue;
        throw error;
      }
      for (const entry of entries) {
        const path = join(current, entry.name);
        if (entry.isDirectory()) pending.push(path);
        else if (entry.isFile()) keys.push(relative(this.location.root, path).split(sep).join('/'));
      }
    }
    return keys;
  }

  private request<T>(operation: string, key: string, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    return withRetries({ store: this.description, operation, key }, this.options, signal, attempt, classifyFsError);
  }
}

/** The version tag of a file: a rename of a new file into place changes its mtime (and usually its size). */
function etagOf(mtimeMs: number, sizeBytes: number): string {
  return `${mtimeMs.toFixed(3)}-${sizeBytes}`;
}

function errnoOf(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

function classifyFsError(error: unknown): Classified {
  const code = errnoOf(error);
  const cause = error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'not-found', cause };
  if (code === 'EXDEV') return { kind: 'rejected', cause: `${cause} (atomic_write_dir must be on the same file system as root)` };
  if (code !== null && TRANSIENT_FS_ERRNO.has(code)) return { kind: 'transient', cause };
  return { kind: 'rejected', cause };
}

async function writeSynced(path: string, body: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of a file written elsewhere; `syncDirectory` of its directory then makes a rename durable. */
function syncFile(path: string): Promise<void> {
  return syncOpened(path, 'r+');
}

/** fsync of the directory makes the rename itself durable (ext4/xfs need it after a crash). */
function syncDirectory(path: string): Promise<void> {
  return syncOpened(path, 'r');
}

async function syncOpened(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
