// The manifest object's codec and key naming. A manifest is `<prefix>_manifest/<generation>-<version>.json`
// (20 digits each): keys sort by writer generation first, so anything a superseded writer wrote after its
// successor's first manifest sorts below it and is never read. Pure: bytes in, record out.
import { decodeStoredJson } from './object-store-error.js';

export interface Manifest {
  readonly format: 'svc-manifest';
  /** Generation of the writer lease held when it was written. */
  readonly generation: number;
  /** One more than the version it replaced, across generations. */
  readonly version: number;
  readonly instanceId: string;
  readonly writtenAtMs: number;
  /** Every object the manifest names; all existed before the manifest was written. */
  readonly objects: readonly string[];
  /** The caller's payload (partition lists, segment ranges). */
  readonly body: unknown;
}

export const MANIFEST_DIRECTORY = '_manifest/';
export const MANIFEST_POINTER = 'latest';
const NUMBER_DIGITS = 20;

export function manifestKey(prefix: string, generation: number, version: number): string {
  return `${prefix}${MANIFEST_DIRECTORY}${String(generation).padStart(NUMBER_DIGITS, '0')}-${String(version).padStart(NUMBER_DIGITS, '0')}.json`;
}

export function isManifestKey(prefix: string, key: string): boolean {
  return key.startsWith(prefix + MANIFEST_DIRECTORY) && /^\d{20}-\d{20}\.json$/.test(key.slice(prefix.length + MANIFEST_DIRECTORY.length));
}

export function pointerKey(prefix: string): string {
  return `${prefix}${MANIFEST_DIRECTORY}${MANIFEST_POINTER}`;
}

export function encodeManifest(manifest: Manifest): Buffer {
  return Buffer.from(JSON.stringify(manifest));
}

export function decodeManifest(bytes: Buffer, key: string, store: string): Manifest {
  return decodeStoredJson(bytes, narrowManifest, 'manifest', key, store);
}

function narrowManifest(value: unknown): Manifest | null {
  if (typeof value !== 'object' || value === null) return null;
  const get = (name: string): unknown => Reflect.get(value, name);
  const generation = get('generation');
  const version = get('version');
  const writtenAtMs = get('writtenAtMs');
  const instanceId = get('instanceId');
  const objects = get('objects');
  if (get('format') !== 'svc-manifest' || typeof generation !== 'number' || typeof version !== 'number' || typeof writtenAtMs !== 'number') return null;
  if (typeof instanceId !== 'string' || !Array.isArray(objects) || !objects.every((item): item is string => typeof item === 'string')) return null;
  return { format: 'svc-manifest', generation, version, writtenAtMs, instanceId, objects, body: get('body') };
}

/** Reads the pointer object's text: the key of the manifest it names, or null when malformed. */
export function decodePointer(bytes: Buffer, prefix: string): string | null {
  const key = bytes.toString('utf8').trim();
  return isManifestKey(prefix, key) ? key : null;
}
