// Read-only pg_catalog relations that PostgreSQL tools query (psql's \d family, drivers at connect), computed
// from svc's catalog when the query runs: every svc table is a relation of schema `public`, its columns are
// pg_attribute rows typed by QuestDB's type OIDs. Catalogs svc has nothing for (constraints, indexes, policies,
// inheritance, publications...) exist and are empty, so the joins and footers tools run over them return no rows.
import type { Catalog } from '../../storage/catalog.js';
import type { TableMeta } from '../../storage/table-meta.js';
import type { OutputColumn } from './bound.js';
import type { CellValue } from '../plan/plan-specs.js';
import { DATABASE_NAME, OWNER_ROLE_NAME, OWNER_ROLE_OID, PG_TYPES, pgColumnType } from '../../types/pg-types.js';

export { DATABASE_NAME, OWNER_ROLE_NAME };
import { PG_SETTINGS } from '../../types/pg-settings.js';

/** PostgreSQL's first OID for user objects; svc's table `k` (its table id) is relation 16384 + k. */
export const PG_FIRST_USER_OID = 16384;
export const PG_CATALOG_NAMESPACE_OID = 11;
export const PUBLIC_NAMESPACE_OID = 2200;
export const INFORMATION_SCHEMA_NAMESPACE_OID = 13000;
const DATABASE_OID = 5;
/** pg_am's heap access method, which every table of PostgreSQL's uses. */
const HEAP_AM_OID = 2;

export interface CatalogRelation {
  readonly columns: readonly OutputColumn[];
  /** False for the catalogs that are always empty: a query that inner-joins one of them returns no rows. */
  readonly hasRows: boolean;
  rows(catalog: Catalog): CellValue[][];
}

type ColumnSpec = readonly (readonly [string, OutputColumn['type']])[];

function columnsOf(spec: ColumnSpec): OutputColumn[] {
  return spec.map(([name, type]) => ({ name, type }));
}

function relation(spec: ColumnSpec, rows: (catalog: Catalog) => CellValue[][]): CatalogRelation {
  return { columns: columnsOf(spec), hasRows: true, rows };
}

function empty(spec: ColumnSpec): CatalogRelation {
  return { columns: columnsOf(spec), hasRows: false, rows: () => [] };
}

export interface UserTable {
  readonly oid: number;
  readonly meta: TableMeta;
}

/** svc's tables with their relation OIDs, in name order. */
export function userTables(catalog: Catalog): UserTable[] {
  return catalog.listTableNames().sort().flatMap((name) => {
    const meta = catalog.openSnapshot(name)?.meta;
    return meta === undefined ? [] : [{ oid: PG_FIRST_USER_OID + meta.tableId, meta }];
  });
}

const PG_CLASS = relation([
  ['oid', 'INT'], ['relname', 'VARCHAR'], ['relnamespace', 'INT'], ['reltype', 'INT'], ['reloftype', 'INT'], ['relowner', 'INT'],
  ['relam', 'INT'], ['relfilenode', 'INT'], ['reltablespace', 'INT'], ['relpages', 'INT'], ['reltuples', 'FLOAT'],
  ['relallvisible', 'INT'], ['reltoastrelid', 'INT'], ['relhasindex', 'BOOLEAN'], ['relisshared', 'BOOLEAN'],
  ['relpersistence', 'VARCHAR'], ['relkind', 'VARCHAR'], ['relnatts', 'SHORT'], ['relchecks', 'SHORT'], ['relhasrules', 'BOOLEAN'],
  ['relhastriggers', 'BOOLEAN'], ['relhassubclass', 'BOOLEAN'], ['relrowsecurity', 'BOOLEAN'], ['relforcerowsecurity', 'BOOLEAN'],
  ['relispopulated', 'BOOLEAN'], ['relreplident', 'VARCHAR'], ['relispartition', 'BOOLEAN'], ['relacl', 'VARCHAR'],
  ['reloptions', 'VARCHAR'], ['relpartbound', 'VARCHAR'],
], (catalog) => userTables(catalog).map(({ oid, meta }) => [
  oid, meta.name, PUBLIC_NAMESPACE_OID, 0, 0, OWNER_ROLE_OID, HEAP_AM_OID, oid, 0, 0, -1, 0, 0,
  meta.columns.some((column) => column.indexed), false, 'p', 'r', meta.columns.length, 0, false, false, false, false, false,
  true, 'd', false, null, null, null,
]));

