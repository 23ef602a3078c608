// information_schema.tables / information_schema.columns and pg_catalog.pg_tables over svc's tables, plus the
// name resolution of every virtual catalog relation: `pg_catalog.x` and `information_schema.x` always mean the
// catalog; an unqualified `pg_x` means it unless a table of that name exists (PostgreSQL searches pg_catalog
// first, but svc's own tables keep their names).
import type { Catalog } from '../../storage/catalog.js';
import type { CellValue } from '../plan/plan-specs.js';
import type { CatalogRelation } from './pg-catalog.js';

export type { CatalogRelation };
import { DATABASE_NAME, OWNER_ROLE_NAME, pgCatalogRelation, userTables } from './pg-catalog.js';
import { pgColumnType, pgDataTypeName } from '../../types/pg-types.js';

const INFORMATION_TABLES: CatalogRelation = {
  columns: [
    { name: 'table_catalog', type: 'VARCHAR' }, { name: 'table_schema', type: 'VARCHAR' }, { name: 'table_name', type: 'VARCHAR' },
    { name: 'table_type', type: 'VARCHAR' }, { name: 'self_referencing_column_name', type: 'VARCHAR' },
    { name: 'reference_generation', type: 'VARCHAR' }, { name: 'user_defined_type_catalog', type: 'VARCHAR' },
    { name: 'user_defined_type_schema', type: 'VARCHAR' }, { name: 'user_defined_type_name', type: 'VARCHAR' },
    { name: 'is_insertable_into', type: 'VARCHAR' }, { name: 'is_typed', type: 'VARCHAR' }, { name: 'commit_action', type: 'VARCHAR' },
  ],
  hasRows: true,
  rows: (catalog: Catalog) => userTables(catalog).map(({ meta }) => [
    DATABASE_NAME, 'public', meta.name, 'BASE TABLE', null, null, null, null, null, 'YES', 'NO', null,
  ]),
};

const INFORMATION_COLUMNS: CatalogRelation = {
  columns: [
    { name: 'table_catalog', type: 'VARCHAR' }, { name: 'table_schema', type: 'VARCHAR' }, { name: 'table_name', type: 'VARCHAR' },
    { name: 'column_name', type: 'VARCHAR' }, { name: 'ordinal_position', type: 'INT' }, { name: 'column_default', type: 'VARCHAR' },
    { name: 'is_nullable', type: 'VARCHAR' }, { name: 'data_type', type: 'VARCHAR' }, { name: 'character_maximum_length', type: 'INT' },
    { name: 'numeric_precision', type: 'INT' }, { name: 'numeric_scale', type: 'INT' }, { name: 'datetime_precision', type: 'INT' },
    { name: 'udt_catalog', type: 'VARCHAR' }, { name: 'udt_schema', type: 'VARCHAR' }, { name: 'udt_name', type: 'VARCHAR' },
  ],
  hasRows: true,
  rows: (catalog: Catalog) => userTables(catalog).flatMap(({ meta }) => meta.columns.map((column, k): CellValue[] => {
    const oid = pgColumnType(column.type).oid;
    const numeric = NUMERIC_PRECISION[oid];
    return [
      DATABASE_NAME, 'public', meta.name, column.name, k + 1, null, k === meta.timestampIndex ? 'NO' : 'YES', pgDataTypeName(oid),
      null, numeric?.precision ?? null, numeric?.scale ?? null, oid === 1114 ? 6 : null, DATABASE_NAME, 'pg_catalog', UDT_NAMES[oid] ?? 'varchar',
    ];
  })),
};

/** numeric_precision / numeric_scale as PostgreSQL reports them for its number types. */
const NUMERIC_PRECISION: Readonly<Record<number, { readonly precision: number; readonly scale: number | null }>> = {
  21: { precision: 16, scale: 0 }, 23: { precision: 32, scale: 0 }, 20: { precision: 64, scale: 0 },
  700: { precision: 24, scale: null }, 701: { precision: 53, scale: null },
};

const UDT_NAMES: Readonly<Record<number, string>> = {
  16: 'bool', 17: 'bytea', 20: 'int8', 21: 'int2', 23: 'int4', 700: 'float4', 701: 'float8', 1042: 'bpchar', 1043: 'varchar',
  1114: 'timestamp', 2950: 'uuid',
};

const PG_TABLES: CatalogRelation = {
  columns: [
    { name: 'schemaname', type: 'VARCHAR' }, { name: 'tablename', type: 'VARCHAR' }, { name: 'tableowner', type: 'VARCHAR' },
    { name: 'tablespace', type: 'VARCHAR' }, { name: 'hasindexes', type: 'BOOLEAN' }, { name: 'hasrules', type: 'BOOLEAN' },
    { name: 'hastriggers', type: 'BOOLEAN' }, { name: 'rowsecurity', type: 'BOOLEAN' },
  ],
  hasRows: true,
  rows: (catalog: Catalog) => userTables(catalog).map(({ meta }) => [
    'public', meta.name, OWNER_ROLE_NAME, null, meta.columns.some((column) => column.indexed), false, false, false,
  ]),
};

/**
 * The virtual relation a FROM name stands for, or undefined for an ordinary table. `tableExists` tells whether
 * svc has a table of that exact name, which an unqualified `pg_...` name then means instead.
 */
export function catalogRelationFor(name: string, tableExists: (name: string) => boolean): CatalogRelation | undefined {
  const lower = name.toLowerCase();
  const dot = lower.indexOf('.');
  const schema = dot < 0 ? undefined : lower.slice(0, dot);
  const relationName = dot < 0 ? lower : lower.slice(dot + 1);
  if (schema === 'information_schema') {
    if (relationName === 'tables') return INFORMATION_TABLES;
    if (relationName === 'columns') return INFORMATION_COLUMNS;
    return undefined;
  }
  if (schema !== undefined && schema !== 'pg_catalog') return undefined;
  if (schema === undefined && (!relationName.startsWith('pg_') || tableExists(name))) return undefined;
  return relationName === 'pg_tables' ? PG_TABLES : pgCatalogRelation(relationName);
}
