// The segment encoder thread: reads a part's byte ranges straight into one buffer after its header,
// compresses, digests and frames it, and either stores it itself (encoder-thread-store.ts: the primary's
// uploads) or hands it back in a SharedArrayBuffer (no copy, nothing detached). A new file with a
// prefix base (capture.ts) ships the bytes it shares with the base as a copy operation and only the rest:
// an out-of-order merge writes a new partition version that repeats its previous version up to the first
// merged row, and shipping it whole multiplied what ILP ingest with concurrent senders uploads. Everything
// here may block: it runs beside the primary's event loop, never on it, and its garbage is its own heap's;
// at the lowest CPU priority by default (thread-priority.ts), so on saturated cores it takes what commits leave.
// Ranges with a value width are written into the object as byte planes (byte-planes.ts), when they start at
// a whole value of their file: read a piece at a time into a buffer that stays in cache, each piece planed
// into place (reading a whole range into a scratch of its size first cost its page faults and a pass of
// memory traffic).
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { assert, assertNever } from '../core/assert.js';
import { readRangeSync, type WireRange } from './capture-parts.js';
import { frameSegmentSync, segmentHeader, type FileOperation, type FramedObject, type WriteOperation } from './segment-codec.js';
import { toBytePlanesPart } from './byte-planes.js';
import { parseEncoderRequest, parseEncoderThreadData, type EncodeRequest, type EncodeResult, type PutTarget } from './segment-encoder-messages.js';
import { EncoderThreadStore } from './encoder-thread-store.js';
import { lowerCallingThreadPriority } from './thread-priority.js';
import { encoderRawScratch } from './raw-scratch.js';

/** A shorter shared prefix is shipped as bytes: a copy operation would save less than it costs the replica. */
const COPY_BYTES_MIN = 64 * 1024;
const COMPARE_CHUNK_BYTES = 1024 * 1024;
const baseChunk = Buffer.allocUnsafeSlow(COMPARE_CHUNK_BYTES);
const fileChunk = Buffer.allocUnsafeSlow(COMPARE_CHUNK_BYTES);
/** A segment's raw bytes are assembled here (raw-scratch.ts: kept for reuse while segments come, up to a whole part). */
const rawScratch = encoderRawScratch();
/** A piece of a range before it becomes planes: a multiple of every planed width up to 32, small enough for L2. */
const PLANE_PIECE_BYTES = 128 * 1024;
const planePiece = Buffer.allocUnsafeSlow(PLANE_PIECE_BYTES);

/** The width a write's bytes are stored by: its range's, when the write starts at a whole value of its file. */
function storedWidth(range: WireRange, write: WriteOperation): number {
  return range.valueBytes > 1 && write.offset % range.valueBytes === 0 ? range.valueBytes : 1;
}

/** Reads `range` into `raw` at `at`, as byte planes of `width` above 1. */
function readRangeInto(range: WireRange, width: number, raw: Buffer, at: number): void {
  if (width === 1) {
    readRangeSync(range, raw, at);
    return;
  }
  if (range.kind === 'path') {
    // One descriptor for all the pieces, not an open per piece.
    const fd = fs.openSync(range.path, 'r');
    try {
      readPlanesInto({ kind: 'fd', fd, position: range.position, length: range.length, valueBytes: range.valueBytes, base: null }, width, raw, at);
    } finally {
      fs.closeSync(fd);
    }
    return;
  }
  readPlanesInto(range, width, raw, at);
}

/** readRangeInto for a width above 1. */
function readPlanesInto(range: WireRange, width: number, raw: Buffer, at: number): void {
  const planeBytes = Math.floor(range.length / width);
  const wholeBytes = planeBytes * width;
  // Whole values per piece, so each piece starts at a value.
  const pieceBytesMax = PLANE_PIECE_BYTES - (PLANE_PIECE_BYTES % width);
  for (let done = 0; done < wholeBytes;) {
    const length = Math.min(pieceBytesMax, wholeBytes - done);
    readRangeSync({ ...range, position: range.position + done, length }, planePiece, 0);
    toBytePlanesPart(planePiece.subarray(0, length), width, raw, at, planeBytes, done / width);
    done += length;
  }
  // A trailing partial value stays as it is, after the planes.
  if (wholeBytes < range.length) readRangeSync({ ...range, position: range.position + wholeBytes, length: range.length - wholeBytes }, raw, at + wholeBytes);
}