const PG_NAMESPACE = relation([['oid', 'INT'], ['nspname', 'VARCHAR'], ['nspowner', 'INT'], ['nspacl', 'VARCHAR']], () => [
  [PG_CATALOG_NAMESPACE_OID, 'pg_catalog', OWNER_ROLE_OID, null],
  [PUBLIC_NAMESPACE_OID, 'public', OWNER_ROLE_OID, null],
  [INFORMATION_SCHEMA_NAMESPACE_OID, 'information_schema', OWNER_ROLE_OID, null],
]);

const PG_ATTRIBUTE = relation([
  ['attrelid', 'INT'], ['attname', 'VARCHAR'], ['atttypid', 'INT'], ['attstattarget', 'INT'], ['attlen', 'SHORT'], ['attnum', 'SHORT'],
  ['attndims', 'INT'], ['attcacheoff', 'INT'], ['atttypmod', 'INT'], ['attbyval', 'BOOLEAN'], ['attalign', 'VARCHAR'],
  ['attstorage', 'VARCHAR'], ['attnotnull', 'BOOLEAN'], ['atthasdef', 'BOOLEAN'], ['atthasmissing', 'BOOLEAN'],
  ['attidentity', 'VARCHAR'], ['attgenerated', 'VARCHAR'], ['attisdropped', 'BOOLEAN'], ['attislocal', 'BOOLEAN'],
  ['attinhcount', 'INT'], ['attcollation', 'INT'], ['attacl', 'VARCHAR'], ['attoptions', 'VARCHAR'],
], (catalog) => userTables(catalog).flatMap(({ oid, meta }) => meta.columns.map((column, k): CellValue[] => {
  const type = pgColumnType(column.type);
  const length = PG_TYPES.find((candidate) => candidate.oid === type.oid)?.length ?? -1;
  // The designated timestamp cannot be NULL in svc (a row without one is refused), so it is NOT NULL here.
  return [oid, column.name, type.oid, -1, length, k + 1, 0, -1, type.typmod, length > 0 && length <= 8, 'i', 'p',
    k === meta.timestampIndex, false, false, '', '', false, true, 0, 0, null, null];
})));

const PG_TYPE = relation([
  ['oid', 'INT'], ['typname', 'VARCHAR'], ['typnamespace', 'INT'], ['typowner', 'INT'], ['typlen', 'SHORT'], ['typbyval', 'BOOLEAN'],
  ['typtype', 'VARCHAR'], ['typcategory', 'VARCHAR'], ['typispreferred', 'BOOLEAN'], ['typisdefined', 'BOOLEAN'], ['typdelim', 'VARCHAR'],
  ['typrelid', 'INT'], ['typelem', 'INT'], ['typarray', 'INT'], ['typinput', 'VARCHAR'], ['typoutput', 'VARCHAR'],
  ['typreceive', 'VARCHAR'], ['typsend', 'VARCHAR'], ['typbasetype', 'INT'], ['typtypmod', 'INT'], ['typndims', 'INT'],
  ['typcollation', 'INT'], ['typnotnull', 'BOOLEAN'], ['typdefault', 'VARCHAR'],
], () => PG_TYPES.map((type): CellValue[] => {
  const io = type.category === 'A' ? 'array' : type.name;
  return [type.oid, type.name, PG_CATALOG_NAMESPACE_OID, OWNER_ROLE_OID, type.length, type.length > 0 && type.length <= 8,
    type.category === 'P' ? 'p' : 'b', type.category, false, true, ',', 0, type.elementOid, type.arrayOid,
    `${io}_in`, `${io}_out`, `${io}_recv`, `${io}_send`, 0, -1, 0, type.category === 'S' ? 100 : 0, false, null];
}));

