// Object keys are '/'-separated relative paths: no leading '/', no empty, '.' or '..' segments, no NUL,
// at most 1024 bytes (Swift's limit, below S3's). The same rule for every store, so an fs:: key cannot
// escape its root and a key valid on one store is valid on the other.
import { ObjectStoreError } from './object-store-error.js';

const KEY_BYTES_MAX = 1024;

export function checkObjectKey(key: string, store: string): void {
  const bad = (why: string): never => { throw new ObjectStoreError('rejected', `object key ${JSON.stringify(key.slice(0, 200))} ${why} [store=${store}]`); };
  if (key.length === 0) bad('is empty');
  if (Buffer.byteLength(key) > KEY_BYTES_MAX) bad(`is longer than ${KEY_BYTES_MAX} bytes`);
  if (key.includes('\0')) bad('contains NUL');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') bad(`has an empty, '.' or '..' segment`);
  }
}

/** A listing prefix is a key prefix: it may be empty or end with '/', but may not climb out of the root. */
export function checkKeyPrefix(prefix: string, store: string): void {
  if (prefix === '') return;
  checkObjectKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix, store);
}
