// ALTER TABLE t ALTER COLUMN c TYPE T: converts every committed value with the INSERT coercion rules
// (numeric widening/narrowing as CAST does, anything to STRING/VARCHAR/SYMBOL, text parsed back, with
// inconvertible text becoming NULL as QuestDB documents). The converted column is written under a new file
// stem into the existing partition directories, invisible to readers until replaceMeta publishes the new
// structure in one _txn; readers pinned at the old structure keep reading the old stem.
import { join } from 'node:path';
import type { AlterTableStatement, Vector } from '../sql/compiler.js';
import type { ColumnMeta } from '../storage/table-meta.js';
import { findColumnIndex } from '../storage/table-meta.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData } from '../storage/row-chunk.js';
import { varValueAsString } from '../storage/row-chunk.js';
import { appendColumn, nullColumnData, readPartitionChunk } from '../storage/column-files.js';
import { SymbolDictionaryWriter } from '../storage/symbol-dictionary.js';
import { partitionDirName } from '../storage/txn-file.js';
import type { Engine } from './engine.js';
import type { ColumnType } from '../types/column-type.js';
import { parseColumnType, typeDisplayName } from '../types/column-type.js';
import { isArrayType } from '../types/double-array.js';
import { encodeColumn } from './encode-batch.js';
import { columnVector, symbolTexts } from './partition-rows.js';
import { SqlError, sqlSemanticError } from '../core/errors.js';

type AlterColumnType = Extract<AlterTableStatement['action'], { kind: 'alterColumnType' }>;

function validate(writer: TableWriter, action: AlterColumnType): { index: number; target: ColumnType } {
  const meta = writer.meta;
  const index = findColumnIndex(meta, action.column.name);
  if (index < 0) throw sqlSemanticError(`Invalid column: ${action.column.name}`, action.column.position);
  const column = meta.columns[index];
  if (index === meta.timestampIndex) throw sqlSemanticError('cannot change type of designated timestamp column', action.column.position);
  const target = parseColumnType(action.typeName);
  if (target === undefined) throw sqlSemanticError(`unsupported column type: ${action.typeName}`, action.typePosition);
  if (target === column.type) throw sqlSemanticError(`column '${column.name}' type is already '${typeDisplayName(target)}'`, action.typePosition);
  if (column.type === 'BINARY' || target === 'BINARY' || isArrayType(column.type) || isArrayType(target)) {
    throw sqlSemanticError(`incompatible column type change [existing=${typeDisplayName(column.type)}, new=${typeDisplayName(target)}]`, action.typePosition);
  }
  // Checks convertibility of the types themselves before any file is written.
  encodeColumn({ type: column.type, data: [] }, 0, target, action.typePosition);
  return { index, target };
}

/** Converts one partition's values; text that does not parse becomes NULL instead of failing the ALTER. */
function convert(vector: Vector, rowCount: number, target: ColumnType, position: number): ColumnData {
  try {
    return encodeColumn(vector, rowCount, target, position);
  } catch (error) {
    if (!(error instanceof SqlError)) throw error;
  }
  const parts: ColumnData[] = [];
  for (let row = 0; row < rowCount; row++) {
    const single: Vector = { type: vector.type, data: vector.data.slice(row, row + 1) as Vector['data'], ...(vector.symbols === undefined ? {} : { symbols: vector.symbols }) };
    try {
      parts.push(encodeColumn(single, 1, target, position));
    } catch (error) {
      if (!(error instanceof SqlError)) throw error;
      parts.push(nullColumnData(target, 1));
    }
  }
  return joinRows(parts, target);
}

function joinRows(parts: readonly ColumnData[], target: ColumnType): ColumnData {
  if (parts.length === 0) return nullColumnData(target, 0);
  const first = parts[0];
  if (first.kind === 'fixed') return { kind: 'fixed', width: first.width, bytes: Buffer.concat(parts.map((part) => part.bytes)) };
  const offsets = new Float64Array(parts.length + 1);
  let position = 0;
  parts.forEach((part, k) => {
    offsets[k] = position;
    position += part.bytes.length;
  });
  offsets[parts.length] = position;
  return { kind: 'var', bytes: Buffer.concat(parts.map((part) => part.bytes)), offsets };
}

/** SYMBOL targets store keys: text records are resolved through the new column's own dictionary. */
function symbolKeys(data: ColumnData, rowCount: number, dictionary: SymbolDictionaryWriter): ColumnData {
  if (data.kind === 'fixed') return data;
  const keys = Buffer.allocUnsafe(rowCount * 4);
  for (let row = 0; row < rowCount; row++) {
    const text = varValueAsString(data, row);
    keys.writeInt32LE(text === null ? -1 : dictionary.keyOf(text), row * 4);
  }
  return { kind: 'fixed', width: 4, bytes: keys };
}

export function alterColumnType(writer: TableWriter, action: AlterColumnType, engine: Engine, stem: string): void {
  const { index, target } = validate(writer, action);
  const meta = writer.meta;
  const old = meta.columns[index];
  const converted: ColumnMeta = { ...old, type: target, fileStem: stem, indexed: false };
  const files = engine.options.files;
  const session = { files, durable: engine.options.commitMode === 'sync' };
  const dictionary = target === 'SYMBOL' ? new SymbolDictionaryWriter(files, writer.dir, stem, 0) : undefined;
  const texts = old.type === 'SYMBOL' ? symbolTexts(writer, index) : undefined;
  for (const entry of writer.txn.partitions) {
    const dir = join(writer.dir, partitionDirName(entry));
    const chunk = readPartitionChunk(files, dir, [old], entry.rowCount);
    const vector = columnVector(chunk.columns[0], old.type, entry.rowCount, texts);
    let data = convert(vector, entry.rowCount, target, action.typePosition);
    if (dictionary !== undefined) data = symbolKeys(data, entry.rowCount, dictionary);
    appendColumn(session, dir, converted, data, 0);
  }
  dictionary?.flush(session.durable);
  const columns = meta.columns.map((column, k) => (k === index ? converted : column));
  const counts = new Map<string, number>(dictionary === undefined ? [] : [[stem, dictionary.count]]);
  writer.replaceMeta({ ...meta, columns, structureVersion: meta.structureVersion + 1 }, counts);
}
