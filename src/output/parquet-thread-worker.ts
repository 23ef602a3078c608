// Entry of the Parquet encoding thread started by parquet-thread.ts. It runs exports one after another
// (start, batches, end), feeding the export writer and posting its output back in SharedArrayBuffers (a transfer
// would detach it here, and the first detached buffer of a thread slows all its typed-array loops). Each batch is
// acknowledged once encoded, which lets the sender keep a bounded number in flight. After reporting an error
// the thread closes its port and exits, so a thread that failed is never reused.
import { parentPort } from 'node:worker_threads';
import { errorToPayload } from '../core/errors.js';
import { sharedBytes } from '../core/shared-copy.js';
import { assert } from '../core/assert.js';
import { loadParquetCodecs } from './parquet-codecs.js';
import { createParquetExportWriter } from './partitioned-export.js';
import type { ParquetExportWriter } from './parquet-writer.js';
import { parseToParquetThread, WireBatchReader } from './parquet-thread-messages.js';
import type { FromParquetThread, ToParquetThread } from './parquet-thread-messages.js';

const port = parentPort;
assert(port !== null, 'parquet-thread-worker runs only as a worker thread');

function post(message: FromParquetThread): void {
  if (message.kind !== 'chunk') {
    port?.postMessage(message);
    return;
  }
  // One copy into memory the receiver reads in place; the writer may reuse its own buffer once this returns.
  port?.postMessage({ kind: 'chunk', bytes: sharedBytes(message.bytes) });
}

let writer: ParquetExportWriter | undefined;
let reader = new WireBatchReader();

function handle(message: ToParquetThread): void {
  switch (message.kind) {
    case 'start':
      assert(writer === undefined, 'an export starts after the previous one ended');
      writer = createParquetExportWriter(message.init.columns, message.init.options, message.init.timestampIndex, (bytes) => post({ kind: 'chunk', bytes }));
      reader = new WireBatchReader();
      return;
    case 'batch':
      assert(writer !== undefined, 'batches follow a start');
      writer.writeBatch(reader.toBatch(message));
      post({ kind: 'ack' });
      return;
    case 'end': {
      assert(writer !== undefined, 'end follows a start');
      const finished = writer;
      writer = undefined;
      finished.finish();
      post({ kind: 'done', rowCount: finished.rowCount });
      return;
    }
  }
}

try {
  await loadParquetCodecs();
  port.on('message', (raw: unknown) => {
    try {
      handle(parseToParquetThread(raw));
    } catch (error) {
      post({ kind: 'error', error: errorToPayload(error) });
      port.close();
    }
  });
} catch (error) {
  post({ kind: 'error', error: errorToPayload(error) });
  port.close();
}
