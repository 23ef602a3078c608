// Where an upload's rows wait until the primary commits them: a staging segment under db/.staging/,
// fed with the session's rows, split by the target table's partitioning. The HTTP route uses this
// instead of reaching into storage/.
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { realFiles, removeTreeQuietly } from '../core/files.js';
import { filesFromEnvironment } from '../core/fault-files.js';
import { StagingSegmentWriter, stagingRoot, type StagingLayout } from '../storage/staging-segment.js';
import type { PartitionedRows } from '../storage/partition-split.js';
import type { PartPlacement, PartSummary } from '../storage/staged-part-writes.js';
import type { ColumnType } from '../types/column-type.js';

/** Segments are written by workers: through the same facade as the primary's storage, so tests can fail them too. */
const files = filesFromEnvironment(realFiles, process.env);

export type { StagingLayout };

type StagedColumns = readonly { name: string; type: ColumnType }[];

/** Reserves where rows converted elsewhere (a parse thread) go; whoever holds the rows then writes them there. */
export interface StagingPlacer {
  place(part: PartSummary): PartPlacement;
  addDroppedRows(count: number): void;
}

export interface ImportStaging {
  readonly dir: string;
  append(rows: PartitionedRows, columns: StagedColumns): void;
  /** A placer for the segment of these columns (created on first use). */
  placer(columns: () => StagedColumns): StagingPlacer;
  /** Completes the segment (creating an empty one when no chunk arrived). */
  finish(columns: StagedColumns): void;
  abort(): void;
}

/** `layoutOf` gives the partitioning once the columns are known (detection has run). */
export function createImportStaging(dbDir: string, layoutOf: (columns: StagedColumns) => StagingLayout): ImportStaging {
  const dir = join(stagingRoot(dbDir), randomUUID());
  let writer: StagingSegmentWriter | undefined;
  let aborted = false;
  const open = (columns: StagedColumns): StagingSegmentWriter => {
    writer ??= new StagingSegmentWriter(files, dir, columns, layoutOf(columns));
    return writer;
  };
  return {
    dir,
    append(rows, columns) {
      if (aborted) return;
      open(columns).append(rows);
    },
    placer(columns) {
      return {
        place: (part) => open(columns()).place(part),
        addDroppedRows: (count) => open(columns()).addDroppedRows(count),
      };
    },
    finish(columns) {
      // After an abort nothing may be created again: the segment would be left behind.
      if (aborted) return;
      open(columns).finish();
    },
    abort() {
      aborted = true;
      try {
        if (writer !== undefined) writer.abort();
        else files.removeTree(dir);
      } catch {
        // A parse thread may have been creating a file in it: try once more when its write is over (a segment
        // still left without its manifest is removed at the next start).
        setTimeout(() => removeTreeQuietly(files, dir), stagingRemoveRetryMs).unref();
      }
    },
  };
}

/** Delay before a second attempt to remove an aborted segment. */
const stagingRemoveRetryMs = 1000;