const PG_DATABASE = relation([
  ['oid', 'INT'], ['datname', 'VARCHAR'], ['datdba', 'INT'], ['encoding', 'INT'], ['datlocprovider', 'VARCHAR'],
  ['datistemplate', 'BOOLEAN'], ['datallowconn', 'BOOLEAN'], ['datconnlimit', 'INT'], ['datcollate', 'VARCHAR'],
  ['datctype', 'VARCHAR'], ['daticulocale', 'VARCHAR'], ['datacl', 'VARCHAR'],
], () => [[DATABASE_OID, DATABASE_NAME, OWNER_ROLE_OID, 6, 'c', false, true, -1, 'C', 'C', null, null]]);

const PG_SETTINGS_RELATION = relation([
  ['name', 'VARCHAR'], ['setting', 'VARCHAR'], ['unit', 'VARCHAR'], ['category', 'VARCHAR'], ['short_desc', 'VARCHAR'],
  ['context', 'VARCHAR'], ['vartype', 'VARCHAR'], ['source', 'VARCHAR'], ['boot_val', 'VARCHAR'], ['reset_val', 'VARCHAR'],
], () => PG_SETTINGS.map((setting) => [setting.name, setting.setting, null, 'Preset Options', setting.description, 'user', 'string',
  'default', setting.setting, setting.setting]));

const ROLE_COLUMNS: ColumnSpec = [
  ['oid', 'INT'], ['rolname', 'VARCHAR'], ['rolsuper', 'BOOLEAN'], ['rolinherit', 'BOOLEAN'], ['rolcreaterole', 'BOOLEAN'],
  ['rolcreatedb', 'BOOLEAN'], ['rolcanlogin', 'BOOLEAN'], ['rolreplication', 'BOOLEAN'], ['rolconnlimit', 'INT'],
  ['rolvaliduntil', 'TIMESTAMP'], ['rolbypassrls', 'BOOLEAN'], ['rolconfig', 'VARCHAR'],
];

const PG_ROLES = relation(ROLE_COLUMNS, () => [[OWNER_ROLE_OID, OWNER_ROLE_NAME, true, true, true, true, true, false, -1, null, true, null]]);

const PG_AM = relation([['oid', 'INT'], ['amname', 'VARCHAR'], ['amhandler', 'VARCHAR'], ['amtype', 'VARCHAR']], () => [
  [HEAP_AM_OID, 'heap', 'heap_tableam_handler', 't'],
]);

const PG_TABLESPACE = relation([['oid', 'INT'], ['spcname', 'VARCHAR'], ['spcowner', 'INT']], () => [
  [1663, 'pg_default', OWNER_ROLE_OID],
]);