function readFully(fd: number, into: Buffer, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const read = fs.readSync(fd, into, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}

/** How many leading bytes of two files are equal, up to `lengthMax`. */
function sharedPrefixBytes(baseFd: number, fileFd: number, lengthMax: number): number {
  for (let done = 0; done < lengthMax;) {
    const wanted = Math.min(COMPARE_CHUNK_BYTES, lengthMax - done);
    const length = Math.min(readFully(baseFd, baseChunk, wanted, done), readFully(fileFd, fileChunk, wanted, done));
    if (length < wanted || !baseChunk.subarray(0, length).equals(fileChunk.subarray(0, length))) {
      let index = 0;
      while (index < length && baseChunk[index] === fileChunk[index]) index++;
      return done + index;
    }
    done += length;
  }
  return lengthMax;
}

/** The request's operations and ranges, with shared prefixes of based files turned into copies. */
function withCopies(request: EncodeRequest): { operations: FileOperation[]; ranges: WireRange[] } {
  const operations: FileOperation[] = [];
  const ranges: WireRange[] = [];
  let next = 0;
  for (const operation of request.operations) {
    if (operation.op !== 'write') {
      operations.push(operation);
      continue;
    }
    const range = request.ranges[next++];
    assert(range !== undefined && range.length === operation.length, 'every write operation has its byte range');
    if (range.kind === 'fd' && range.base !== null && operation.offset === 0 && range.position === 0) {
      // Whole values only, so the tail that follows the copy still starts at a value and ships as planes.
      const prefix = sharedPrefixBytes(range.base.fd, range.fd, Math.min(range.base.lengthMax, range.length));
      const shared = prefix - (prefix % Math.max(1, range.valueBytes));
      if (shared >= COPY_BYTES_MIN) {
        operations.push({ op: 'copy', from: range.base.path, path: operation.path, length: shared });
        operations.push({ op: 'write', path: operation.path, offset: shared, length: operation.length - shared, whole: false });
        ranges.push({ ...range, position: shared, length: range.length - shared, base: null });
        continue;
      }
    }
    operations.push(operation);
    ranges.push(range);
  }
  assert(next === request.ranges.length, 'every byte range belongs to a write operation');
  return { operations, ranges };
}

function encode(request: EncodeRequest): FramedObject {
  const { operations, ranges } = withCopies(request);
  const writes = operations.filter((operation): operation is WriteOperation => operation.op === 'write');
  assert(writes.length === ranges.length, 'every write operation has its byte range');
  const widths = ranges.map((range, index) => {
    const write = writes[index];
    assert(write !== undefined && write.length === range.length, 'a range holds its write operation\'s bytes');
    return storedWidth(range, write);
  });
  const header = segmentHeader(request.seq, operations, widths);
  const rawBytes = ranges.reduce((sum: number, range: WireRange) => sum + range.length, header.length);
  const raw = rawScratch.take(rawBytes);
  header.copy(raw, 0);
  let at = header.length;
  for (const [index, range] of ranges.entries()) {
    readRangeInto(range, widths[index] ?? 1, raw, at);
    at += range.length;
  }
  return frameSegmentSync(raw);
}

const port = parentPort;
assert(port !== null, 'segment-encoder-worker runs as a worker thread');
const settings = parseEncoderThreadData(workerData);
// Before any work: shipping is background work, and on saturated cores commits come first (README "Backlog").
if (settings.lowPriority) lowerCallingThreadPriority();
const threadStore = settings.store === null ? null : new EncoderThreadStore(settings.store);

/** Objects encoded for a PUT whose deadline had passed, by request id, until put-kept or release-kept. */
const kept = new Map<number, FramedObject>();

function failure(id: number, error: unknown): EncodeResult {
  return { kind: 'failed', id, error: error instanceof Error ? error.message : String(error) };
}

/** Stores `framed`; past the deadline keeps it under `id` and answers 'late', so it is not encoded twice. */
async function putFramed(id: number, framed: FramedObject, store: EncoderThreadStore, target: PutTarget): Promise<EncodeResult> {
  if (!await store.put(target, framed)) {
    kept.set(id, framed);
    return { kind: 'late', id };
  }
  return { kind: 'stored', id, objectBytes: framed.object.length };
}

function encodeOnly(request: EncodeRequest): EncodeResult {
  const { object, sha256Hex } = encode(request);
  // Shared, not transferred: this thread never detaches a buffer, and it does not touch the object once posted.
  assert(object.buffer instanceof SharedArrayBuffer && object.buffer.byteLength === object.length, 'a framed object owns its whole shared buffer');
  return { kind: 'encoded', id: request.id, object, sha256Hex };
}

/** The answer to a request that stores an object: once the PUT is done, while later requests are encoded meanwhile. */
function answerPut(id: number, target: PutTarget, framedOf: () => FramedObject): void {
  assert(port !== null, 'segment-encoder-worker runs as a worker thread');
  const answerTo = port;
  if (threadStore === null) {
    answerTo.postMessage(failure(id, new RangeError('the segment encoder thread was started without a store')));
    return;
  }
  const store = threadStore;
  // Encoded inside the promise, so a short read becomes a failed answer like a store error.
  Promise.resolve().then(() => putFramed(id, framedOf(), store, target)).then((result) => answerTo.postMessage(result), (error: unknown) => answerTo.postMessage(failure(id, error)));
}

function keptObject(objectId: number): FramedObject {
  const framed = kept.get(objectId);
  if (framed === undefined) throw new RangeError(`no kept object ${objectId} (the thread restarted)`);
  kept.delete(objectId);
  return framed;
}

port.on('message', (message: unknown) => {
  const request = parseEncoderRequest(message);
  switch (request.kind) {
    case 'release-kept':
      kept.delete(request.objectId);
      return;
    case 'put-kept':
      answerPut(request.id, request.put, () => keptObject(request.objectId));
      return;
    case 'encode': {
      const target = request.put;
      if (target !== null) {
        answerPut(request.id, target, () => encode(request));
        return;
      }
      let result: EncodeResult;
      try {
        result = encodeOnly(request);
      } catch (error) {
        result = failure(request.id, error);
      }
      port.postMessage(result);
      return;
    }
    default:
      assertNever(request);
  }
});
