// A capture turns the difference between two scans of the tracked files into file operations, at a moment
// when no commit is half done (it runs as a turn of the writer's queue). It records where the bytes are and
// copies nothing large: small files (which may be rewritten in place) are read at once; a larger file is
// pinned by an open descriptor (file-pins.ts; no syscall when the file was pinned by an earlier capture) or,
// without a pin set or past its bound, hard-linked into the capture's link directory. Either way its bytes
// stay readable after the table moves on (a later commit appends past the recorded size, an old partition
// version or dropped table is deleted) while reading, compression and upload happen off the commit path.
// Column and symbol files only grow (changed data goes to a new partition version), so a grown file ships
// its new bytes; a replaced one (new inode), shrunk one, or small one ships whole. _txn writes come last,
// then deletes.
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileOperation, WriteOperation } from './segment-codec.js';
import { isTxnPath, sameStamp, type FileStamp, type FileStamps } from './tracked-files.js';
import type { FilePins, PinnedFile } from './file-pins.js';
import type { ValueWidths } from './value-widths.js';

/** Files up to this size are copied into memory at capture time instead of pinned or linked. */
export const SMALL_FILE_BYTES = 64 * 1024;

/** Where a write's bytes are: `memory` holds exactly them; `pinned` and `link` hold them at the operation's offset. */
export type ByteSource =
  | { readonly kind: 'memory'; readonly bytes: Buffer }
  | { readonly kind: 'pinned'; readonly file: PinnedFile }
  | { readonly kind: 'link'; readonly path: string };
/**
 * A file the replica already has whose first bytes the write's file may repeat (the previous version of a
 * new partition version's file): the encoder ships the common prefix as a copy from it.
 */
export interface PrefixBase { readonly path: string; readonly file: PinnedFile; readonly lengthMax: number }
/** `valueBytes`: the width the encoder ships the bytes as byte planes by (value-widths.ts), 1 for as they are. */
export interface CapturedWrite { readonly operation: WriteOperation; readonly source: ByteSource; readonly valueBytes: number; readonly base?: PrefixBase }

export interface Capture {
  readonly capturedAtMs: number;
  readonly writes: readonly CapturedWrite[];
  readonly deletes: readonly string[];
  /** Checkpoints: the complete list of tracked files. */
  readonly keep: readonly string[] | null;
  /** Bytes the writes carry (before compression). */
  readonly rawBytes: number;
  /** Directory of this capture's hard links (created only when one was needed), removed once uploaded. */
  readonly linkDir: string;
  /** The pin set this capture's pinned sources came from, released once uploaded. */
  readonly pins: FilePins | null;
}

export function captureIsEmpty(capture: Capture): boolean {
  return capture.writes.length === 0 && capture.deletes.length === 0 && capture.keep === null;
}

interface CaptureTarget { readonly rootDir: string; readonly linkDir: string; readonly pins: FilePins | null; readonly widths: ValueWidths | null; readonly stamps: FileStamps }

