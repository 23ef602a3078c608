// What replication copies: every file of every table under db/ except its WAL (a replica receives
// committed files, never WAL records), plus the service-accounts file. Paths are relative to the server
// root with '/' separators. A scan stamps each file (size, inode, mtime); a table whose _txn and
// directory are unchanged since the previous scan is not walked again: every commit replaces _txn, and
// every atomic replacement or new entry in the table directory changes the directory's mtime.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { isTableDirName } from '../storage/catalog.js';
import { SERVICE_ACCOUNTS_RELATIVE_PATH } from '../accounts/service-account-file.js';

export interface FileStamp { readonly size: number; readonly ino: bigint; readonly mtimeNs: bigint }
export type FileStamps = Map<string, FileStamp>;

interface TableStamp { readonly txn: FileStamp | null; readonly dir: FileStamp }

export const ACCOUNTS_PATH = SERVICE_ACCOUNTS_RELATIVE_PATH.split(/[\\/]/).join('/');
const WAL_DIR = 'wal';

function stampOf(path: string): FileStamp | null {
  const stat = fs.statSync(path, { bigint: true, throwIfNoEntry: false });
  return stat === undefined ? null : { size: Number(stat.size), ino: stat.ino, mtimeNs: stat.mtimeNs };
}

export function sameStamp(a: FileStamp | null | undefined, b: FileStamp | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return a === b;
  return a.size === b.size && a.ino === b.ino && a.mtimeNs === b.mtimeNs;
}

/** Is this tracked path a table's _txn, the file whose replacement publishes a commit? */
export function isTxnPath(path: string): boolean {
  return /^db\/[^/]+\/_txn$/.test(path);
}

function walkTable(rootDir: string, relativeDir: string, into: FileStamps, depth: number): void {
  for (const entry of fs.readdirSync(join(rootDir, relativeDir), { withFileTypes: true })) {
    const relative = `${relativeDir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!(depth === 0 && entry.name === WAL_DIR)) walkTable(rootDir, relative, into, depth + 1);
    } else if (entry.isFile()) {
      const stamp = stampOf(join(rootDir, relative));
      if (stamp !== null) into.set(relative, stamp);
    }
  }
}

/** Scans the tracked files; a table unchanged since the previous scan keeps its entries without a walk. */
export class TrackedFiles {
  private tables = new Map<string, { readonly stamp: TableStamp; readonly files: FileStamps }>();

  constructor(private readonly rootDir: string) {}

  /** `full`: walk every table (checkpoints), trusting nothing from the previous scan. */
  scan(full: boolean): FileStamps {
    const tables = new Map<string, { readonly stamp: TableStamp; readonly files: FileStamps }>();
    const dbDir = join(this.rootDir, 'db');
    const names = fs.existsSync(dbDir) ? fs.readdirSync(dbDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && isTableDirName(entry.name)).map((entry) => entry.name) : [];
    for (const name of names) {
      const dir = stampOf(join(dbDir, name));
      if (dir === null) continue;
      const stamp: TableStamp = { txn: stampOf(join(dbDir, name, '_txn')), dir };
      const before = this.tables.get(name);
      if (!full && before !== undefined && sameStamp(before.stamp.txn, stamp.txn) && sameStamp(before.stamp.dir, stamp.dir)) {
        tables.set(name, before);
      } else {
        const files: FileStamps = new Map();
        walkTable(this.rootDir, `db/${name}`, files, 0);
        tables.set(name, { stamp, files });
      }
    }
    this.tables = tables;
    const stamps: FileStamps = new Map();
    for (const table of tables.values()) for (const [path, fileStamp] of table.files) stamps.set(path, fileStamp);
    const accounts = stampOf(join(this.rootDir, ACCOUNTS_PATH));
    if (accounts !== null) stamps.set(ACCOUNTS_PATH, accounts);
    return stamps;
  }
}