/** Relations by lower-case name, without the `pg_catalog.` schema. */
const PG_CATALOG_RELATIONS: ReadonlyMap<string, CatalogRelation> = new Map([
  ['pg_class', PG_CLASS], ['pg_namespace', PG_NAMESPACE], ['pg_attribute', PG_ATTRIBUTE], ['pg_type', PG_TYPE],
  ['pg_database', PG_DATABASE], ['pg_settings', PG_SETTINGS_RELATION], ['pg_roles', PG_ROLES], ['pg_user', PG_ROLES],
  ['pg_authid', PG_ROLES], ['pg_am', PG_AM], ['pg_tablespace', PG_TABLESPACE],
  ['pg_description', empty([['objoid', 'INT'], ['classoid', 'INT'], ['objsubid', 'INT'], ['description', 'VARCHAR']])],
  ['pg_index', empty([
    ['indexrelid', 'INT'], ['indrelid', 'INT'], ['indnatts', 'SHORT'], ['indisunique', 'BOOLEAN'], ['indisprimary', 'BOOLEAN'],
    ['indisexclusion', 'BOOLEAN'], ['indimmediate', 'BOOLEAN'], ['indisclustered', 'BOOLEAN'], ['indisvalid', 'BOOLEAN'],
    ['indisreplident', 'BOOLEAN'], ['indkey', 'VARCHAR'], ['indexprs', 'VARCHAR'], ['indpred', 'VARCHAR'],
  ])],
  ['pg_inherits', empty([['inhrelid', 'INT'], ['inhparent', 'INT'], ['inhseqno', 'INT'], ['inhdetachpending', 'BOOLEAN']])],
  ['pg_constraint', empty([
    ['oid', 'INT'], ['conname', 'VARCHAR'], ['connamespace', 'INT'], ['contype', 'VARCHAR'], ['condeferrable', 'BOOLEAN'],
    ['condeferred', 'BOOLEAN'], ['convalidated', 'BOOLEAN'], ['conrelid', 'INT'], ['contypid', 'INT'], ['conindid', 'INT'],
    ['conparentid', 'INT'], ['confrelid', 'INT'], ['conislocal', 'BOOLEAN'], ['conkey', 'VARCHAR'], ['confkey', 'VARCHAR'],
    ['conbin', 'VARCHAR'],
  ])],
  ['pg_auth_members', empty([['roleid', 'INT'], ['member', 'INT'], ['grantor', 'INT'], ['admin_option', 'BOOLEAN']])],
  ['pg_attrdef', empty([['oid', 'INT'], ['adrelid', 'INT'], ['adnum', 'SHORT'], ['adbin', 'VARCHAR']])],
  ['pg_collation', empty([['oid', 'INT'], ['collname', 'VARCHAR'], ['collnamespace', 'INT'], ['collprovider', 'VARCHAR']])],
  ['pg_policy', empty([
    ['oid', 'INT'], ['polname', 'VARCHAR'], ['polrelid', 'INT'], ['polcmd', 'VARCHAR'], ['polpermissive', 'BOOLEAN'],
    ['polroles', 'VARCHAR'], ['polqual', 'VARCHAR'], ['polwithcheck', 'VARCHAR'],
  ])],
  ['pg_statistic_ext', empty([
    ['oid', 'INT'], ['stxrelid', 'INT'], ['stxname', 'VARCHAR'], ['stxnamespace', 'INT'], ['stxowner', 'INT'],
    ['stxstattarget', 'INT'], ['stxkeys', 'VARCHAR'], ['stxkind', 'VARCHAR'], ['stxexprs', 'VARCHAR'],
  ])],
  ['pg_publication', empty([['oid', 'INT'], ['pubname', 'VARCHAR'], ['pubowner', 'INT'], ['puballtables', 'BOOLEAN']])],
  ['pg_publication_rel', empty([['oid', 'INT'], ['prpubid', 'INT'], ['prrelid', 'INT'], ['prqual', 'VARCHAR'], ['prattrs', 'VARCHAR']])],
  ['pg_publication_namespace', empty([['oid', 'INT'], ['pnpubid', 'INT'], ['pnnspid', 'INT']])],
  ['pg_trigger', empty([['oid', 'INT'], ['tgrelid', 'INT'], ['tgname', 'VARCHAR'], ['tgenabled', 'VARCHAR'], ['tgisinternal', 'BOOLEAN']])],
  ['pg_rewrite', empty([['oid', 'INT'], ['rulename', 'VARCHAR'], ['ev_class', 'INT'], ['ev_type', 'VARCHAR']])],
  ['pg_foreign_table', empty([['ftrelid', 'INT'], ['ftserver', 'INT'], ['ftoptions', 'VARCHAR']])],
  ['pg_partitioned_table', empty([['partrelid', 'INT'], ['partstrat', 'VARCHAR'], ['partnatts', 'SHORT']])],
  ['pg_proc', empty([['oid', 'INT'], ['proname', 'VARCHAR'], ['pronamespace', 'INT'], ['proowner', 'INT'], ['prokind', 'VARCHAR'], ['prorettype', 'INT']])],
  ['pg_views', empty([['schemaname', 'VARCHAR'], ['viewname', 'VARCHAR'], ['viewowner', 'VARCHAR'], ['definition', 'VARCHAR']])],
  ['pg_matviews', empty([['schemaname', 'VARCHAR'], ['matviewname', 'VARCHAR'], ['matviewowner', 'VARCHAR'], ['definition', 'VARCHAR']])],
  ['pg_extension', empty([['oid', 'INT'], ['extname', 'VARCHAR'], ['extowner', 'INT'], ['extnamespace', 'INT'], ['extversion', 'VARCHAR']])],
]);

/** The pg_catalog relation called `name` (unqualified, lower-case), if svc has one. */
export function pgCatalogRelation(name: string): CatalogRelation | undefined {
  return PG_CATALOG_RELATIONS.get(name);
}
