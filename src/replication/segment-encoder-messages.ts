// Messages between the primary's event loop and the segment encoder thread, and their narrowing (both
// directions cross a thread boundary as unknown).
import { assert } from '../core/assert.js';
import type { WireRange } from './capture-parts.js';
import type { FileOperation } from './segment-codec.js';

export interface EncodeRequest {
  readonly id: number;
  readonly seq: number;
  readonly operations: readonly FileOperation[];
  readonly ranges: readonly WireRange[];
}

/** The framed object (its buffer shared) with its SHA-256 in hex, or why it could not be built (a short read). */
export type EncodeResult =
  | { readonly id: number; readonly object: Uint8Array; readonly sha256Hex: string; readonly error: null }
  | { readonly id: number; readonly object: null; readonly error: string };

/** What the thread is started with (its workerData). */
export interface EncoderThreadData {
  readonly lowPriority: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isWireBase(value: unknown): boolean {
  return isRecord(value) && typeof value['path'] === 'string' && Number.isSafeInteger(value['fd']) && Number.isSafeInteger(value['lengthMax']);
}

function isWireRange(value: unknown): value is WireRange {
  if (!isRecord(value) || !Number.isSafeInteger(value['position']) || !Number.isSafeInteger(value['length']) || !Number.isSafeInteger(value['valueBytes'])) return false;
  switch (value['kind']) {
    case 'memory': return value['bytes'] instanceof Uint8Array;
    case 'fd': return Number.isSafeInteger(value['fd']) && (value['base'] === null || isWireBase(value['base']));
    case 'path': return typeof value['path'] === 'string';
    default: return false;
  }
}

/** Operations were built by this process's capture; their shape is checked again by the replica's decoder. */
export function parseEncodeRequest(value: unknown): EncodeRequest {
  assert(isRecord(value) && Number.isSafeInteger(value['id']) && Number.isSafeInteger(value['seq']), 'an encode request carries an id and a sequence number');
  const operations = value['operations'];
  const ranges = value['ranges'];
  assert(Array.isArray(operations) && Array.isArray(ranges) && ranges.every(isWireRange), 'an encode request carries operations and byte ranges');
  return { id: value['id'] as number, seq: value['seq'] as number, operations: operations as FileOperation[], ranges };
}

export function parseEncodeResult(value: unknown): EncodeResult {
  assert(isRecord(value) && Number.isSafeInteger(value['id']), 'an encode result names its request');
  const id = value['id'] as number;
  const object = value['object'];
  const sha256Hex = value['sha256Hex'];
  if (object instanceof Uint8Array) {
    assert(typeof sha256Hex === 'string' && /^[0-9a-f]{64}$/.test(sha256Hex), 'an encoded object comes with its SHA-256');
    return { id, object, sha256Hex, error: null };
  }
  assert(typeof value['error'] === 'string', 'an encode result without an object says why');
  return { id, object: null, error: value['error'] };
}

export function parseEncoderThreadData(value: unknown): EncoderThreadData {
  assert(isRecord(value) && typeof value['lowPriority'] === 'boolean', 'the segment encoder thread is started with its settings');
  return { lowPriority: value['lowPriority'] };
}
