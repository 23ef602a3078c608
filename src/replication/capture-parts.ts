// Turns captures into objects of at most PART_BYTES_MAX raw bytes each, in order. planParts says which byte
// ranges of which sources each object holds (a write larger than the space left is split into a first write
// and appends); the segment encoder thread reads them straight into the object it compresses, so at most
// one part is in memory. A capture's _txn writes follow its other writes, so a replica that applied only the
// first parts of a capture shows nothing of it yet (parts carry consecutive sequence numbers).
import * as fs from 'node:fs';
import type { ByteSource, Capture, PrefixBase } from './capture.js';
import { operationsOf } from './capture.js';
import type { FileOperation } from './segment-codec.js';

export const PART_BYTES_MAX = 64 * 1024 * 1024;

/** `length` bytes of `source` at file position `position` (`memory`: at index `position`); a whole file may have a prefix base. */
export interface SourceRange { readonly source: ByteSource; readonly position: number; readonly length: number; readonly valueBytes: number; readonly base?: PrefixBase }

/** A base as the encoder receives it: the path replicas copy from, the descriptor it is read by here. */
export interface WireBase { readonly path: string; readonly fd: number; readonly lengthMax: number }

/**
 * A range as the encoder thread receives it: bytes, a descriptor (shared by the process's threads) or a path,
 * and the width to ship them as byte planes by (1: as they are).
 */
export type WireRange =
  | { readonly kind: 'memory'; readonly bytes: Uint8Array; readonly position: number; readonly length: number; readonly valueBytes: number }
  | { readonly kind: 'fd'; readonly fd: number; readonly position: number; readonly length: number; readonly valueBytes: number; readonly base: WireBase | null }
  | { readonly kind: 'path'; readonly path: string; readonly position: number; readonly length: number; readonly valueBytes: number };

export function wireRangeOf(range: SourceRange): WireRange {
  const { source, position, length, valueBytes } = range;
  switch (source.kind) {
    // Only the range's bytes, in a buffer of their own: posting a view would clone its whole backing store.
    case 'memory': return { kind: 'memory', bytes: new Uint8Array(source.bytes.subarray(position, position + length)), position: 0, length, valueBytes };
    case 'pinned': {
      const base = range.base === undefined ? null : { path: range.base.path, fd: range.base.file.fd, lengthMax: range.base.lengthMax };
      return { kind: 'fd', fd: source.file.fd, position, length, valueBytes, base };
    }
    case 'link': return { kind: 'path', path: source.path, position, length, valueBytes };
  }
}

export interface PartPlan {
  readonly operations: readonly FileOperation[];
  /** The bytes of the write operations, in operation order. */
  readonly ranges: readonly SourceRange[];
}

export interface CapturePart {
  readonly operations: readonly FileOperation[];
  readonly chunks: readonly Buffer[];
}

/**
 * The objects of consecutive captures, in order: each capture's writes (split where a part fills up), then
 * its deletes and prune list. Applying them in order replays the captures one after another.
 */
export function* planParts(captures: readonly Capture[], partBytesMax = PART_BYTES_MAX): Generator<PartPlan> {
  let operations: FileOperation[] = [];
  let ranges: SourceRange[] = [];
  let partBytes = 0;
  for (const capture of captures) {
    for (const write of capture.writes) {
      let from = 0;
      do {
        if (partBytes >= partBytesMax) {
          yield { operations, ranges };
          operations = [];
          ranges = [];
          partBytes = 0;
        }
        const op = write.operation;
        const length = Math.min(op.length - from, partBytesMax - partBytes);
        operations.push({ op: 'write', path: op.path, offset: op.offset + from, length, whole: op.whole && from === 0 });
        const position = (write.source.kind === 'memory' ? 0 : op.offset) + from;
        // A base applies to a whole file in one part.
        const range = { source: write.source, position, length, valueBytes: write.valueBytes };
        ranges.push(write.base !== undefined && from === 0 && length === op.length ? { ...range, base: write.base } : range);
        partBytes += length;
        from += length;
      } while (from < write.operation.length);
    }
    operations.push(...operationsOf(capture).filter((operation) => operation.op !== 'write'));
  }
  yield { operations, ranges };
}

function shortRead(range: WireRange): RangeError {
  return new RangeError(`captured file is shorter than captured [source=${range.kind === 'path' ? range.path : range.kind}]`);
}

/** Reads a range into `into` at `at`, blocking: the encoder thread's path, where blocking stalls no commit. */
export function readRangeSync(range: WireRange, into: Uint8Array, at: number): void {
  if (range.kind === 'memory') {
    if (range.bytes.length < range.position + range.length) throw shortRead(range);
    into.set(range.bytes.subarray(range.position, range.position + range.length), at);
    return;
  }
  const fd = range.kind === 'fd' ? range.fd : fs.openSync(range.path, 'r');
  try {
    let done = 0;
    while (done < range.length) {
      const read = fs.readSync(fd, into, at + done, range.length - done, range.position + done);
      if (read === 0) throw shortRead(range);
      done += read;
    }
  } finally {
    if (range.kind === 'path') fs.closeSync(fd);
  }
}

/** The parts with their bytes read in this thread (blocking): for tests and tools that encode in process. */
export async function* captureParts(captures: readonly Capture[], partBytesMax = PART_BYTES_MAX): AsyncGenerator<CapturePart> {
  for (const plan of planParts(captures, partBytesMax)) {
    const chunks: Buffer[] = [];
    for (const range of plan.ranges) {
      if (range.source.kind === 'memory') {
        chunks.push(range.source.bytes.subarray(range.position, range.position + range.length));
        continue;
      }
      const bytes = Buffer.alloc(range.length);
      readRangeSync(wireRangeOf(range), bytes, 0);
      chunks.push(bytes);
    }
    yield { operations: plan.operations, chunks };
  }
}
