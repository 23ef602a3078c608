// Decides what each file column becomes: detected types overridden by the schema, then (when appending)
// mapped onto the existing table's columns and converted to their types, plus the designated timestamp.
// Table mapping follows QuestDB's CairoTextWriter: by name (case-insensitive), else by position; a file
// wider than the table is an error. svc differs where QuestDB would silently write two file columns into one
// table column: that is an error too.
import { isDesignatedTimestampType } from '../types/timestamp-ns.js';
import { isArrayType } from '../types/double-array.js';
import { ImportError } from '../core/errors.js';
import { typeDisplayName, type ColumnType } from '../types/column-type.js';
import { createColumnParser, type ColumnParser } from './column-parsers.js';
import type { DetectedColumn } from './detect-format.js';
import { sanitizeColumnName } from './import-names.js';
import type { ImportSchema, ImportSchemaColumn } from './schema-part.js';

export interface OutputColumn {
  readonly name: string;
  readonly type: ColumnType;
}

export interface ColumnPlan {
  /** The columns of every emitted batch, in order: the file's columns, or the existing table's. */
  readonly outputColumns: ReadonlyArray<OutputColumn>;
  /** Output column index of each file column. */
  readonly fileToOutput: Int32Array;
  /** Parser of each file column, producing its output column's type. */
  readonly parsers: ReadonlyArray<ColumnParser>;
  /** Output index of the designated timestamp, or -1. */
  readonly timestampIndex: number;
}

/** A file column after schema overrides, before table mapping. */
interface FileColumn {
  name: string;
  type: ColumnType;
  patterns: string[];
  /** The detected type, kept to know whether integers may be read as epoch values. */
  detectedType: ColumnType;
}

export interface ColumnPlanInput {
  readonly detected: ReadonlyArray<DetectedColumn>;
  readonly schema?: ImportSchema;
  readonly existingColumns?: ReadonlyArray<OutputColumn>;
  readonly timestampColumn?: string;
}

export function buildColumnPlan(input: ColumnPlanInput): ColumnPlan {
  const fileColumns = applySchema(input.detected, input.schema);
  return input.existingColumns === undefined
    ? planNewTable(fileColumns, input.timestampColumn)
    : planExistingTable(fileColumns, input.existingColumns, input.timestampColumn);
}

function findSchemaTarget(columns: FileColumn[], entry: ImportSchemaColumn): number {
  if (entry.name !== undefined) {
    const wanted = [entry.name.toLowerCase(), sanitizeColumnName(entry.name).toLowerCase()];
    const byName = columns.findIndex((c) => wanted.includes(c.name.toLowerCase()));
    if (byName >= 0) return byName;
  }
  return entry.index !== undefined && entry.index < columns.length ? entry.index : -1;
}

/** Schema entries override type and pattern of the file column they name; unknown names are ignored (QuestDB). */
function applySchema(detected: ReadonlyArray<DetectedColumn>, schema: ImportSchema | undefined): FileColumn[] {
  const columns: FileColumn[] = detected.map((d) => ({
    name: d.name, type: d.type, patterns: d.pattern === undefined ? [] : [d.pattern], detectedType: d.type,
  }));
  for (const entry of schema?.columns ?? []) {
    const index = findSchemaTarget(columns, entry);
    if (index < 0) continue;
    const column = columns[index];
    const detectedTemporal = column.type === 'DATE' || column.type === 'TIMESTAMP';
    // A schema TIMESTAMP without a pattern keeps a pattern detection found (e.g. dd/MM/y); else ISO.
    column.patterns = entry.patterns.length > 0 ? [...entry.patterns] : detectedTemporal ? column.patterns : [];
    column.type = entry.type;
    if (entry.tableColumnName !== undefined) column.name = sanitizeColumnName(entry.tableColumnName) || column.name;
  }
  return columns;
}

