// Parses the optional `schema` part of an import into plain data. Two forms, as QuestDB accepts them:
//   v1: [{"name":"ts","type":"TIMESTAMP","pattern":"yyyy-MM-dd HH:mm:ss","locale":"en"}, …]
//   v2: {"columns":[{"file_column_name":…,"file_column_index":…,"column_type":…,"table_column_name":…,
//        "formats":[{"pattern":…}]}], "formats":{"TIMESTAMP":[{"pattern":…}]}, "formats_action":"ADD"|"REPLACE"}
// Every problem is an ImportError with code SVC_IMPORT_BAD_SCHEMA. Patterns are validated here by compiling them.
import { isArrayType } from '../types/double-array.js';
import { ImportError } from '../core/errors.js';
import { parseColumnType, typeDisplayName, type ColumnType } from '../types/column-type.js';
import { compileImportTimestampPattern } from './timestamp-pattern.js';

export interface ImportSchemaColumn {
  /** Column name in the file (v1 `name`, v2 `file_column_name`), matched case-insensitively after cleaning. */
  readonly name?: string;
  /** v2 `file_column_index`: 0-based position in the file, used when no name is given. */
  readonly index?: number;
  readonly type: ColumnType;
  /** DATE/TIMESTAMP formats tried in order; empty means ISO-8601. */
  readonly patterns: ReadonlyArray<string>;
  /** Accepted for compatibility; parsing uses English month and day names whatever it says. */
  readonly locale?: string;
  /** v2 `table_column_name`: the column is created or matched under this name instead. */
  readonly tableColumnName?: string;
}

export interface ImportSchema {
  readonly columns: ReadonlyArray<ImportSchemaColumn>;
  /** v2 top-level `formats`: detection patterns for DATE and TIMESTAMP columns. */
  readonly formats: { readonly DATE: ReadonlyArray<string>; readonly TIMESTAMP: ReadonlyArray<string> };
  /** ADD: the formats are probed after the built-in ones; REPLACE: instead of them. */
  readonly formatsAction: 'ADD' | 'REPLACE';
}

type JsonObject = { readonly [key: string]: unknown };

function schemaError(message: string): ImportError {
  return new ImportError(message, 'SVC_IMPORT_BAD_SCHEMA');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseSchemaPart(text: string): ImportSchema {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw schemaError(`schema is not valid JSON [${error instanceof Error ? error.message : String(error)}]`);
  }
  if (Array.isArray(json)) {
    return { columns: json.map((entry, i) => parseV1Column(entry, i)), formats: { DATE: [], TIMESTAMP: [] }, formatsAction: 'ADD' };
  }
  if (isObject(json)) return parseV2(json);
  throw schemaError('schema must be a JSON array of columns or an object with "columns"');
}

function parseV1Column(entry: unknown, position: number): ImportSchemaColumn {
  if (!isObject(entry)) throw schemaError(`schema column must be an object [index=${position}]`);
  const name = optionalString(entry, 'name', position);
  if (name === undefined) throw schemaError(`Missing 'name' property [index=${position}]`);
  const typeName = optionalString(entry, 'type', position);
  if (typeName === undefined) throw schemaError(`Missing 'type' property [index=${position}]`);
  const type = parseImportType(typeName, name);
  const pattern = optionalString(entry, 'pattern', position);
  return { name, type, patterns: checkPatterns(type, pattern === undefined ? [] : [pattern]), locale: optionalString(entry, 'locale', position) };
}

function parseV2(json: JsonObject): ImportSchema {
  const columnsJson = json['columns'] ?? [];
  if (!Array.isArray(columnsJson)) throw schemaError('schema "columns" must be an array');
  const columns = columnsJson.map((entry, i) => parseV2Column(entry, i));
  const formatsJson = json['formats'] ?? {};
  if (!isObject(formatsJson)) throw schemaError('schema "formats" must be an object keyed by column type');
  const formats = { DATE: [] as string[], TIMESTAMP: [] as string[] };
  for (const [typeName, list] of Object.entries(formatsJson)) {
    const type = parseImportType(typeName, 'formats');
    if (type !== 'DATE' && type !== 'TIMESTAMP') continue;
    formats[type].push(...checkPatterns(type, parseFormatList(list, typeName)));
  }
  const action = json['formats_action'] ?? 'ADD';
  if (typeof action !== 'string' || !/^(add|replace)$/i.test(action)) {
    throw schemaError(`'formats_action' valid values are 'ADD' or 'REPLACE' [tag=${String(action)}]`);
  }
  return { columns, formats, formatsAction: action.toUpperCase() === 'REPLACE' ? 'REPLACE' : 'ADD' };
}

function parseV2Column(entry: unknown, position: number): ImportSchemaColumn {
  if (!isObject(entry)) throw schemaError(`schema column must be an object [index=${position}]`);
  const name = optionalString(entry, 'file_column_name', position);
  const indexValue = entry['file_column_index'];
  if (indexValue !== undefined && indexValue !== null && (typeof indexValue !== 'number' || !Number.isInteger(indexValue) || indexValue < 0)) {
    throw schemaError(`Invalid file column index [index=${position}]`);
  }
  const index = typeof indexValue === 'number' ? indexValue : undefined;
  if (name === undefined && index === undefined) {
    throw schemaError(`schema column needs 'file_column_name' or 'file_column_index' [index=${position}]`);
  }
  const typeName = optionalString(entry, 'column_type', position);
  if (typeName === undefined) throw schemaError(`Missing 'column_type' property [index=${position}]`);
  const type = parseImportType(typeName, name ?? String(index));
  const patterns = checkPatterns(type, parseFormatList(entry['formats'] ?? [], name ?? String(index)));
  return { name, index, type, patterns, tableColumnName: optionalString(entry, 'table_column_name', position) };
}

function parseFormatList(list: unknown, owner: string): string[] {
  if (!Array.isArray(list)) throw schemaError(`schema formats must be an array [column=${owner}]`);
  return list.map((format) => {
    if (!isObject(format) || typeof format['pattern'] !== 'string') {
      throw schemaError(`schema format needs a string 'pattern' [column=${owner}]`);
    }
    return format['pattern'];
  });
}

function optionalString(entry: JsonObject, key: string, position: number): string | undefined {
  const value = entry[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw schemaError(`schema property '${key}' must be a string [index=${position}]`);
  return value;
}

/** A type an import can write; BINARY has no text form, so QuestDB refuses it too. */
function parseImportType(typeName: string, column: string): ColumnType {
  const type = parseColumnType(typeName.trim());
  if (type === undefined) throw schemaError(`Invalid type [type=${typeName}, column=${column}]`);
  if (type === 'BINARY' || isArrayType(type)) throw schemaError(`cannot import text into ${typeDisplayName(type)} column [column=${column}]`);
  return type;
}

function checkPatterns(type: ColumnType, patterns: string[]): string[] {
  if (patterns.length > 0 && type !== 'DATE' && type !== 'TIMESTAMP') return [];
  for (const pattern of patterns) compileImportTimestampPattern(pattern);
  return patterns;
}
