// Metadata table functions and SHOW statements, with QuestDB's column names and types: tables(),
// table_columns('t') / SHOW COLUMNS, table_partitions('t') / SHOW PARTITIONS, SHOW TABLES, SHOW CREATE TABLE and
// the small session SHOWs. Rows are built from the catalog when the query runs, not when it compiles.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../storage/catalog.js';
import type { TableMeta } from '../../storage/table-meta.js';
import type { ValuesPlan } from '../plan/logical-plan.js';
import { valuesPlan } from '../plan/plan-builders.js';
import type { CellValue } from '../plan/plan-specs.js';
import { typeDisplayName } from '../../types/column-type.js';
import { sqlSemanticError } from '../../core/errors.js';
import { PG_SERVER_VERSION } from '../../types/pg-types.js';

/** QuestDB's default bitmap index block capacity (cairo.index.value.block.size). */
const DEFAULT_INDEX_CAPACITY = 256;

function resolveTable(catalog: Catalog, table: string, position: number): string {
  const stored = catalog.resolveName(table);
  if (stored === undefined) throw sqlSemanticError(`table does not exist [table=${table}]`, position);
  return stored;
}

function metaOf(catalog: Catalog, stored: string): TableMeta | undefined {
  return catalog.openSnapshot(stored)?.meta;
}

export function tablesRelation(catalog: Catalog): ValuesPlan {
  const columns = [
    { name: 'id', type: 'INT' }, { name: 'table_name', type: 'STRING' }, { name: 'designatedTimestamp', type: 'STRING' },
    { name: 'partitionBy', type: 'STRING' }, { name: 'walEnabled', type: 'BOOLEAN' }, { name: 'dedup', type: 'BOOLEAN' },
    { name: 'ttlValue', type: 'INT' }, { name: 'ttlUnit', type: 'STRING' }, { name: 'matView', type: 'BOOLEAN' },
    { name: 'directoryName', type: 'STRING' }, { name: 'maxUncommittedRows', type: 'INT' }, { name: 'o3MaxLag', type: 'LONG' },
  ] as const;
  return valuesPlan(columns, () => catalog.listTableNames().flatMap((name): CellValue[][] => {
    const meta = metaOf(catalog, name);
    if (meta === undefined) return [];
    const timestamp = meta.timestampIndex >= 0 ? (meta.columns[meta.timestampIndex]?.name ?? null) : null;
    return [[
      meta.tableId, meta.name, timestamp, meta.partitionBy, meta.walEnabled, meta.dedupKeys.length > 0,
      meta.ttl?.value ?? 0, meta.ttl?.unit ?? 'HOUR', false, name, meta.maxUncommittedRows, meta.o3MaxLagMs * 1000,
    ]];
  }), 'tables()');
}

export function showTablesRelation(catalog: Catalog): ValuesPlan {
  return valuesPlan([{ name: 'table_name', type: 'STRING' }], () => catalog.listTableNames().map((name) => [name]), 'show tables');
}

export function tableColumnsRelation(catalog: Catalog, table: string, position: number): ValuesPlan {
  const stored = resolveTable(catalog, table, position);
  const columns = [
    { name: 'column', type: 'STRING' }, { name: 'type', type: 'STRING' }, { name: 'indexed', type: 'BOOLEAN' },
    { name: 'indexBlockCapacity', type: 'INT' }, { name: 'symbolCached', type: 'BOOLEAN' }, { name: 'symbolCapacity', type: 'INT' },
    { name: 'designated', type: 'BOOLEAN' }, { name: 'upsertKey', type: 'BOOLEAN' },
  ] as const;
  return valuesPlan(columns, () => {
    const meta = metaOf(catalog, stored);
    if (meta === undefined) return [];
    return meta.columns.map((column, k): CellValue[] => {
      const symbol = column.type === 'SYMBOL';
      return [
        column.name, typeDisplayName(column.type), column.indexed, column.indexed ? (column.indexCapacity ?? DEFAULT_INDEX_CAPACITY) : 0,
        symbol && column.symbolCached !== false, symbol ? column.symbolCapacity : 0, k === meta.timestampIndex, meta.dedupKeys.includes(column.name),
      ];
    });
  }, `table_columns('${stored}')`);
}

