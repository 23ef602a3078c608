// Binds read_parquet('<path>') [TIMESTAMP(col)]: resolves the path inside cairo.sql.copy.root (never outside it:
// `..`, absolute paths elsewhere and symbolic links leading out are refused after resolving the real path), reads
// the file's footer and maps each flat Parquet column to an svc type. The scan decodes only the used columns.
import { DECIMAL_PRECISION_MAX, decimalTypeOf } from '../../types/decimal.js';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { SchemaElement } from 'hyparquet';
import type { ColumnType } from '../../types/column-type.js';
import { StorageError, sqlSemanticError } from '../../core/errors.js';
import { LocalFileSource } from '../../storage/parquet/byte-range-source.js';
import { ParquetPartitionReader } from '../../storage/parquet/parquet-partition-reader.js';
import { parquetFilePlan } from '../plan/plan-builders.js';
import { Scope } from './scope.js';
import type { BoundSource } from './bind-source.js';

/** The real path of `requested` when it lies inside `root`; a SqlError at `position` otherwise. */
export function confinedPath(root: string | undefined, requested: string, position: number): string {
  if (root === undefined) throw sqlSemanticError('read_parquet is disabled: cairo.sql.copy.root is not set', position);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    throw sqlSemanticError(`cairo.sql.copy.root does not exist [path=${root}]`, position);
  }
  const target = resolve(realRoot, requested);
  if (!inside(realRoot, target)) throw sqlSemanticError(`path is outside cairo.sql.copy.root [path=${requested}]`, position);
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw sqlSemanticError(`file does not exist [path=${requested}]`, position);
  }
  // A symbolic link inside the root may point anywhere: the resolved path must still be inside.
  if (!inside(realRoot, real)) throw sqlSemanticError(`path is outside cairo.sql.copy.root [path=${requested}]`, position);
  if (!statSync(real).isFile()) throw sqlSemanticError(`not a file [path=${requested}]`, position);
  return real;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The svc type of a flat Parquet column, as /exp writes each type (so an export reads back as it was). */
function columnTypeOf(element: SchemaElement): ColumnType | undefined {
  const logical = element.logical_type;
  const decimal = decimalTypeOfElement(element);
  if (decimal !== undefined) return decimal;
  switch (element.type) {
    case 'BOOLEAN': return 'BOOLEAN';
    case 'INT32':
      if (element.converted_type === 'INT_8') return 'BYTE';
      if (element.converted_type === 'INT_16') return 'SHORT';
      if (element.converted_type === 'UINT_32') return 'IPV4';
      if (element.converted_type === 'DATE' || logical?.type === 'DATE') return 'DATE';
      return 'INT';
    case 'INT64':
      if (element.converted_type === 'TIMESTAMP_MILLIS' || (logical?.type === 'TIMESTAMP' && logical.unit === 'MILLIS')) return 'DATE';
      if (logical?.type === 'TIMESTAMP' && logical.unit === 'NANOS') return 'TIMESTAMP_NS';
      if (element.converted_type === 'TIMESTAMP_MICROS' || logical?.type === 'TIMESTAMP') return 'TIMESTAMP';
      return 'LONG';
    case 'FLOAT': return 'FLOAT';
    case 'DOUBLE': return 'DOUBLE';
    case 'BYTE_ARRAY': return element.converted_type === 'UTF8' || logical?.type === 'STRING' || logical?.type === 'JSON' ? 'VARCHAR' : 'BINARY';
    case 'FIXED_LEN_BYTE_ARRAY': return element.type_length === 16 && logical?.type === 'UUID' ? 'UUID' : undefined;
    default: return undefined;
  }
}

/** DECIMAL(p,s) in any physical form (INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY) with precision 1..76. */
function decimalTypeOfElement(element: SchemaElement): ColumnType | undefined {
  const logical = element.logical_type;
  const isDecimal = logical?.type === 'DECIMAL' || element.converted_type === 'DECIMAL';
  const precision = logical?.type === 'DECIMAL' ? logical.precision : element.precision;
  const scale = logical?.type === 'DECIMAL' ? logical.scale : (element.scale ?? 0);
  if (!isDecimal || precision === undefined || precision < 1 || precision > DECIMAL_PRECISION_MAX || scale < 0 || scale > precision) return undefined;
  return decimalTypeOf(precision, scale);
}

export function bindReadParquet(copyRoot: string | undefined, pathArgument: unknown, position: number, qualifiers: string[], timestamp: { name: string; position: number } | undefined): BoundSource {
  if (typeof pathArgument !== 'string') throw sqlSemanticError('read_parquet expects a file path string', position);
  const path = confinedPath(copyRoot, pathArgument, position);
  let reader: ParquetPartitionReader;
  try {
    reader = ParquetPartitionReader.file(new LocalFileSource(path));
  } catch (error) {
    // A user's file that is not Parquet is a bad argument, not a storage failure of the server.
    if (error instanceof StorageError) throw sqlSemanticError(error.message, position);
    throw error;
  }
  const columns: { name: string; type: ColumnType }[] = reader.footer.leaves.map((leaf) => {
    const type = columnTypeOf(leaf.element);
    if (type === undefined) throw sqlSemanticError(`unsupported parquet column type [column=${leaf.name}, type=${leaf.element.type ?? 'group'}]`, position);
    return { name: leaf.name, type };
  });
  if (columns.length === 0) throw sqlSemanticError(`parquet file has no flat columns [path=${pathArgument}]`, position);
  const scope = new Scope(columns.map((column) => ({ name: column.name, type: column.type, qualifiers })), true);
  const fileTimestamp = timestamp === undefined ? -1 : scope.find(timestamp.name, undefined, timestamp.position);
  if (fileTimestamp >= 0 && columns[fileTimestamp]?.type !== 'TIMESTAMP') throw sqlSemanticError('TIMESTAMP column expected', timestamp?.position ?? position);
  return {
    scope,
    timestampIndex: fileTimestamp,
    build: () => {
      const used = scope.usedColumns();
      return parquetFilePlan(pathArgument, reader, columns, used, used.indexOf(fileTimestamp));
    },
  };
}
