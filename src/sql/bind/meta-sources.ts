// Metadata table functions and SHOW statements: tables(), table_columns('t'), table_partitions('t'),
// SHOW TABLES / COLUMNS / PARTITIONS, built from the catalog at the moment the query runs.
import type { Catalog } from '../../storage/catalog.js';
import type { QueryFactory } from '../exec/operator.js';
import { MaterializedFactory } from '../exec/materialized.js';
import type { CellValue } from '../exec/materialized.js';
import { typeDisplayName } from '../../types/column-type.js';
import { sqlSemanticError } from '../../core/errors.js';

export function tablesFactory(catalog: Catalog): QueryFactory {
  const columns = [
    { name: 'id', type: 'INT' }, { name: 'table_name', type: 'STRING' }, { name: 'designatedTimestamp', type: 'STRING' },
    { name: 'partitionBy', type: 'STRING' }, { name: 'maxUncommittedRows', type: 'INT' }, { name: 'o3MaxLag', type: 'LONG' },
    { name: 'walEnabled', type: 'BOOLEAN' }, { name: 'directoryName', type: 'STRING' }, { name: 'dedup', type: 'BOOLEAN' },
  ] as const;
  return new MaterializedFactory(columns, () => catalog.listTableNames().flatMap((name): CellValue[][] => {
    const snapshot = catalog.openSnapshot(name);
    if (snapshot === undefined) return [];
    const meta = snapshot.meta;
    const timestamp = meta.timestampIndex >= 0 ? (meta.columns[meta.timestampIndex]?.name ?? null) : null;
    return [[meta.tableId, meta.name, timestamp, meta.partitionBy, meta.maxUncommittedRows, meta.o3MaxLagMs * 1000, meta.walEnabled, name, meta.dedupKeys.length > 0]];
  }), 'tables()');
}

export function showTablesFactory(catalog: Catalog): QueryFactory {
  return new MaterializedFactory([{ name: 'table_name', type: 'STRING' }], () => catalog.listTableNames().map((name) => [name]), 'show tables');
}

export function tableColumnsFactory(catalog: Catalog, table: string, position: number): QueryFactory {
  const stored = catalog.resolveName(table);
  if (stored === undefined) throw sqlSemanticError(`table does not exist [table=${table}]`, position);
  const columns = [
    { name: 'column', type: 'STRING' }, { name: 'type', type: 'STRING' }, { name: 'indexed', type: 'BOOLEAN' },
    { name: 'indexBlockCapacity', type: 'INT' }, { name: 'symbolCached', type: 'BOOLEAN' }, { name: 'symbolCapacity', type: 'INT' },
    { name: 'designated', type: 'BOOLEAN' }, { name: 'upsertKey', type: 'BOOLEAN' },
  ] as const;
  return new MaterializedFactory(columns, () => {
    const snapshot = catalog.openSnapshot(stored);
    if (snapshot === undefined) return [];
    const meta = snapshot.meta;
    return meta.columns.map((column, k): CellValue[] => [
      column.name, typeDisplayName(column.type), column.indexed, column.indexed ? 256 : 0, column.type === 'SYMBOL',
      column.type === 'SYMBOL' ? column.symbolCapacity : 0, k === meta.timestampIndex, meta.dedupKeys.includes(column.name),
    ]);
  }, `table_columns('${stored}')`);
}

export function tablePartitionsFactory(catalog: Catalog, table: string, position: number): QueryFactory {
  const stored = catalog.resolveName(table);
  if (stored === undefined) throw sqlSemanticError(`table does not exist [table=${table}]`, position);
  const columns = [
    { name: 'index', type: 'INT' }, { name: 'partitionBy', type: 'STRING' }, { name: 'name', type: 'STRING' },
    { name: 'minTimestamp', type: 'TIMESTAMP' }, { name: 'maxTimestamp', type: 'TIMESTAMP' }, { name: 'numRows', type: 'LONG' },
  ] as const;
  return new MaterializedFactory(columns, () => {
    const snapshot = catalog.openSnapshot(stored);
    if (snapshot === undefined) return [];
    const hasTimestamp = snapshot.meta.timestampIndex >= 0;
    return snapshot.txn.partitions.map((entry, k): CellValue[] => [
      k, snapshot.meta.partitionBy, entry.name, hasTimestamp ? entry.minTimestamp : null, hasTimestamp ? entry.maxTimestamp : null, entry.rowCount,
    ]);
  }, `table_partitions('${stored}')`);
}
