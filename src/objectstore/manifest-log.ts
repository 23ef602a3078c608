// Versioned manifests over an ObjectStore: commit writes every new object, checks every carried-over one
// exists, writes the manifest as a new numbered version, then updates the `latest` pointer. A crash at any
// point leaves the previous manifest or the new one as the newest, never one naming a missing object.
// Readers take the pointer as a hint and list past it, so a crash between manifest and pointer loses nothing.
// Invariant: only the writer-lease holder commits (asserted before the objects and again before the manifest).
import { assert } from '../core/assert.js';
import type { ObjectStore, RequestOptions } from './object-store.js';
import { objectStoreError, ObjectStoreError } from './object-store-error.js';
import type { WriterHandle } from './writer-lease.js';
import {
  type Manifest, manifestKey, isManifestKey, pointerKey, encodeManifest, decodeManifest, decodePointer, MANIFEST_DIRECTORY,
} from './manifest-codec.js';

/** An object to write in a commit: from memory or streamed from a local file. */
export type ObjectUpload =
  | { readonly kind: 'bytes'; readonly key: string; readonly body: Uint8Array }
  | { readonly kind: 'file'; readonly key: string; readonly path: string };

export interface ManifestCommit {
  /** Objects written before the manifest. Write new keys: never overwrite an object an older manifest names. */
  readonly uploads: readonly ObjectUpload[];
  /** Every object the new manifest names (uploads and carried-over objects). */
  readonly objects: readonly string[];
  readonly body: unknown;
}

const READ_ATTEMPTS_MAX = 3;

export class ManifestLog {
  private readonly prefix: string;

  /** `prefix`: a key prefix ('' or ending in '/'), e.g. the table directory. */
  constructor(private readonly store: ObjectStore, prefix: string) {
    this.prefix = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  }

  /** The newest complete manifest, or null when none was ever committed. */
  async readLatest(options: RequestOptions = {}): Promise<Manifest | null> {
    for (let attempt = 0; ; attempt++) {
      const newestKey = await this.findNewestKey(options);
      if (newestKey === null) return null;
      try {
        const manifest = decodeManifest(await this.store.get(newestKey, options), newestKey, this.store.description);
        if (manifestKey(this.prefix, manifest.generation, manifest.version) !== newestKey) {
          throw objectStoreError('rejected', 'read manifest', this.store.description, newestKey, `its content names generation ${manifest.generation} version ${manifest.version}`);
        }
        return manifest;
      } catch (error) {
        // Pruned between listing and reading: list again.
        if (!(error instanceof ObjectStoreError && error.reason === 'not-found') || attempt + 1 >= READ_ATTEMPTS_MAX) throw error;
      }
    }
  }

  async commit(writer: WriterHandle, commit: ManifestCommit, options: RequestOptions = {}): Promise<Manifest> {
    await writer.assertStillWriter(options.signal);
    const previous = await this.readLatest(options);
    if (previous !== null && previous.generation > writer.generation) {
      throw objectStoreError('rejected', 'commit manifest', this.store.description, this.prefix, `a newer writer (generation ${previous.generation}) already committed; this writer is generation ${writer.generation}`);
    }
    for (const upload of commit.uploads) {
      if (upload.kind === 'bytes') await this.store.put(upload.key, upload.body, options);
      else await this.store.putFile(upload.key, upload.path, options);
    }
    await this.commitCheckObjects(commit, previous, options);
    await writer.assertStillWriter(options.signal);
    const manifest: Manifest = {
      format: 'svc-manifest', generation: writer.generation, version: (previous?.version ?? 0) + 1,
      instanceId: writer.instanceId, writtenAtMs: Date.now(), objects: [...commit.objects], body: commit.body,
    };
    assert(manifest.version > (previous?.version ?? 0) && manifest.generation >= (previous?.generation ?? 0), 'a commit orders after the manifest it replaces');
    const key = manifestKey(this.prefix, manifest.generation, manifest.version);
    await this.store.put(key, encodeManifest(manifest), options);
    await this.store.put(pointerKey(this.prefix), Buffer.from(key), options);
    return manifest;
  }

  /** Deletes all but the newest `keepCount` manifest versions (callers keep enough for readers in flight). */
  async prune(keepCount: number, options: RequestOptions = {}): Promise<number> {
    const keys = (await this.store.list(this.prefix + MANIFEST_DIRECTORY, options)).map((item) => item.key).filter((key) => isManifestKey(this.prefix, key));
    const old = keys.slice(0, Math.max(0, keys.length - Math.max(1, keepCount)));
    await this.store.delete(old, options);
    return old.length;
  }

  /** Every named object that this commit did not upload and the previous manifest did not name must exist. */
  private async commitCheckObjects(commit: ManifestCommit, previous: Manifest | null, options: RequestOptions): Promise<void> {
    const known = new Set<string>([...commit.uploads.map((upload) => upload.key), ...(previous?.objects ?? [])]);
    for (const key of commit.objects) {
      if (known.has(key)) continue;
      if (await this.store.head(key, options) === null) {
        throw objectStoreError('not-found', 'commit manifest', this.store.description, key, 'the manifest would name an object that does not exist');
      }
    }
  }

  private async findNewestKey(options: RequestOptions): Promise<string | null> {
    let pointed: string | null = null;
    try {
      pointed = decodePointer(await this.store.get(pointerKey(this.prefix), options), this.prefix);
    } catch (error) {
      if (!(error instanceof ObjectStoreError && error.reason === 'not-found')) throw error;
    }
    const listed = await this.store.list(this.prefix + MANIFEST_DIRECTORY, pointed === null ? options : { ...options, startAfter: pointed });
    let newest = pointed;
    for (const item of listed) {
      if (isManifestKey(this.prefix, item.key) && (newest === null || item.key > newest)) newest = item.key;
    }
    return newest;
  }
}
