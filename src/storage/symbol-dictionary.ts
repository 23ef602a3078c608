// Table-level symbol dictionaries: `<stem>.sym.d` holds [int32 length][utf8] records, `<stem>.sym.i` holds
// count + 1 int64 offsets. Append-only; the committed size lives in _txn, so readers never see a key
// whose text is not yet durable, and the writer truncates uncommitted tails when it opens.
import { join } from 'node:path';
import type { FilesFacade } from '../core/files.js';
import { assert } from '../core/assert.js';
import { mapFileRange } from './mmap.js';

export function symbolFilePaths(tableDir: string, stem: string): { data: string; index: string } {
  return { data: join(tableDir, `${stem}.sym.d`), index: join(tableDir, `${stem}.sym.i`) };
}

/** Primary side: string ↔ key for one SYMBOL column, with new entries written by flush(). */
export class SymbolDictionaryWriter {
  private readonly keys = new Map<string, number>();
  private readonly values: string[] = [];
  private flushedCount = 0;
  private dataEnd = 0;

  constructor(private readonly files: FilesFacade, private readonly tableDir: string, private readonly stem: string, committedCount: number) {
    this.load(committedCount);
  }

  get count(): number {
    return this.values.length;
  }

  keyOf(value: string): number {
    const existing = this.keys.get(value);
    if (existing !== undefined) return existing;
    const key = this.values.length;
    this.values.push(value);
    this.keys.set(value, key);
    return key;
  }

  valueOf(key: number): string | undefined {
    return this.values[key];
  }

  /** Writes entries added since the last flush; returns the fds written so a sync commit can fsync them. */
  flush(durable: boolean): void {
    if (this.flushedCount === this.values.length) return;
    const paths = symbolFilePaths(this.tableDir, this.stem);
    const pending = this.values.slice(this.flushedCount);
    let total = 0;
    for (const value of pending) total += 4 + Buffer.byteLength(value, 'utf8');
    const data = Buffer.allocUnsafe(total);
    const offsets = new BigInt64Array(pending.length);
    let position = 0;
    pending.forEach((value, k) => {
      data.writeInt32LE(Buffer.byteLength(value, 'utf8'), position);
      position += 4 + data.write(value, position + 4, 'utf8');
      offsets[k] = BigInt(this.dataEnd + position);
    });
    this.writeAt(paths.data, data, this.dataEnd, durable);
    this.writeAt(paths.index, new Uint8Array(offsets.buffer), (this.flushedCount + 1) * 8, durable);
    this.dataEnd += total;
    this.flushedCount = this.values.length;
  }

  /** Forgets entries added since the last flush (a failed statement). */
  rollback(): void {
    while (this.values.length > this.flushedCount) {
      const value = this.values.pop() as string;
      this.keys.delete(value);
    }
  }

  private writeAt(path: string, bytes: Uint8Array, position: number, durable: boolean): void {
    const fd = this.files.openWrite(path);
    try {
      this.files.write(fd, bytes, position);
      if (durable) this.files.fsync(fd);
    } finally {
      this.files.close(fd);
    }
  }

  private load(committedCount: number): void {
    const paths = symbolFilePaths(this.tableDir, this.stem);
    // A crash while a new dictionary was being created can leave its index empty; nothing is committed in it yet.
    if (!this.files.exists(paths.index) || (committedCount === 0 && this.files.fileSize(paths.index) < 8)) {
      this.writeAt(paths.index, new Uint8Array(8), 0, false);
      this.writeAt(paths.data, new Uint8Array(0), 0, false);
    }
    const index = this.files.readFile(paths.index);
    assert(index.length >= (committedCount + 1) * 8, 'symbol index covers the committed count');
    const data = this.files.readFile(paths.data);
    for (let key = 0; key < committedCount; key++) {
      const start = Number(index.readBigInt64LE(key * 8));
      const length = data.readInt32LE(start);
      this.keyOf(data.toString('utf8', start + 4, start + 4 + length));
    }
    this.flushedCount = committedCount;
    this.dataEnd = Number(index.readBigInt64LE(committedCount * 8));
    this.truncateTail(paths, committedCount);
  }

  private truncateTail(paths: { data: string; index: string }, committedCount: number): void {
    for (const [path, length] of [[paths.index, (committedCount + 1) * 8], [paths.data, this.dataEnd]] as const) {
      const fd = this.files.openWrite(path);
      try {
        this.files.truncate(fd, length);
      } finally {
        this.files.close(fd);
      }
    }
  }
}

/** Worker side: decoded symbol texts per column, extended as the committed count grows. */
export class SymbolTableCache {
  private readonly tables = new Map<string, string[]>();

  /** Returns the texts of keys [0, count) of a dictionary; `cacheKey` must change when the table is recreated. */
  load(cacheKey: string, tableDir: string, stem: string, count: number): readonly string[] {
    let values = this.tables.get(cacheKey);
    if (values === undefined) {
      values = [];
      this.tables.set(cacheKey, values);
    }
    if (values.length >= count) return values;
    const paths = symbolFilePaths(tableDir, stem);
    const index = mapFileRange(paths.index, (count + 1) * 8);
    const dataEnd = Number(index.readBigInt64LE(count * 8));
    const data = mapFileRange(paths.data, dataEnd);
    for (let key = values.length; key < count; key++) {
      const start = Number(index.readBigInt64LE(key * 8));
      const length = data.readInt32LE(start);
      values.push(data.toString('utf8', start + 4, start + 4 + length));
    }
    return values;
  }

  /** Dictionaries held (for tests and the leak checks). */
  get size(): number {
    return this.tables.size;
  }

  forget(cacheKeyPrefix: string): void {
    for (const key of this.tables.keys()) {
      if (key.startsWith(cacheKeyPrefix)) this.tables.delete(key);
    }
  }
}
