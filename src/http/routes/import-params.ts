// The query parameters of POST /imp (QuestDB's names and defaults), and the staging layout they imply.
import type { Catalog } from '../../sql/compiler.js';
import type { ImportAtomicity } from '../../import/import-session.js';
import type { StagingLayout } from '../../import/staging.js';
import type { ColumnType } from '../../types/column-type.js';
import { partitionUnitOf } from '../../types/timestamp.js';
import { flag, searchParamsOf } from '../query-params.js';

export interface ImportParams {
  readonly name?: string;
  readonly atomicity: ImportAtomicity;
  readonly delimiter?: string;
  readonly json: boolean;
  readonly forceHeader: boolean;
  readonly overwrite: boolean;
  readonly create: boolean;
  readonly skipLev: boolean;
  readonly partitionBy: string;
  readonly timestamp?: string;
}

export function parseImportParams(url: string): ImportParams {
  const params = searchParamsOf(url);
  const atomicity = params.get('atomicity');
  const name = params.get('name');
  const delimiter = params.get('delimiter');
  const timestamp = params.get('timestamp');
  return {
    atomicity: atomicity === 'abort' || atomicity === 'skipRow' ? atomicity : 'skipCol',
    json: params.get('fmt') === 'json',
    forceHeader: flag(params, 'forceHeader'),
    overwrite: flag(params, 'overwrite'),
    create: params.get('create')?.toLowerCase() !== 'false',
    skipLev: flag(params, 'skipLev'),
    partitionBy: (params.get('partitionBy') ?? 'NONE').toUpperCase(),
    // The name parameter is used as given, as QuestDB does; it is checked (checkImportTableName) before any
    // file is written, so a name that would leave db/ is refused. Only a file name is cleaned.
    ...(name === null || name === '' ? {} : { name }),
    ...(delimiter === null || delimiter.length !== 1 ? {} : { delimiter }),
    ...(timestamp === null || timestamp === '' ? {} : { timestamp }),
  };
}

export interface ExistingTable {
  readonly columns: { name: string; type: ColumnType }[];
  readonly layout: StagingLayout;
}

export function existingTable(catalog: Catalog, table: string): ExistingTable | undefined {
  const stored = catalog.resolveName(table);
  const meta = stored === undefined ? undefined : catalog.openSnapshot(stored)?.meta;
  if (meta === undefined) return undefined;
  return {
    columns: meta.columns.map((column) => ({ name: column.name, type: column.type })),
    layout: { partitionBy: meta.partitionBy, timestampIndex: meta.timestampIndex, nanos: meta.columns[meta.timestampIndex]?.type === 'TIMESTAMP_NS' },
  };
}

/**
 * The partitioning a new table will get, for splitting staged rows; a combination the commit will refuse
 * (an unknown unit, or partitions without a designated timestamp) stages as one partition.
 */
export function newTableLayout(params: ImportParams, columns: readonly { name: string; type?: string }[]): StagingLayout {
  const wanted = params.timestamp?.toLowerCase();
  const timestampIndex = wanted === undefined ? -1 : columns.findIndex((column) => column.name.toLowerCase() === wanted);
  const unit = partitionUnitOf(params.partitionBy);
  const partitionBy = unit !== undefined && timestampIndex >= 0 ? unit : 'NONE';
  return { partitionBy, timestampIndex, nanos: columns[timestampIndex]?.type === 'TIMESTAMP_NS' };
}
