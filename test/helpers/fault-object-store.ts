// An ObjectStore wrapper that simulates a crash: the (n+1)th mutating call (put, putIfAbsent, putFile,
// delete) fails, and so does every call after it, as if the process died there. Used to prove that a
// manifest commit interrupted at any write leaves the old or the new state.
import type { ObjectInfo, ObjectStore, PutIfAbsentOutcome, ListOptions, RequestOptions } from '../../src/objectstore/object-store.js';

export class InjectedCrash extends Error {
  constructor(operation: string, key: string) {
    super(`injected crash at ${operation} ${key}`);
    this.name = 'InjectedCrash';
  }
}

export class FaultObjectStore implements ObjectStore {
  readonly description: string;
  private writesDone = 0;
  private crashed = false;

  constructor(private readonly inner: ObjectStore, private readonly writesBeforeCrash: number) {
    this.description = `fault(${inner.description})`;
  }

  get crashedAtWrite(): boolean {
    return this.crashed;
  }

  put(key: string, body: Uint8Array, options?: RequestOptions): Promise<void> {
    return this.write('put', key, () => this.inner.put(key, body, options));
  }

  putIfAbsent(key: string, body: Uint8Array, options?: RequestOptions): Promise<PutIfAbsentOutcome> {
    return this.write('putIfAbsent', key, () => this.inner.putIfAbsent(key, body, options));
  }

  putFile(key: string, path: string, options?: RequestOptions): Promise<void> {
    return this.write('putFile', key, () => this.inner.putFile(key, path, options));
  }

  delete(keys: readonly string[], options?: RequestOptions): Promise<void> {
    return this.write('delete', keys[0] ?? '', () => this.inner.delete(keys, options));
  }

  get(key: string, options?: RequestOptions): Promise<Buffer> {
    return this.read('get', key, () => this.inner.get(key, options));
  }

  getRange(key: string, offset: number, lengthBytes: number, options?: RequestOptions): Promise<Buffer> {
    return this.read('getRange', key, () => this.inner.getRange(key, offset, lengthBytes, options));
  }

  head(key: string, options?: RequestOptions): Promise<ObjectInfo | null> {
    return this.read('head', key, () => this.inner.head(key, options));
  }

  list(prefix: string, options?: ListOptions): Promise<ObjectInfo[]> {
    return this.read('list', prefix, () => this.inner.list(prefix, options));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async write<T>(operation: string, key: string, call: () => Promise<T>): Promise<T> {
    if (this.crashed || this.writesDone >= this.writesBeforeCrash) {
      this.crashed = true;
      throw new InjectedCrash(operation, key);
    }
    this.writesDone++;
    return call();
  }

  private async read<T>(operation: string, key: string, call: () => Promise<T>): Promise<T> {
    if (this.crashed) throw new InjectedCrash(operation, key);
    return call();
  }
}
