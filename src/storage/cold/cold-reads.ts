// The process's cold read settings and its one chunk coordinator, configured at start (every process that
// runs queries), and the factory of statement sessions. The object store opens on the first cold read, so a
// process that never touches a cold partition never connects; a failed open is retried by the next read.
import type { ObjectStore } from '../../objectstore/object-store.js';
import { openObjectStore } from '../../objectstore/open-object-store.js';
import { ColdChunkCoordinator, type ColdReadLimits } from './chunk-coordinator.js';
import { ColdReadError } from './cold-read-errors.js';
import { ColdReadSession } from './cold-read-session.js';

export interface ColdReadSettings extends ColdReadLimits {
  /** cold.storage.object.store; null: cold storage off, a cold partition cannot be read. */
  readonly connection: string | null;
  /** Attempts per range request (the first included) and the timeout of each. */
  readonly attemptsMax: number;
  readonly requestTimeoutMs: number;
  /** cairo.sql.max.memory: pinned chunks count against it. */
  readonly queryMemoryBytesMax: number;
}

const DEFAULT_SETTINGS: ColdReadSettings = {
  connection: null, downloadsInFlightMax: 64, pendingBatchesMax: 1024, coalesceGapBytesMax: 256 * 1024, attemptsMax: 3, requestTimeoutMs: 30_000, queryMemoryBytesMax: 4 * 1024 ** 3,
};

let settings = DEFAULT_SETTINGS;
let coordinator: ColdChunkCoordinator | undefined;
let store: Promise<ObjectStore> | undefined;

export function configureColdReads(next: ColdReadSettings): void {
  settings = next;
  coordinator = undefined;
  const previous = store;
  store = undefined;
  void previous?.then((opened) => opened.close()).catch(() => undefined);
}

function openStore(): Promise<ObjectStore> {
  const connection = settings.connection;
  if (connection === null) {
    return Promise.reject(new ColdReadError('cold storage is not configured on this server (cold.storage.object.store is unset), so cold partitions cannot be read'));
  }
  store ??= openObjectStore(connection, { attemptsMax: settings.attemptsMax, requestTimeoutMs: settings.requestTimeoutMs }).catch((error: unknown) => {
    store = undefined;
    throw error;
  });
  return store;
}

function processCoordinator(): ColdChunkCoordinator {
  coordinator ??= new ColdChunkCoordinator(openStore, settings);
  return coordinator;
}

/** Opens the store ahead of the first cold read (SDK load, bucket check), so no query pays for it; failures wait for a read. */
export function warmColdStore(): void {
  if (settings.connection !== null) void openStore().catch(() => undefined);
}

/** A session for one statement; the signal `signalOf` gives ends its waits (the statement's timeout or cancel). */
export function createColdReadSession(signalOf: () => AbortSignal): ColdReadSession {
  return new ColdReadSession(processCoordinator, signalOf, settings.queryMemoryBytesMax);
}
