// CREATE TABLE and ALTER TABLE in the primary: validation with QuestDB's messages and positions, then the
// structural change through the engine and table writer. Structure changes publish a new _meta version;
// data changes (ALTER COLUMN TYPE, DROP PARTITION) are written aside and swapped in by one _txn.
import { isDesignatedTimestampType } from '../types/timestamp-ns.js';
import type { AlterTableStatement, ColumnDef, CreateTableStatement, Name } from '../sql/compiler.js';
import type { ColumnMeta, TableMeta } from '../storage/table-meta.js';
import { findColumnIndex } from '../storage/table-meta.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { Engine } from './engine.js';
import type { ColumnType } from '../types/column-type.js';
import { parseColumnType } from '../types/column-type.js';
import { bindCreateTableQuery, createSourceEnv } from '../sql/compiler.js';
import type { QueryFactory } from '../sql/compiler.js';
import { applySettings, dedupKeyNames } from './ddl-table-settings.js';
import { alterColumnType } from './ddl-column-type.js';
import { convertPartitions, dropPartitions } from './ddl-partitions.js';
import { sqlSemanticError } from '../core/errors.js';
import { checkTableName } from './table-name.js';
import { uniqueStem } from './column-stems.js';
import { GEOHASH_ARGUMENT_OFFSET, geohashTypeNameError } from '../types/geohash.js';
import { applyPolicyAction, policyOfCreate } from './storage-policy.js';

/** QuestDB's cairo.default.symbol.capacity. */
const DEFAULT_SYMBOL_CAPACITY = 256;

function columnMeta(name: string, type: ColumnType, stem: string, def?: ColumnDef): ColumnMeta {
  const base: ColumnMeta = { name, type, fileStem: stem, indexed: def?.indexed === true, symbolCapacity: def?.symbolCapacity ?? DEFAULT_SYMBOL_CAPACITY };
  return {
    ...base,
    ...(def?.cached === undefined ? {} : { symbolCached: def.cached }),
    ...(def?.indexCapacity === undefined ? {} : { indexCapacity: def.indexCapacity }),
  };
}

function columnsFromDefs(defs: readonly ColumnDef[]): ColumnMeta[] {
  const seen = new Set<string>();
  const stems = new Set<string>();
  return defs.map((def) => {
    const lower = def.name.name.toLowerCase();
    if (seen.has(lower)) throw sqlSemanticError(`Duplicate column [name=${def.name.name}]`, def.name.position);
    seen.add(lower);
    const type = parseColumnType(def.typeName);
    const geohashError = geohashTypeNameError(def.typeName);
    if (geohashError !== undefined) throw sqlSemanticError(geohashError, def.typePosition + GEOHASH_ARGUMENT_OFFSET);
    if (type === undefined) throw sqlSemanticError(`unsupported column type: ${def.typeName}`, def.typePosition);
    return columnMeta(def.name.name, type, uniqueStem(def.name.name, stems), def);
  });
}

/** CTAS columns: the query's names and types, with CAST(col AS type) and INDEX(col) applied. */
function columnsFromQuery(factory: QueryFactory, statement: CreateTableStatement): ColumnMeta[] {
  const stems = new Set<string>();
  const columns = factory.columns.map((column) => {
    if (column.type === 'INTERVAL') throw sqlSemanticError('cannot create a column of INTERVAL type', 0);
    return columnMeta(column.name, column.type === 'NULL' ? 'STRING' : column.type, uniqueStem(column.name, stems));
  });
  const indexOf = (name: Name): number => {
    const index = columns.findIndex((column) => column.name.toLowerCase() === name.name.toLowerCase());
    if (index < 0) throw sqlSemanticError(`Invalid column: ${name.name}`, name.position);
    return index;
  };
  for (const cast of statement.casts ?? []) {
    const type = parseColumnType(cast.typeName);
    if (type === undefined) throw sqlSemanticError(`unsupported column type: ${cast.typeName}`, cast.typePosition);
    const index = indexOf(cast.column);
    columns[index] = { ...columns[index], type };
  }
  for (const index of statement.indexes ?? []) {
    const k = indexOf(index.column);
    columns[k] = { ...columns[k], indexed: true, ...(index.capacity === undefined ? {} : { indexCapacity: index.capacity }) };
  }
  return columns;
}