/** Bytes of the files directly inside a directory (a partition's column files). */
function directoryBytes(dir: string): number {
  try {
    return readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}

/** Size as QuestDB's size_pretty prints it: one decimal and a binary unit (`96.0 KiB`). */
export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export function tablePartitionsRelation(catalog: Catalog, table: string, position: number): ValuesPlan {
  const stored = resolveTable(catalog, table, position);
  const columns = [
    { name: 'index', type: 'INT' }, { name: 'partitionBy', type: 'STRING' }, { name: 'name', type: 'STRING' },
    { name: 'minTimestamp', type: 'TIMESTAMP' }, { name: 'maxTimestamp', type: 'TIMESTAMP' }, { name: 'numRows', type: 'LONG' },
    { name: 'diskSize', type: 'LONG' }, { name: 'diskSizeHuman', type: 'STRING' }, { name: 'readOnly', type: 'BOOLEAN' },
    { name: 'active', type: 'BOOLEAN' }, { name: 'attached', type: 'BOOLEAN' }, { name: 'detached', type: 'BOOLEAN' },
    { name: 'attachable', type: 'BOOLEAN' }, { name: 'isParquet', type: 'BOOLEAN' }, { name: 'parquetFileSize', type: 'LONG' },
    { name: 'isRemotelyServed', type: 'BOOLEAN' },
  ] as const;
  return valuesPlan(columns, () => {
    const snapshot = catalog.openSnapshot(stored);
    if (snapshot === undefined) return [];
    const hasTimestamp = snapshot.meta.timestampIndex >= 0;
    const last = snapshot.partitions.length - 1;
    return snapshot.partitions.map((partition, k): CellValue[] => {
      const entry = partition.entry;
      const bytes = directoryBytes(partition.dir);
      return [
        k, snapshot.meta.partitionBy, entry.name, hasTimestamp ? entry.minTimestamp : null, hasTimestamp ? entry.maxTimestamp : null,
        entry.rowCount, bytes, humanSize(bytes), false, k === last, true, false, false,
        // QuestDB reports -1 as the Parquet size of a native partition.
        entry.parquetBytes !== undefined, entry.parquetBytes ?? -1,
        // Served from the object store: the local copy was dropped (only footer.parquet is left).
        entry.cold?.local === false,
      ];
    });
  }, `table_partitions('${stored}')`);
}

export function showCreateTableRelation(catalog: Catalog, table: string, position: number): ValuesPlan {
  const stored = resolveTable(catalog, table, position);
  return valuesPlan([{ name: 'ddl', type: 'VARCHAR' }], () => {
    const meta = metaOf(catalog, stored);
    return meta === undefined ? [] : [[createTableText(meta)]];
  }, `show_create_table of: ${stored}`);
}

/** The DDL QuestDB prints for SHOW CREATE TABLE (ShowCreateTableRecordCursorFactory's layout). */
export function createTableText(meta: TableMeta): string {
  const columns = meta.columns.map((column) => {
    let text = `\t${column.name} ${typeDisplayName(column.type)}`;
    if (column.type === 'SYMBOL') {
      text += ` CAPACITY ${column.symbolCapacity} ${column.symbolCached === false ? 'NOCACHE' : 'CACHE'}`;
      if (column.indexed) text += ` INDEX CAPACITY ${column.indexCapacity ?? DEFAULT_INDEX_CAPACITY}`;
    }
    return text;
  });
  let text = `CREATE TABLE '${meta.name}' ( \n${columns.join(',\n')}\n)`;
  const timestamp = meta.columns[meta.timestampIndex];
  if (timestamp !== undefined) {
    text += ` timestamp(${timestamp.name}) PARTITION BY ${meta.partitionBy}`;
    if (meta.ttl !== undefined) text += ` TTL ${meta.ttl.value} ${meta.ttl.unit}${meta.ttl.value > 1 ? 'S' : ''}`;
    text += meta.walEnabled ? ' WAL' : ' BYPASS WAL';
  }
  text += `\nWITH maxUncommittedRows=${meta.maxUncommittedRows}, o3MaxLag=${meta.o3MaxLagMs * 1000}us`;
  if (meta.dedupKeys.length > 0) text += `\nDEDUP UPSERT KEYS(${meta.dedupKeys.join(',')})`;
  return `${text};`;
}

/** SHOW server_version / SHOW TIME ZONE / SHOW PARAMETERS: the fixed answers PostgreSQL tools ask for. */
export function showSettingRelation(what: 'serverVersion' | 'timeZone' | 'parameters'): ValuesPlan {
  switch (what) {
    case 'serverVersion': return valuesPlan([{ name: 'server_version', type: 'STRING' }], () => [[PG_SERVER_VERSION]], 'show server_version');
    case 'timeZone': return valuesPlan([{ name: 'TimeZone', type: 'STRING' }], () => [['UTC']], 'show time zone');
    case 'parameters': return valuesPlan([
      { name: 'property_path', type: 'STRING' }, { name: 'env_var_name', type: 'STRING' }, { name: 'value', type: 'STRING' },
      { name: 'value_source', type: 'STRING' }, { name: 'sensitive', type: 'BOOLEAN' }, { name: 'reloadable', type: 'BOOLEAN' },
    ], () => [], 'show parameters');
  }
}