/** A pin, else a hard link, else (another file system, no link support) a copy of the bytes that matter. */
function pinnedSource(target: CaptureTarget, path: string, stamp: FileStamp, index: number, offset: number, length: number): ByteSource {
  if (target.pins !== null && target.pins.hasRoom()) return { kind: 'pinned', file: target.pins.pin(path, stamp.ino) };
  const absolute = join(target.rootDir, path);
  const linkPath = join(target.linkDir, String(index));
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

function captureWrite(target: CaptureTarget, index: number, path: string, stamp: FileStamp, offset: number, whole: boolean): CapturedWrite {
  const size = stamp.size;
  const valueBytes = target.widths === null ? 1 : target.widths.widthOf(path, target.stamps);
  // A small file is copied whole even when it grew: it may have been rewritten in place.
  if (size <= SMALL_FILE_BYTES) {
    return { operation: { op: 'write', path, offset: 0, length: size, whole: true }, source: { kind: 'memory', bytes: fs.readFileSync(join(target.rootDir, path)).subarray(0, size) }, valueBytes };
  }
  const start = whole ? 0 : offset;
  return { operation: { op: 'write', path, offset: start, length: size - start, whole }, source: pinnedSource(target, path, stamp, index, start, size - start), valueBytes };
}

/** `db/<table>/<partition>/<file>` without the partition's version suffix, or null for other paths. */
function versionlessPath(path: string): string | null {
  const parts = path.split('/');
  if (parts.length !== 4) return null;
  return `${parts[1]}/${(parts[2] ?? '').replace(/\.\d+$/, '')}/${parts[3]}`;
}

function versionOf(path: string): number {
  const match = /\.(\d+)\//.exec(path.slice(path.indexOf('/', 3)));
  return match === null ? 0 : Number(match[1]);
}

/** For new large files: the newest earlier version of the same file that the replica has and this primary still holds. */
class PrefixBases {
  private byVersionless: Map<string, string> | null = null;

  constructor(private readonly previous: FileStamps, private readonly current: FileStamps, private readonly pins: FilePins) {}

  baseOf(path: string): PrefixBase | undefined {
    const key = versionlessPath(path);
    if (key === null || !this.pins.hasRoom()) return undefined;
    const candidate = this.index().get(key);
    if (candidate === undefined || candidate === path) return undefined;
    const before = this.previous.get(candidate);
    const now = this.current.get(candidate);
    // Bytes never change while the inode stays. The replica holds the candidate's bytes up to the previous
    // capture's size, and up to this capture's once it applied the candidate's own write, which captureChanges
    // places before every write that has a base: an out-of-order merge right after appends then ships the
    // appended rows once (as the old version's write) instead of again in the new version.
    if (before === undefined || now === undefined || now.ino !== before.ino || before.size <= SMALL_FILE_BYTES) return undefined;
    return { path: candidate, file: this.pins.pin(candidate, now.ino), lengthMax: now.size };
  }

  private index(): Map<string, string> {
    if (this.byVersionless !== null) return this.byVersionless;
    const index = new Map<string, string>();
    for (const path of this.previous.keys()) {
      const key = versionlessPath(path);
      if (key === null) continue;
      const known = index.get(key);
      if (known === undefined || versionOf(path) > versionOf(known)) index.set(key, path);
    }
    this.byVersionless = index;
    return index;
  }
}

/**
 * Operations taking `previous` (null: nothing, a checkpoint) to `current`. With `pins`, large files are held
 * by descriptors shared with other captures; without, each capture hard-links its own. Without `widths`,
 * every write ships its bytes as they are.
 */
export function captureChanges(rootDir: string, linkDir: string, previous: FileStamps | null, current: FileStamps, pins: FilePins | null = null, widths: ValueWidths | null = null): Capture {
  const target: CaptureTarget = { rootDir, linkDir, pins, widths, stamps: current };
  const writes: CapturedWrite[] = [];
  /** New files with a prefix base: after every other write, so their base's grown bytes are written first. */
  const basedWrites: CapturedWrite[] = [];
  const txnWrites: CapturedWrite[] = [];
  const bases = previous === null || pins === null ? null : new PrefixBases(previous, current, pins);
  let index = 0;
  try {
    for (const [path, stamp] of current) {
      const before = previous?.get(path);
      if (before !== undefined && sameStamp(before, stamp)) continue;
      const grown = before !== undefined && before.ino === stamp.ino && stamp.size > before.size;
      const captured = captureWrite(target, index++, path, stamp, grown ? before.size : 0, !grown);
      const base = before === undefined && captured.source.kind === 'pinned' ? bases?.baseOf(path) : undefined;
      if (base !== undefined) basedWrites.push({ ...captured, base });
      else (isTxnPath(path) ? txnWrites : writes).push(captured);
    }
  } catch (error) {
    // A file that could not be pinned or read (EMFILE, I/O error): nothing of this capture stays held.
    discardCapture({ capturedAtMs: 0, writes: [...writes, ...basedWrites, ...txnWrites], deletes: [], keep: null, linkDir, pins, rawBytes: 0 });
    throw error;
  }
  const deletes = previous === null ? [] : [...previous.keys()].filter((path) => !current.has(path));
  // A dropped table disappears from readers first (its _txn goes), then its files.
  deletes.sort((a, b) => Number(isTxnPath(b)) - Number(isTxnPath(a)));
  const all = [...writes, ...basedWrites, ...txnWrites];
  return {
    capturedAtMs: Date.now(), writes: all, deletes, keep: previous === null ? [...current.keys()] : null, linkDir, pins,
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

/** Paths whose bytes this capture holds by a pin (the shipper keeps their descriptors open for the next one). */
export function pinnedPathsOf(capture: Capture): Set<string> {
  return new Set(capture.writes.filter((write) => write.source.kind === 'pinned').map((write) => write.operation.path));
}

export function discardCapture(capture: Capture): void {
  let linked = false;
  for (const write of capture.writes) {
    if (write.source.kind === 'pinned') capture.pins?.release(write.source.file);
    if (write.base !== undefined) capture.pins?.release(write.base.file);
    else if (write.source.kind === 'link') linked = true;
  }
  if (linked) fs.rmSync(capture.linkDir, { recursive: true, force: true });
}
