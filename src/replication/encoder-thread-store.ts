// The segment encoder thread's own connection to the replication store, so a segment's PUT (its SigV4
// signature, socket writes, the answer) runs at the thread's priority instead of on the event loop that runs
// commits. Opened on the first PUT from the primary's connection string; a failed open is tried again at
// the next one (the upload queue retries). The writer lease stays the event loop's: it is checked before a
// request is posted, and the thread refuses to start a PUT after the deadline the request carries.
import { openObjectStore } from '../objectstore/open-object-store.js';
import type { ObjectStore } from '../objectstore/object-store.js';
import type { PutTarget, ThreadStore } from './segment-encoder-messages.js';
import type { FramedObject } from './segment-codec.js';

/** Milliseconds of the process-wide monotonic clock: the same in every thread (performance.now() is not). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

export class EncoderThreadStore {
  private opening: Promise<ObjectStore> | null = null;

  constructor(private readonly settings: ThreadStore) {}

  /** Stores the object; false without a request when the deadline passed (a thread starved at low priority). */
  async put(target: PutTarget, framed: FramedObject): Promise<boolean> {
    const store = await this.open();
    if (monotonicMs() > target.startByMs) return false;
    await store.put(target.key, framed.object, { bodySha256Hex: framed.sha256Hex });
    return true;
  }

  private open(): Promise<ObjectStore> {
    this.opening ??= openObjectStore(this.settings.connection, { configKey: this.settings.configKey }).catch((error: unknown) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }
}