/** Creates the table; returns the query of CREATE ... AS SELECT so the caller can insert its rows. */
export function executeCreateTable(statement: CreateTableStatement, engine: Engine): { created: boolean; query?: QueryFactory } {
  checkTableName(statement.table);
  if (engine.catalog.resolveName(statement.table.name) !== undefined) {
    if (statement.ifNotExists) return { created: false };
    throw sqlSemanticError('table already exists', statement.table.position);
  }
  const like = statement.like === undefined ? undefined : likeTable(statement.like, engine);
  const query = bindCreateTableQuery(statement, createSourceEnv(engine.catalog));
  const columns = like?.columns.slice() ?? (query === undefined ? columnsFromDefs(statement.columns) : columnsFromQuery(query, statement));
  let timestampIndex = like?.timestampIndex ?? -1;
  if (statement.timestamp !== undefined) {
    timestampIndex = columns.findIndex((column) => column.name.toLowerCase() === statement.timestamp?.name.toLowerCase());
    if (timestampIndex < 0) throw sqlSemanticError(`Invalid column: ${statement.timestamp.name}`, statement.timestamp.position);
    if (!isDesignatedTimestampType(columns[timestampIndex]?.type)) throw sqlSemanticError('TIMESTAMP column expected', statement.timestamp.position);
  }
  const partitionBy = statement.partitionBy?.unit ?? like?.partitionBy ?? 'NONE';
  if (partitionBy !== 'NONE' && timestampIndex < 0) {
    throw sqlSemanticError('partitioning is possible only on tables with designated timestamps', statement.partitionBy?.position ?? statement.position);
  }
  const options = engine.options;
  const dedupKeys = statement.dedupKeys === undefined ? (like?.dedupKeys ?? []) : dedupKeyNames({ columns, timestampIndex }, statement.dedupKeys, statement.position);
  const base: TableMeta = {
    formatVersion: 1, tableId: engine.allocateTableId(), name: statement.table.name, columns, timestampIndex, partitionBy,
    walEnabled: statement.wal ?? like?.walEnabled ?? partitionBy !== 'NONE', structureVersion: 0,
    maxUncommittedRows: like?.maxUncommittedRows ?? options.uncommittedRowsMax, o3MaxLagMs: like?.o3MaxLagMs ?? options.o3LagMaxMs, dedupKeys,
    ...(statement.ttl === undefined ? {} : { ttl: { value: statement.ttl.value, unit: statement.ttl.unit } }),
    ...(statement.storagePolicy === undefined ? {} : { storagePolicy: policyOfCreate({ partitionBy, name: statement.table.name }, statement.storagePolicy) }),
  };
  engine.createTable(applySettings(base, statement.settings));
  return query === undefined ? { created: true } : { created: true, query };
}

function likeTable(name: Name, engine: Engine): TableMeta {
  const stored = engine.catalog.resolveName(name.name);
  const writer = stored === undefined ? undefined : engine.writer(stored);
  if (writer === undefined) throw sqlSemanticError(`table does not exist [table=${name.name}]`, name.position);
  return writer.meta;
}

