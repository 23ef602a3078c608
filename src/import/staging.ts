// Where an upload's rows wait until the primary commits them: a staging segment under db/.staging/,
// fed with the session's row chunks. The HTTP route uses this instead of reaching into storage/.
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { StagingSegmentWriter, stagingRoot } from '../storage/staging-segment.js';
import type { RowChunk } from '../storage/row-chunk.js';
import type { ColumnType } from '../types/column-type.js';

export interface ImportStaging {
  readonly dir: string;
  append(chunk: RowChunk, columns: readonly { name: string; type: ColumnType }[]): void;
  /** Completes the segment (creating an empty one when no batch arrived). */
  finish(columns: readonly { name: string; type: ColumnType }[]): void;
  abort(): void;
}

export function createImportStaging(dbDir: string): ImportStaging {
  const dir = join(stagingRoot(dbDir), randomUUID());
  let writer: StagingSegmentWriter | undefined;
  let aborted = false;
  return {
    dir,
    append(chunk, columns) {
      if (aborted) return;
      writer ??= new StagingSegmentWriter(dir, columns);
      writer.append(chunk);
    },
    finish(columns) {
      writer ??= new StagingSegmentWriter(dir, columns);
      writer.finish();
    },
    abort() {
      aborted = true;
      writer?.abort();
    },
  };
}
