// The sum of a batch of int64 values computed by a tiny WebAssembly function, which adds 64-bit integers
// natively: JavaScript can only split each value into two 32-bit words and add those as doubles, twice the
// work of a DOUBLE sum. The batch is copied into the module's memory (a memcpy), then summed as two exact
// halves: the low 32-bit words (unsigned) and the high words (signed), never overflowing for a batch of up to
// `int64SumRowsMax` rows, plus the count of nulls (Long.MIN_VALUE), which the halves exclude.
import { assert } from '../../../core/assert.js';

/**
 * The module, assembled by hand (WebAssembly binary format 1.0). In text form:
 *   (memory (export "memory") 9)
 *   (func (export "sum") (param $n i32)
 *     (local $p i32) (local $end i32) (local $low i64) (local $high i64) (local $v i64) (local $nulls i32)
 *     $end = 32 + $n * 8; $p = 32
 *     loop while $p < $end: $v = i64.load($p); $low += $v & 0xffffffff; $high += $v >> 32 (signed);
 *                           $nulls += ($v == Long.MIN_VALUE); $p += 8
 *     i64.store(0, $low + 0); i64.store(8, $high + $nulls * 2^31); i32.store(16, $nulls))
 * A null's words are (0, -2^31): adding 2^31 per null to the high sum removes them.
 */
function moduleBytes(): Uint8Array {
  const section = (id: number, bytes: readonly number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
  const name = (text: string): number[] => [text.length, ...Buffer.from(text, 'ascii')];
  const get = (local: number): number[] => [0x20, local];
  const set = (local: number): number[] => [0x21, local];
  // Param 0: n. Locals 1 p, 2 end (i32); 3 low, 4 high, 5 v (i64); 6 nulls (i32).
  const body = [
    3, 2, 0x7f, 3, 0x7e, 1, 0x7f,
    ...get(0), 0x41, 3, 0x74, 0x41, 32, 0x6a, ...set(2),
    0x41, 32, ...set(1),
    0x02, 0x40, 0x03, 0x40,
    ...get(1), ...get(2), 0x4f, 0x0d, 1,
    ...get(1), 0x29, 3, 0, ...set(5),
    ...get(3), ...get(5), 0x42, ...sleb64(0xffffffffn), 0x83, 0x7c, ...set(3),
    ...get(4), ...get(5), 0x42, 32, 0x87, 0x7c, ...set(4),
    ...get(6), ...get(5), 0x42, ...sleb64(-(1n << 63n)), 0x51, 0x6a, ...set(6),
    ...get(1), 0x41, 8, 0x6a, ...set(1),
    0x0c, 0,
    0x0b, 0x0b,
    0x41, 0, ...get(3), 0x37, 3, 0,
    0x41, 8, ...get(4), ...get(6), 0xad, 0x42, ...sleb64(1n << 31n), 0x7e, 0x7c, 0x37, 3, 0,
    0x41, 16, ...get(6), 0x36, 2, 0,
    0x0b,
  ];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 1, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, memoryPages]),
    ...section(7, [2, ...name('sum'), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

function sleb64(value: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(value & 0x7fn);
    value >>= 7n;
    const done = (value === 0n && (byte & 0x40) === 0) || (value === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const memoryPages = 9;
const headerBytes = 32;
/** Rows one call sums: the module's memory (9 pages of 64 KiB) less its header, and batchRowsMax fits. */
export const int64SumRowsMax = (memoryPages * 65536 - headerBytes) / 8;

interface Int64SumExports {
  readonly sum: (rowCount: number) => void;
  readonly memory: { readonly buffer: ArrayBuffer };
}

/** The WebAssembly global as this module uses it (tsconfig's lib has no DOM, which is where its types live). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}
const webAssembly = (globalThis as unknown as { readonly WebAssembly: WebAssemblyApi }).WebAssembly;

interface LoadedModule {
  readonly sum: (rowCount: number) => void;
  readonly bytes: Uint8Array;
  readonly header: BigInt64Array;
  readonly nulls: Int32Array;
}

/** Compiled on first use (a few microseconds); the memory never grows, so the views stay valid. */
let loaded: LoadedModule | undefined;

function instance(): LoadedModule {
  if (loaded !== undefined) return loaded;
  const raw = new webAssembly.Instance(new webAssembly.Module(moduleBytes())).exports as Int64SumExports;
  const buffer = raw.memory.buffer;
  loaded = { sum: raw.sum, bytes: new Uint8Array(buffer), header: new BigInt64Array(buffer, 0, 2), nulls: new Int32Array(buffer, 16, 1) };
  return loaded;
}

/** [low-word sum, high-word sum, non-null count] of the batch, written into `out`; each an exact integer. */
export function sumInt64Batch(values: BigInt64Array, rowCount: number, out: Float64Array): void {
  assert(rowCount <= int64SumRowsMax && rowCount <= values.length, 'callers split batches larger than the module memory');
  const module = instance();
  module.bytes.set(new Uint8Array(values.buffer, values.byteOffset, rowCount * 8), headerBytes);
  module.sum(rowCount);
  const nulls = module.nulls[0];
  out[0] = Number(module.header[0]);
  out[1] = Number(module.header[1]);
  out[2] = rowCount - nulls;
}
