// The cursor of a blocking operator (GROUP BY, LATEST ON, top-N, SAMPLE BY, FILL, window functions): the
// whole result is computed from the input on the first call, then handed out in batches of at most
// batchRowsMax rows, so operators above see the same batch sizes as over a scan.
import type { ColumnBatch } from './batch.js';
import type { Cursor } from './operator.js';
import { sliceBatch } from './vector-ops.js';
import { batchRowsMax } from '../../core/limits.js';

export function computedResultCursor(input: Cursor, compute: () => ColumnBatch): Cursor {
  let result: ColumnBatch | undefined;
  let emitted = 0;
  return {
    nextBatch: (): ColumnBatch | undefined => {
      result ??= compute();
      if (emitted >= result.rowCount) return undefined;
      const count = Math.min(batchRowsMax, result.rowCount - emitted);
      const batch = emitted === 0 && count === result.rowCount ? result : sliceBatch(result, emitted, emitted + count);
      emitted += count;
      return batch;
    },
    close: () => input.close(),
  };
}
