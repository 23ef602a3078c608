// Copies of typed-array ranges in SharedArrayBuffers, for handing data to another thread with postMessage.
// Posting a SharedArrayBuffer shares it; transferring an ArrayBuffer detaches it in the sender, and the first
// detached buffer of an isolate makes V8 recompile every typed-array loop of that isolate with a detach check
// per access (25-40% more CPU per row, for the rest of the thread's life). The sender hands the copy over: it
// must not write it after posting it, exactly as it could not touch a transferred buffer.
import { assert } from './assert.js';

/** The array kinds batches carry between threads (plain kinds, not subclasses such as Buffer). */
export type SharedCopyable = Float64Array | Float32Array | Int32Array | Int16Array | Uint16Array | Int8Array | BigInt64Array;

/** Elements [0, length) of `source` in a SharedArrayBuffer of exactly their size, as the same kind of array. */
export function sharedCopy<T extends SharedCopyable>(source: T, length: number): T {
  assert(length >= 0 && length <= source.length, 'a shared copy takes at most the elements of its source');
  const buffer = new SharedArrayBuffer(length * source.BYTES_PER_ELEMENT);
  new Uint8Array(buffer).set(new Uint8Array(source.buffer, source.byteOffset, buffer.byteLength));
  const copy = viewOfSameKind(source, buffer);
  assert(copy.length === length && copy.constructor === source.constructor, 'a shared copy has the kind and length of its source range');
  return copy;
}

/** The bytes in a SharedArrayBuffer of exactly their size. */
export function sharedBytes(bytes: Uint8Array): Uint8Array<SharedArrayBuffer> {
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  copy.set(bytes);
  return copy;
}

/** A view of `buffer` of the same array kind as `source`; the chain of checks picks the one kind T is. */
function viewOfSameKind<T extends SharedCopyable>(source: T, buffer: SharedArrayBuffer): T {
  const view: SharedCopyable = source instanceof Float64Array ? new Float64Array(buffer)
    : source instanceof Float32Array ? new Float32Array(buffer)
      : source instanceof Int32Array ? new Int32Array(buffer)
        : source instanceof Int16Array ? new Int16Array(buffer)
          : source instanceof Uint16Array ? new Uint16Array(buffer)
            : source instanceof Int8Array ? new Int8Array(buffer)
              : new BigInt64Array(buffer);
  // Widening back to T is sound: the view was built with the constructor of the kind `source` is (asserted by the caller).
  return view as T;
}