export function executeAlterTable(statement: AlterTableStatement, engine: Engine, nowMicros: number): void {
  const stored = engine.catalog.resolveName(statement.table.name);
  const writer = stored === undefined ? undefined : engine.writer(stored);
  if (writer === undefined) throw sqlSemanticError(`table does not exist [table=${statement.table.name}]`, statement.table.position);
  const meta = writer.meta;
  const action = statement.action;
  switch (action.kind) {
    case 'addColumn': case 'dropColumn': case 'renameColumn':
      alterColumns(writer, action);
      return;
    case 'alterColumnType': {
      if (writer.txn.partitions.some((entry) => entry.parquetBytes !== undefined)) {
        throw sqlSemanticError(`cannot change a column type while partitions are in Parquet; convert them to native first [table=${meta.name}]`, action.position);
      }
      const stems = new Set(meta.columns.map((column) => column.fileStem.toLowerCase()));
      alterColumnType(writer, action, engine, uniqueStem(`${action.column.name}.${meta.structureVersion + 1}`, stems));
      return;
    }
    case 'dropPartition':
      dropPartitions(writer, action, nowMicros);
      return;
    case 'convertPartition':
      convertPartitions(writer, action, nowMicros, engine.options.parquetEncoder);
      return;
    case 'storagePolicy':
      writer.replaceMeta(applyPolicyAction(meta, action));
      return;
    case 'coldPartition':
      // Moves to the object store are asynchronous: the writer service hands them to the cold storage manager.
      throw sqlSemanticError('cold storage is not configured (cold.storage.object.store)', action.position);
    case 'setParam':
      writer.replaceMeta({ ...applySettings(meta, action.settings), structureVersion: meta.structureVersion + 1 });
      return;
    case 'dedup': {
      const dedupKeys = action.enable ? dedupKeyNames(meta, action.keys, action.position) : [];
      writer.replaceMeta({ ...meta, dedupKeys, structureVersion: meta.structureVersion + 1 });
      return;
    }
    case 'other':
      // Index, cache, capacity, TTL, WAL-type and partition attach/detach forms are accepted without effect.
      return;
  }
}

type ColumnAction = Extract<AlterTableStatement['action'], { kind: 'addColumn' | 'dropColumn' | 'renameColumn' }>;

/** ADD / DROP / RENAME COLUMN: a new column list; data files are keyed by stem, so nothing is rewritten. */
function alterColumns(writer: TableWriter, action: ColumnAction): void {
  const meta = writer.meta;
  let columns: ColumnMeta[] = [...meta.columns];
  let dedupKeys = [...meta.dedupKeys];
  const timestampStem = meta.columns[meta.timestampIndex]?.fileStem;
  switch (action.kind) {
    case 'addColumn': {
      const stems = new Set(columns.map((column) => column.fileStem.toLowerCase()));
      for (const def of action.columns) {
        if (findColumnIndex({ ...meta, columns }, def.name.name) >= 0) {
          if (action.ifNotExists) continue;
          throw sqlSemanticError(`Duplicate column [name=${def.name.name}]`, def.name.position);
        }
        const geohashError = geohashTypeNameError(def.typeName);
        if (geohashError !== undefined) throw sqlSemanticError(geohashError, def.typePosition + GEOHASH_ARGUMENT_OFFSET);
        const type = parseColumnType(def.typeName);
        if (type === undefined) throw sqlSemanticError(`unsupported column type: ${def.typeName}`, def.typePosition);
        // A fresh stem per structure version: files of a dropped column of the same name are never read again.
        columns.push(columnMeta(def.name.name, type, uniqueStem(`${def.name.name}.${meta.structureVersion + 1}`, stems), def));
      }
      break;
    }
    case 'dropColumn':
      for (const name of action.columns) {
        const index = findColumnIndex({ ...meta, columns }, name.name);
        if (index < 0) throw sqlSemanticError(`Invalid column: ${name.name}`, name.position);
        if (columns[index]?.fileStem === timestampStem) throw sqlSemanticError('cannot remove designated timestamp column', name.position);
        dedupKeys = dedupKeys.filter((key) => key !== columns[index]?.name);
        columns = columns.filter((_, k) => k !== index);
      }
      break;
    case 'renameColumn': {
      const index = findColumnIndex(meta, action.from.name);
      if (index < 0) throw sqlSemanticError(`Invalid column: ${action.from.name}`, action.from.position);
      if (findColumnIndex(meta, action.to.name) >= 0) throw sqlSemanticError(`Duplicate column [name=${action.to.name}]`, action.to.position);
      const old = columns[index];
      dedupKeys = dedupKeys.map((key) => (key === old.name ? action.to.name : key));
      columns[index] = { ...old, name: action.to.name };
      break;
    }
  }
  const timestampIndex = timestampStem === undefined ? -1 : columns.findIndex((column) => column.fileStem === timestampStem);
  writer.replaceMeta({ ...meta, columns, timestampIndex, dedupKeys, structureVersion: meta.structureVersion + 1 });
}
