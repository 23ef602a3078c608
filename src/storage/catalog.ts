// The tables under db/: name resolution (case-insensitive), and consistent snapshots of _meta + _txn.
// Each statement opens its tables once through a CatalogSnapshot, so it reads one committed state throughout.
import { join } from 'node:path';
import * as fs from 'node:fs';
import type { TableMeta } from './table-meta.js';
import { decodeTableMeta } from './table-meta.js';
import { decodeTxn } from './txn-file.js';
import { TableSnapshot } from './table-reader.js';
import type { ColumnView } from './table-reader.js';
import type { TxnState } from './txn-file.js';
import { SymbolTableCache } from './symbol-dictionary.js';
import { StorageError } from '../core/errors.js';
import { isValidTableName } from '../core/table-names.js';
import { sleepSync } from '../core/sleep-sync.js';

const SNAPSHOT_ATTEMPTS = 20;
const SNAPSHOT_TIGHT_ATTEMPTS = 5;

/** Directory names under db/ that are not tables. */
export function isTableDirName(name: string): boolean {
  return !name.startsWith('.') && !name.startsWith('_');
}

/**
 * The column mappings of the newest txn this process read of one table directory. Every query of an unchanged
 * table shares them: the rows of a committed txn never change (appends go past them, rewrites make new partition
 * versions, and the txn number only grows), so mapping them again per query (a stat per column file) is waste.
 */
interface TxnViews {
  readonly bytes: Buffer;
  readonly txn: TxnState;
  readonly views: Map<string, ColumnView>;
}

export class Catalog {
  private readonly metaCache = new Map<string, TableMeta>();
  /** By table directory; replaced when its _txn changes, dropped with the table's other cached state. */
  private readonly txnViews = new Map<string, TxnViews>();
  readonly symbolCache = new SymbolTableCache();

  /** `copyRoot`: the directory read_parquet() may read from (cairo.sql.copy.root); unset = read_parquet refused. */
  constructor(readonly dbDir: string, readonly copyRoot?: string) {}

  /** Table directory names, i.e. table names as created. */
  listTableNames(): string[] {
    if (!fs.existsSync(this.dbDir)) return [];
    const names = fs.readdirSync(this.dbDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && isTableDirName(entry.name) && fs.existsSync(join(this.dbDir, entry.name, '_txn')))
      .map((entry) => entry.name)
      .sort();
    this.forgetTablesOtherThan(new Set(names.map((name) => join(this.dbDir, name))));
    return names;
  }

  /**
   * Drops the cached metadata and symbol texts of tables that are gone (dropped, or renamed away): the
   * primary tells readers nothing when a table goes, so each full listing sweeps, and a table directory that
   * now holds another table (a new id) replaces its predecessor's entries when it is first read.
   */
  private forgetTablesOtherThan(liveDirs: ReadonlySet<string>): void {
    for (const [key, meta] of this.metaCache) {
      if (!liveDirs.has(key.slice(0, key.lastIndexOf('#')))) this.forgetTable(key, meta.tableId);
    }
  }

  private forgetTable(metaKey: string, tableId: number): void {
    this.metaCache.delete(metaKey);
    this.txnViews.delete(metaKey.slice(0, metaKey.lastIndexOf('#')));
    this.symbolCache.forget(`${tableId}:`);
  }

  /** The stored spelling of a table name, matched case-insensitively; undefined when absent. */
  resolveName(name: string): string | undefined {
    // A name that could not have been created (`a/../../x`) must not reach the file system either.
    if (!isValidTableName(name)) return undefined;
    if (isTableDirName(name) && fs.existsSync(join(this.dbDir, name, '_txn'))) return name;
    const lower = name.toLowerCase();
    return this.listTableNames().find((candidate) => candidate.toLowerCase() === lower);
  }

  /**
   * Reads a consistent (_meta, _txn) pair; retries when an ALTER lands between the two reads. A burst of ALTERs
   * (ILP clients adding columns one commit after another) can outrun a tight retry loop, so later attempts wait a
   * little longer each time: about 90 ms in all before giving up.
   */
  openSnapshot(storedName: string): TableSnapshot | undefined {
    const dir = join(this.dbDir, storedName);
    for (let attempt = 0; attempt < SNAPSHOT_ATTEMPTS; attempt++) {
      if (attempt >= SNAPSHOT_TIGHT_ATTEMPTS) sleepSync(Math.min(8, 0.25 * 2 ** (attempt - SNAPSHOT_TIGHT_ATTEMPTS)));
      let txnBytes: Buffer;
      try {
        txnBytes = fs.readFileSync(join(dir, '_txn'));
      } catch {
        return undefined;
      }
      const shared = this.sharedTxnViews(dir, txnBytes);
      const meta = this.readMeta(dir, shared.txn.tableId, shared.txn.structureVersion);
      if (meta !== undefined) return new TableSnapshot(dir, meta, shared.txn, this.symbolCache, undefined, undefined, shared.views);
    }
    throw new StorageError(`table metadata keeps changing while it is read [table=${storedName}]`);
  }

  /**
   * The table's committed txn as this process now reads it, undefined when the table is gone. While the _txn
   * bytes are unchanged the same object comes back (the one snapshots of those bytes hold), so a caller can tell
   * by identity that nothing was committed, altered, dropped or re-created since a snapshot was opened.
   */
  currentTxn(storedName: string): TxnState | undefined {
    const dir = join(this.dbDir, storedName);
    let txnBytes: Buffer;
    try {
      txnBytes = fs.readFileSync(join(dir, '_txn'));
    } catch {
      return undefined;
    }
    return this.sharedTxnViews(dir, txnBytes).txn;
  }

  /** The newest txn this process has read of the table, without reading _txn again; undefined when none is held. */
  lastReadTxn(storedName: string): TxnState | undefined {
    return this.txnViews.get(join(this.dbDir, storedName))?.txn;
  }

  /** The decoded txn and its shared column mappings; the same bytes as last time reuse both. */
  private sharedTxnViews(dir: string, txnBytes: Buffer): TxnViews {
    const cached = this.txnViews.get(dir);
    if (cached !== undefined && cached.bytes.equals(txnBytes)) return cached;
    const fresh: TxnViews = { bytes: txnBytes, txn: decodeTxn(txnBytes, dir), views: new Map<string, ColumnView>() };
    this.txnViews.set(dir, fresh);
    return fresh;
  }

  private readMeta(dir: string, tableId: number, structureVersion: number): TableMeta | undefined {
    const key = `${dir}#${tableId}`;
    const cached = this.metaCache.get(key);
    if (cached !== undefined && cached.structureVersion === structureVersion) return cached;
    let meta: TableMeta;
    try {
      meta = decodeTableMeta(fs.readFileSync(join(dir, '_meta')), dir);
    } catch {
      return undefined;
    }
    if (meta.tableId !== tableId || meta.structureVersion !== structureVersion) return undefined;
    for (const [other, previous] of this.metaCache) {
      if (other !== key && other.startsWith(`${dir}#`)) this.forgetTable(other, previous.tableId);
    }
    this.metaCache.set(key, meta);
    return meta;
  }
}
