// Cold objects of dropped tables. DROP TABLE cannot delete them at once: a query may have pinned an object and
// the store may be down. So the drop leaves a marker `<root>/.cold-dropped/<table>~<tableId>`, written durably
// before the table directory goes, and the cold-storage manager's sweeps retire the table from the marker
// alone: entries become `deleting`, go after the grace period, then everything left under the table's prefix,
// then the marker. A crash anywhere in between repeats a step, never skips one.
import { join } from 'node:path';
import type { FilesFacade } from '../../core/files.js';
import { COLD_MIRROR_FILE } from '../../storage/cold-manifest-file.js';
import { coldTablePrefix } from './cold-object-key.js';

const DROPPED_DIR = '.cold-dropped';
const MARKER_NAME = /^(.+)~(\d+)$/;

export interface DroppedColdTable {
  readonly table: string;
  readonly tableId: number;
}

/** Whether the table ever had a cold manifest (its mirror file exists): only such a table leaves objects behind. */
export function hadColdManifest(files: FilesFacade, tableDir: string): boolean {
  return files.exists(join(tableDir, COLD_MIRROR_FILE));
}

/** Leaves the marker the sweeps retire the dropped table's objects from. */
export function markDroppedColdTable(files: FilesFacade, rootDir: string, dropped: DroppedColdTable): void {
  const dir = join(rootDir, DROPPED_DIR);
  files.mkdirs(dir);
  files.writeFileAtomic(join(dir, markerName(dropped)), Buffer.from(coldTablePrefix(dropped.table, dropped.tableId)), true);
}

export function droppedColdTables(files: FilesFacade, rootDir: string): DroppedColdTable[] {
  const found: DroppedColdTable[] = [];
  for (const name of files.list(join(rootDir, DROPPED_DIR))) {
    const match = MARKER_NAME.exec(name);
    if (match !== null) found.push({ table: match[1], tableId: Number(match[2]) });
  }
  return found;
}

export function forgetDroppedColdTable(files: FilesFacade, rootDir: string, dropped: DroppedColdTable): void {
  const path = join(rootDir, DROPPED_DIR, markerName(dropped));
  if (files.exists(path)) files.unlink(path);
}

function markerName(dropped: DroppedColdTable): string {
  return `${dropped.table}~${dropped.tableId}`;
}
