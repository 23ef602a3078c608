// A capture turns the difference between two scans of the tracked files into file operations, at a moment
// when no commit is half done (it runs as a turn of the writer's queue). It copies nothing large: small files
// (which may be rewritten in place) are read at once, larger ones are hard-linked into the outbox, so their
// bytes stay readable after the table moves on (a later commit appends past the recorded size, an old
// partition version or dropped table is deleted) while the upload happens in the background. Column and
// symbol files only grow (changed data goes to a new partition version), so a grown file ships its new
// bytes; a replaced one (new inode), shrunk one, or small one ships whole. _txn writes come last, then deletes.
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileOperation, WriteOperation } from './segment-codec.js';
import { isTxnPath, sameStamp, type FileStamps } from './tracked-files.js';

/** Files up to this size are copied into memory at capture time instead of linked. */
export const SMALL_FILE_BYTES = 64 * 1024;

export type ByteSource = { readonly kind: 'memory'; readonly bytes: Buffer } | { readonly kind: 'link'; readonly path: string };
export interface CapturedWrite { readonly operation: WriteOperation; readonly source: ByteSource }

export interface Capture {
  readonly capturedAtMs: number;
  readonly writes: readonly CapturedWrite[];
  readonly deletes: readonly string[];
  /** Checkpoints: the complete list of tracked files. */
  readonly keep: readonly string[] | null;
  /** Bytes the writes carry (before compression). */
  readonly rawBytes: number;
  /** Directory of this capture's hard links, removed once uploaded. */
  readonly linkDir: string;
}

export function captureIsEmpty(capture: Capture): boolean {
  return capture.writes.length === 0 && capture.deletes.length === 0 && capture.keep === null;
}

function readWhole(path: string): Buffer {
  return fs.readFileSync(path);
}

/** Hard link, or (another file system, no link support) a copy of the bytes that matter. */
function sourceOf(rootDir: string, path: string, linkDir: string, index: number, offset: number, length: number): ByteSource {
  const absolute = join(rootDir, path);
  if (length <= SMALL_FILE_BYTES) {
    const whole = readWhole(absolute);
    return { kind: 'memory', bytes: whole.subarray(offset, offset + length) };
  }
  const linkPath = join(linkDir, String(index));
  try {
    fs.mkdirSync(dirname(linkPath), { recursive: true });
    fs.linkSync(absolute, linkPath);
    return { kind: 'link', path: linkPath };
  } catch {
    const bytes = Buffer.alloc(length);
    const fd = fs.openSync(absolute, 'r');
    try {
      fs.readSync(fd, bytes, 0, length, offset);
    } finally {
      fs.closeSync(fd);
    }
    return { kind: 'memory', bytes };
  }
}

function captureWrite(rootDir: string, linkDir: string, index: number, path: string, offset: number, size: number, whole: boolean): CapturedWrite {
  const length = size - offset;
  // A small file is copied whole even when it grew: it may have been rewritten in place.
  const asWhole = whole || size <= SMALL_FILE_BYTES;
  const start = asWhole ? 0 : offset;
  return { operation: { op: 'write', path, offset: start, length: size - start, whole: asWhole }, source: sourceOf(rootDir, path, linkDir, index, start, asWhole ? size : length) };
}

/** Operations taking `previous` (null: nothing, a checkpoint) to `current`. */
export function captureChanges(rootDir: string, linkDir: string, previous: FileStamps | null, current: FileStamps): Capture {
  const writes: CapturedWrite[] = [];
  const txnWrites: CapturedWrite[] = [];
  let index = 0;
  for (const [path, stamp] of current) {
    const before = previous?.get(path);
    if (before !== undefined && sameStamp(before, stamp)) continue;
    const grown = before !== undefined && before.ino === stamp.ino && stamp.size > before.size;
    const captured = captureWrite(rootDir, linkDir, index++, path, grown ? before.size : 0, stamp.size, !grown);
    (isTxnPath(path) ? txnWrites : writes).push(captured);
  }
  const deletes = previous === null ? [] : [...previous.keys()].filter((path) => !current.has(path));
  // A dropped table disappears from readers first (its _txn goes), then its files.
  deletes.sort((a, b) => Number(isTxnPath(b)) - Number(isTxnPath(a)));
  const all = [...writes, ...txnWrites];
  return {
    capturedAtMs: Date.now(), writes: all, deletes, keep: previous === null ? [...current.keys()] : null, linkDir,
    rawBytes: all.reduce((sum, write) => sum + write.operation.length, 0),
  };
}

export function operationsOf(capture: Capture): FileOperation[] {
  return [
    ...capture.writes.map((write) => write.operation),
    ...capture.deletes.map((path): FileOperation => ({ op: 'delete', path })),
    ...(capture.keep === null ? [] : [{ op: 'prune', keep: capture.keep } satisfies FileOperation]),
  ];
}

export function discardCapture(capture: Capture): void {
  fs.rmSync(capture.linkDir, { recursive: true, force: true });
}