function parserFor(column: FileColumn, type: ColumnType): ColumnParser {
  const temporal = type === 'DATE' || type === 'TIMESTAMP';
  const wasTemporal = column.type === 'DATE' || column.type === 'TIMESTAMP';
  return createColumnParser(type, {
    patterns: temporal && wasTemporal ? column.patterns : [],
    acceptEpochNumbers: temporal && (column.detectedType === 'LONG' || column.detectedType === 'INT'),
  });
}

function findByName(columns: ReadonlyArray<{ name: string }>, name: string): number {
  const lower = name.toLowerCase();
  return columns.findIndex((c) => c.name.toLowerCase() === lower);
}

function planNewTable(fileColumns: FileColumn[], timestampColumn: string | undefined): ColumnPlan {
  let timestampIndex = -1;
  if (timestampColumn !== undefined) {
    timestampIndex = findByName(fileColumns, timestampColumn);
    if (timestampIndex < 0) throw new ImportError(`invalid timestamp column '${timestampColumn}'`);
    const column = fileColumns[timestampIndex];
    // A designated column detected as DATE or as integers is stored as TIMESTAMP rather than refused.
    if (column.type === 'DATE' || column.type === 'LONG') {
      const epochNumbers = column.type !== 'DATE';
      column.type = 'TIMESTAMP';
      const parser = createColumnParser('TIMESTAMP', { patterns: epochNumbers ? [] : column.patterns, acceptEpochNumbers: epochNumbers });
      return finishNewTable(fileColumns, timestampIndex, parser);
    }
    if (!isDesignatedTimestampType(column.type)) throw new ImportError(`not a timestamp '${timestampColumn}'`);
  }
  return finishNewTable(fileColumns, timestampIndex, undefined);
}

function finishNewTable(fileColumns: FileColumn[], timestampIndex: number, timestampParser: ColumnParser | undefined): ColumnPlan {
  const parsers = fileColumns.map((c, i) => (i === timestampIndex && timestampParser !== undefined ? timestampParser : parserFor(c, c.type)));
  return {
    outputColumns: fileColumns.map((c) => ({ name: c.name, type: c.type })),
    fileToOutput: Int32Array.from(fileColumns, (_, i) => i),
    parsers,
    timestampIndex,
  };
}

function planExistingTable(fileColumns: FileColumn[], table: ReadonlyArray<OutputColumn>, timestampColumn: string | undefined): ColumnPlan {
  if (fileColumns.length > table.length) {
    throw new ImportError(`column count mismatch [textColumnCount=${fileColumns.length}, tableColumnCount=${table.length}]`);
  }
  const fileToOutput = new Int32Array(fileColumns.length).fill(-1);
  const taken = new Uint8Array(table.length);
  fileColumns.forEach((column, i) => {
    const byName = findByName(table, column.name);
    if (byName >= 0 && taken[byName] === 0) {
      fileToOutput[i] = byName;
      taken[byName] = 1;
    }
  });
  fileColumns.forEach((column, i) => {
    if (fileToOutput[i] >= 0) return;
    if (taken[i] === 1) throw new ImportError(`cannot map file column to table, its position is taken [column=${column.name}, index=${i}]`);
    fileToOutput[i] = i;
    taken[i] = 1;
  });
  const parsers = fileColumns.map((column, i) => {
    const type = table[fileToOutput[i]].type;
    if (type === 'BINARY' || isArrayType(type)) throw new ImportError(`cannot import text into ${typeDisplayName(type)} column [index=${fileToOutput[i]}]`);
    return parserFor(column, type);
  });
  let timestampIndex = -1;
  if (timestampColumn !== undefined) {
    timestampIndex = findByName(table, timestampColumn);
    if (timestampIndex < 0 || taken[timestampIndex] === 0) throw new ImportError(`invalid timestamp column '${timestampColumn}'`);
    if (!isDesignatedTimestampType(table[timestampIndex].type)) throw new ImportError(`not a timestamp '${timestampColumn}'`);
  }
  return { outputColumns: table.map((c) => ({ name: c.name, type: c.type })), fileToOutput, parsers, timestampIndex };
}
