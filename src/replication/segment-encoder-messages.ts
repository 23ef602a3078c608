// Messages between the primary's event loop and the segment encoder thread, and their narrowing (both
// directions cross a thread boundary as unknown).
import { assert } from '../core/assert.js';
import type { WireRange } from './capture-parts.js';
import type { FileOperation } from './segment-codec.js';

/**
 * Where the thread stores the object itself instead of handing it back: the key, and the monotonic time
 * (process.hrtime, ms) after which it must not start the PUT, since the writer lease was checked before
 * the request was posted and that check is trusted only for a bounded time (upload-queue.ts).
 */
export interface PutTarget {
  readonly key: string;
  readonly startByMs: number;
}

export interface EncodeRequest {
  readonly kind: 'encode';
  readonly id: number;
  readonly seq: number;
  readonly operations: readonly FileOperation[];
  readonly ranges: readonly WireRange[];
  /** null: hand the object back; otherwise store it and answer 'stored'. */
  readonly put: PutTarget | null;
}

/** Stores an object the thread kept after answering 'late' for it (it is not encoded again). */
export interface PutKeptRequest { readonly kind: 'put-kept'; readonly id: number; readonly objectId: number; readonly put: PutTarget }
/** Drops a kept object the caller gave up on (its lease was lost, it will encode again). No answer. */
export interface ReleaseKeptRequest { readonly kind: 'release-kept'; readonly objectId: number }

export type EncoderRequest = EncodeRequest | PutKeptRequest | ReleaseKeptRequest;

/**
 * The framed object (its buffer shared) with its SHA-256 in hex; or that the thread stored it; or why it could
 * not be built (a short read) or stored (the store's error), or that its lease check had become too old.
 */
export type EncodeResult =
  | { readonly kind: 'encoded'; readonly id: number; readonly object: Uint8Array; readonly sha256Hex: string }
  | { readonly kind: 'stored'; readonly id: number; readonly objectBytes: number }
  /**
   * Past the PUT's deadline: nothing was stored; the thread keeps the object under `id` until a put-kept
   * request (after the caller checked the lease again) or a release-kept request.
   */
  | { readonly kind: 'late'; readonly id: number }
  | { readonly kind: 'failed'; readonly id: number; readonly error: string };

/** The store the thread puts objects in, opened by the thread from the same connection string as the primary's. */
export interface ThreadStore {
  readonly connection: string;
  /** The config key the string came from, named in parse errors. */
  readonly configKey: string;
}

/** What the thread is started with (its workerData). */
export interface EncoderThreadData {
  readonly lowPriority: boolean;
  readonly store: ThreadStore | null;
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

function parsePutTarget(value: unknown): PutTarget | null {
  if (value === null) return null;
  assert(isRecord(value) && typeof value['key'] === 'string' && typeof value['startByMs'] === 'number', 'a put target names its key and deadline');
  return { key: value['key'], startByMs: value['startByMs'] };
}

/** Operations were built by this process's capture; their shape is checked again by the replica's decoder. */
export function parseEncoderRequest(value: unknown): EncoderRequest {
  assert(isRecord(value), 'an encoder request is an object');
  if (value['kind'] === 'release-kept') {
    assert(Number.isSafeInteger(value['objectId']), 'a release names the kept object');
    return { kind: 'release-kept', objectId: value['objectId'] as number };
  }
  if (value['kind'] === 'put-kept') {
    const put = parsePutTarget(value['put']);
    assert(Number.isSafeInteger(value['id']) && Number.isSafeInteger(value['objectId']) && put !== null, 'a put of a kept object names it and its target');
    return { kind: 'put-kept', id: value['id'] as number, objectId: value['objectId'] as number, put };
  }
  return parseEncodeRequest(value);
}

function parseEncodeRequest(value: Record<string, unknown>): EncodeRequest {
  assert(value['kind'] === 'encode' && Number.isSafeInteger(value['id']) && Number.isSafeInteger(value['seq']), 'an encode request carries an id and a sequence number');
  const operations = value['operations'];
  const ranges = value['ranges'];
  assert(Array.isArray(operations) && Array.isArray(ranges) && ranges.every(isWireRange), 'an encode request carries operations and byte ranges');
  return { kind: 'encode', id: value['id'] as number, seq: value['seq'] as number, operations: operations as FileOperation[], ranges, put: parsePutTarget(value['put']) };
}

export function parseEncodeResult(value: unknown): EncodeResult {
  assert(isRecord(value) && Number.isSafeInteger(value['id']), 'an encode result names its request');
  const id = value['id'] as number;
  switch (value['kind']) {
    case 'encoded': {
      const object = value['object'];
      const sha256Hex = value['sha256Hex'];
      assert(object instanceof Uint8Array && typeof sha256Hex === 'string' && /^[0-9a-f]{64}$/.test(sha256Hex), 'an encoded object comes with its SHA-256');
      return { kind: 'encoded', id, object, sha256Hex };
    }
    case 'late':
      return { kind: 'late', id };
    case 'stored':
      assert(Number.isSafeInteger(value['objectBytes']), 'a stored result says how large the object was');
      return { kind: 'stored', id, objectBytes: value['objectBytes'] as number };
    default:
      assert(value['kind'] === 'failed' && typeof value['error'] === 'string', 'a failed result says why');
      return { kind: 'failed', id, error: value['error'] };
  }
}

export function parseEncoderThreadData(value: unknown): EncoderThreadData {
  assert(isRecord(value) && typeof value['lowPriority'] === 'boolean', 'the segment encoder thread is started with its settings');
  const store = value['store'];
  assert(store === null || (isRecord(store) && typeof store['connection'] === 'string' && typeof store['configKey'] === 'string'), 'the thread store is a connection string or none');
  return { lowPriority: value['lowPriority'], store: store === null ? null : { connection: store['connection'] as string, configKey: store['configKey'] as string } };
}
