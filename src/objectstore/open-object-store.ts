// Connection string → ObjectStore: the one entry point callers use (cold storage, replication, tests).
import { assertNever } from '../core/assert.js';
import type { ObjectStore } from './object-store.js';
import { parseConnectionString } from './connection-string.js';
import { resolveStoreOptions, type StoreOptions } from './store-options.js';
import { S3ObjectStore } from './s3-store.js';
import { FsObjectStore } from './fs-store.js';

export interface OpenObjectStoreOptions extends Partial<StoreOptions> {
  /** The config key the string came from, named in parse errors. */
  readonly configKey?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** Parses `connection`, connects, and creates the bucket (s3::) or directories (fs::) if missing. */
export async function openObjectStore(connection: string, options: OpenObjectStoreOptions = {}): Promise<ObjectStore> {
  const { configKey = 'cold.storage.object.store', env = process.env, signal, ...overrides } = options;
  const location = parseConnectionString(connection, configKey, env);
  const storeOptions = resolveStoreOptions(overrides);
  switch (location.kind) {
    case 's3': return S3ObjectStore.open(location, storeOptions, signal);
    case 'fs': return FsObjectStore.open(location, storeOptions);
    default: return assertNever(location, 'store location');
  }
}
