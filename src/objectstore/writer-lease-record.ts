// The writer lease object's codec and key naming. A lease is the JSON object `<root>_writer/<generation>`
// (20 digits, so keys sort by generation); the newest generation names the store root's writer. Pure: bytes
// in, record out; a malformed record is an error naming the key, never a silently ignored lease.
import { decodeStoredJson } from './object-store-error.js';

export interface WriterLeaseRecord {
  readonly format: 'svc-writer-lease';
  readonly instanceId: string;
  /** Random per claim: tells two processes apart even if they were given one instance id. */
  readonly claimId: string;
  readonly generation: number;
  /** Incremented by every renewal; a contender calls the lease stale only if this stays put for leaseMs. */
  readonly heartbeatCount: number;
  /** Holder's wall clock at the last renewal, for operators and for refusing early (never for taking over). */
  readonly heartbeatAtMs: number;
  readonly leaseMs: number;
  /** Set by release(): the next claimer need not wait. */
  readonly released: boolean;
}

const GENERATION_DIGITS = 20;
export const WRITER_LEASE_DIRECTORY = '_writer/';

export function leaseKey(root: string, generation: number): string {
  return `${root}${WRITER_LEASE_DIRECTORY}${String(generation).padStart(GENERATION_DIGITS, '0')}`;
}

/** The generation a lease key names, or null for other keys under the lease directory. */
export function generationOfLeaseKey(root: string, key: string): number | null {
  const name = key.slice(root.length + WRITER_LEASE_DIRECTORY.length);
  if (!key.startsWith(root + WRITER_LEASE_DIRECTORY) || !/^\d{20}$/.test(name)) return null;
  return Number(name);
}

export function encodeLeaseRecord(record: WriterLeaseRecord): Buffer {
  return Buffer.from(JSON.stringify(record));
}

export function decodeLeaseRecord(bytes: Buffer, key: string, store: string): WriterLeaseRecord {
  return decodeStoredJson(bytes, narrowLeaseRecord, 'writer lease', key, store);
}

function narrowLeaseRecord(value: unknown): WriterLeaseRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const get = (name: string): unknown => Reflect.get(value, name);
  const numbers = ['generation', 'heartbeatCount', 'heartbeatAtMs', 'leaseMs'].every((name) => Number.isSafeInteger(get(name)));
  const instanceId = get('instanceId');
  const claimId = get('claimId');
  const released = get('released');
  if (get('format') !== 'svc-writer-lease' || !numbers || typeof instanceId !== 'string' || typeof claimId !== 'string' || typeof released !== 'boolean') return null;
  return {
    format: 'svc-writer-lease', instanceId, claimId, released,
    generation: Number(get('generation')), heartbeatCount: Number(get('heartbeatCount')),
    heartbeatAtMs: Number(get('heartbeatAtMs')), leaseMs: Number(get('leaseMs')),
  };
}
