// Turns captures into objects of at most PART_BYTES_MAX raw bytes each, in order, reading linked bytes as
// it goes so that at most one part is in memory. A write larger than the space left is split into a first
// write and appends. A capture's _txn writes follow its other writes, so a replica that applied only the
// first parts of a capture shows nothing of it yet (parts carry consecutive sequence numbers).
import { open } from 'node:fs/promises';
import type { Capture, CapturedWrite } from './capture.js';
import { operationsOf } from './capture.js';
import type { FileOperation } from './segment-codec.js';

export const PART_BYTES_MAX = 64 * 1024 * 1024;

export interface CapturePart {
  readonly operations: readonly FileOperation[];
  readonly chunks: readonly Buffer[];
}

async function readSource(write: CapturedWrite, from: number, length: number): Promise<Buffer> {
  if (write.source.kind === 'memory') return write.source.bytes.subarray(from, from + length);
  const handle = await open(write.source.path, 'r');
  try {
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, write.operation.offset + from);
    if (bytesRead !== length) throw new RangeError(`linked file is shorter than captured [path=${write.operation.path}]`);
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * The objects of consecutive captures, in order: each capture's writes (split where a part fills up), then
 * its deletes and prune list. Applying them in order replays the captures one after another.
 */
export async function* captureParts(captures: readonly Capture[], partBytesMax = PART_BYTES_MAX): AsyncGenerator<CapturePart> {
  let operations: FileOperation[] = [];
  let chunks: Buffer[] = [];
  let partBytes = 0;
  for (const capture of captures) {
    for (const write of capture.writes) {
      let from = 0;
      do {
        if (partBytes >= partBytesMax) {
          yield { operations, chunks };
          operations = [];
          chunks = [];
          partBytes = 0;
        }
        const op = write.operation;
        const length = Math.min(op.length - from, partBytesMax - partBytes);
        operations.push({ op: 'write', path: op.path, offset: op.offset + from, length, whole: op.whole && from === 0 });
        chunks.push(await readSource(write, from, length));
        partBytes += length;
        from += length;
      } while (from < write.operation.length);
    }
    operations.push(...operationsOf(capture).filter((operation) => operation.op !== 'write'));
  }
  yield { operations, chunks };
}
