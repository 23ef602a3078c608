// CREATE / DROP / TRUNCATE / RENAME / ALTER TABLE in the primary: validation with QuestDB's messages and
// positions, then the structural change through the engine and table writer.
import type { AlterTableStatement, ColumnDef, CreateTableStatement, Name } from '../sql/compiler.js';
import type { ColumnMeta, TableMeta } from '../storage/table-meta.js';
import { findColumnIndex } from '../storage/table-meta.js';
import type { Engine } from './engine.js';
import type { ColumnType } from '../types/column-type.js';
import { parseColumnType } from '../types/column-type.js';
import { bindQueryExpr, createSourceEnv } from '../sql/compiler.js';
import type { QueryFactory } from '../sql/compiler.js';
import { sqlSemanticError } from '../core/errors.js';

const TABLE_NAME_FORBIDDEN = /[\u0000/\\:*?"<>|~]|^\.|\.\.|^\s|\s$/;

function checkTableName(name: Name): void {
  if (name.name.length === 0 || TABLE_NAME_FORBIDDEN.test(name.name) || name.name.length > 127) {
    throw sqlSemanticError(`invalid table name [table=${name.name}]`, name.position);
  }
}

function columnMeta(name: string, type: ColumnType, stem: string, def?: ColumnDef): ColumnMeta {
  return { name, type, fileStem: stem, indexed: def?.indexed === true, symbolCapacity: def?.symbolCapacity ?? 256 };
}

function uniqueStem(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_$-]/g, '_') || 'col';
  let stem = base;
  for (let k = 1; taken.has(stem.toLowerCase()); k++) stem = `${base}.${k}`;
  taken.add(stem.toLowerCase());
  return stem;
}

function columnsFromDefs(defs: readonly ColumnDef[]): ColumnMeta[] {
  const seen = new Set<string>();
  const stems = new Set<string>();
  return defs.map((def) => {
    const lower = def.name.name.toLowerCase();
    if (seen.has(lower)) throw sqlSemanticError(`Duplicate column [name=${def.name.name}]`, def.name.position);
    seen.add(lower);
    const type = parseColumnType(def.typeName);
    if (type === undefined) throw sqlSemanticError(`unsupported column type: ${def.typeName}`, def.typePosition);
    return columnMeta(def.name.name, type, uniqueStem(def.name.name, stems), def);
  });
}

function columnsFromQuery(factory: QueryFactory): ColumnMeta[] {
  const stems = new Set<string>();
  return factory.columns.map((column) => columnMeta(column.name, column.type === 'NULL' ? 'STRING' : column.type, uniqueStem(column.name, stems)));
}

/** Creates the table; returns the query of CREATE ... AS SELECT so the caller can insert its rows. */
export function executeCreateTable(statement: CreateTableStatement, engine: Engine): { created: boolean; query?: QueryFactory } {
  checkTableName(statement.table);
  if (engine.catalog.resolveName(statement.table.name) !== undefined) {
    if (statement.ifNotExists) return { created: false };
    throw sqlSemanticError('table already exists', statement.table.position);
  }
  const query = statement.asSelect === undefined ? undefined : bindQueryExpr(statement.asSelect, createSourceEnv(engine.catalog));
  const columns = query === undefined ? columnsFromDefs(statement.columns) : columnsFromQuery(query);
  let timestampIndex = -1;
  if (statement.timestamp !== undefined) {
    timestampIndex = columns.findIndex((column) => column.name.toLowerCase() === statement.timestamp?.name.toLowerCase());
    if (timestampIndex < 0) throw sqlSemanticError(`Invalid column: ${statement.timestamp.name}`, statement.timestamp.position);
    if (columns[timestampIndex]?.type !== 'TIMESTAMP') throw sqlSemanticError('TIMESTAMP column expected', statement.timestamp.position);
  }
  const partitionBy = statement.partitionBy?.unit ?? 'NONE';
  if (partitionBy !== 'NONE' && timestampIndex < 0) {
    throw sqlSemanticError('partitioning is possible only on tables with designated timestamps', statement.partitionBy?.position ?? statement.position);
  }
  const options = engine.options;
  const meta: TableMeta = {
    formatVersion: 1, tableId: engine.allocateTableId(), name: statement.table.name, columns, timestampIndex, partitionBy,
    walEnabled: statement.wal ?? partitionBy !== 'NONE', structureVersion: 0, maxUncommittedRows: options.uncommittedRowsMax,
    o3MaxLagMs: options.o3LagMaxMs, dedupKeys: (statement.dedupKeys ?? []).map((key) => key.name),
  };
  engine.createTable(meta);
  return query === undefined ? { created: true } : { created: true, query };
}

export function executeAlterTable(statement: AlterTableStatement, engine: Engine): void {
  const stored = engine.catalog.resolveName(statement.table.name);
  const writer = stored === undefined ? undefined : engine.writer(stored);
  if (writer === undefined) throw sqlSemanticError(`table does not exist [table=${statement.table.name}]`, statement.table.position);
  const meta = writer.meta;
  const action = statement.action;
  let columns: ColumnMeta[] = [...meta.columns];
  switch (action.kind) {
    case 'addColumn': {
      const stems = new Set(columns.map((column) => column.fileStem.toLowerCase()));
      for (const def of action.columns) {
        if (findColumnIndex({ ...meta, columns }, def.name.name) >= 0) {
          if (action.ifNotExists) continue;
          throw sqlSemanticError(`Duplicate column [name=${def.name.name}]`, def.name.position);
        }
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
        if (columns[index]?.name === meta.columns[meta.timestampIndex]?.name) throw sqlSemanticError('cannot remove designated timestamp column', name.position);
        columns = columns.filter((_, k) => k !== index);
      }
      break;
    case 'renameColumn': {
      const index = findColumnIndex(meta, action.from.name);
      if (index < 0) throw sqlSemanticError(`Invalid column: ${action.from.name}`, action.from.position);
      if (findColumnIndex(meta, action.to.name) >= 0) throw sqlSemanticError(`Duplicate column [name=${action.to.name}]`, action.to.position);
      columns[index] = { ...(columns[index] as ColumnMeta), name: action.to.name };
      break;
    }
    case 'setParam': case 'dedup': case 'other':
      return;
    default:
      throw sqlSemanticError('this ALTER TABLE form is not supported yet', action.position);
  }
  const timestampName = meta.columns[meta.timestampIndex]?.fileStem;
  const timestampIndex = timestampName === undefined ? -1 : columns.findIndex((column) => column.fileStem === timestampName);
  writer.replaceMeta({ ...meta, columns, timestampIndex, structureVersion: meta.structureVersion + 1 });
}
