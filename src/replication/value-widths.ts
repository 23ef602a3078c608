// Bytes per value of a tracked file, so the segment encoder can ship fixed-width data as byte planes
// (byte-planes.ts): a partition's `<stem>.d` holds values of its column's storage width, every `.i` file
// holds int64 offsets. Anything else (variable-size data, symbol texts, _txn, _meta, Parquet) is 1: shipped
// as it is. Widths come from the table's _meta, decoded again only when its stamp changes. A wrong width
// (a column changed type between capture and encoding) costs compression, never correctness: the segment
// records the width it used and the replica reverses exactly that.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { decodeTableMeta } from '../storage/table-meta.js';
import { storageWidthBytes } from '../types/column-type.js';
import { isPlanedWidth } from './byte-planes.js';
import { sameStamp, type FileStamp, type FileStamps } from './tracked-files.js';

const OFFSET_BYTES = 8;

interface TableWidths { readonly stamp: FileStamp; readonly byStem: ReadonlyMap<string, number> }

export class ValueWidths {
  private readonly tables = new Map<string, TableWidths>();

  constructor(private readonly rootDir: string) {}

  /** The width to plane `path`'s bytes by, 1 for none; `stamps` is the scan the capture is made from. */
  widthOf(path: string, stamps: FileStamps): number {
    const parts = path.split('/');
    if (parts[0] !== 'db') return 1;
    const name = parts[parts.length - 1] ?? '';
    if (name.endsWith('.i')) return OFFSET_BYTES;
    if (parts.length !== 4 || !name.endsWith('.d')) return 1;
    const table = parts[1] ?? '';
    const width = this.tableWidths(table, stamps)?.byStem.get(name.slice(0, -2)) ?? 1;
    return isPlanedWidth(width) ? width : 1;
  }

  /** Forgets tables no longer tracked (dropped). */
  retainOnly(stamps: FileStamps): void {
    for (const table of this.tables.keys()) if (!stamps.has(`db/${table}/_meta`)) this.tables.delete(table);
  }

  private tableWidths(table: string, stamps: FileStamps): TableWidths | null {
    const metaPath = `db/${table}/_meta`;
    const stamp = stamps.get(metaPath);
    if (stamp === undefined) return null;
    const known = this.tables.get(table);
    if (known !== undefined && sameStamp(known.stamp, stamp)) return known;
    let widths: TableWidths;
    try {
      const meta = decodeTableMeta(fs.readFileSync(join(this.rootDir, metaPath)), metaPath);
      widths = { stamp, byStem: new Map(meta.columns.map((column) => [column.fileStem, storageWidthBytes(column.type)])) };
    } catch {
      // Replaced or dropped since the scan: the next capture sees the new one; meanwhile ship as it is.
      return null;
    }
    this.tables.set(table, widths);
    return widths;
  }
}
