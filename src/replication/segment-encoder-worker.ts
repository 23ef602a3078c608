// The segment encoder thread: reads a part's byte ranges straight into one buffer after its header,
// compresses, digests and frames it, and hands the object back by transfer (no copy). Everything here may
// block: it runs beside the primary's event loop, never on it, and its garbage is its own heap's.
import { parentPort } from 'node:worker_threads';
import { assert } from '../core/assert.js';
import { readRangeSync, type WireRange } from './capture-parts.js';
import { frameSegmentSync, segmentHeader } from './segment-codec.js';
import { parseEncodeRequest, type EncodeRequest, type EncodeResult } from './segment-encoder-messages.js';

function encode(request: EncodeRequest): Buffer {
  const header = segmentHeader(request.seq, request.operations);
  const rawBytes = request.ranges.reduce((sum: number, range: WireRange) => sum + range.length, header.length);
  const raw = Buffer.allocUnsafeSlow(rawBytes);
  header.copy(raw, 0);
  let at = header.length;
  for (const range of request.ranges) {
    readRangeSync(range, raw, at);
    at += range.length;
  }
  return frameSegmentSync(raw);
}

const port = parentPort;
assert(port !== null, 'segment-encoder-worker runs as a worker thread');
port.on('message', (message: unknown) => {
  const request = parseEncodeRequest(message);
  let result: EncodeResult;
  try {
    const object = encode(request);
    const owned = object.buffer;
    assert(owned instanceof ArrayBuffer && owned.byteLength === object.length, 'a framed object owns its whole buffer, so it can be transferred');
    result = { id: request.id, object, error: null };
    port.postMessage(result, [owned]);
  } catch (error) {
    result = { id: request.id, object: null, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(result);
  }
});
