// PostgreSQL's view of svc's types: the OID each column type is served as (QuestDB's PGOids), and the
// pg_type rows PostgreSQL clients read at connect (porsager `postgres` asks for every array type's element,
// JDBC and psql look names up by OID). OIDs and names are PostgreSQL's own, so tools that hard-code them agree.
import { isDecimalType } from './decimal.js';
import type { ValueType } from './column-type.js';
import { isGeohashType } from './geohash.js';
import { isArrayType } from './double-array.js';

/** One row of pg_catalog.pg_type (the columns clients read). */
export interface PgType {
  readonly oid: number;
  readonly name: string;
  /** format_type()'s spelling (`character varying`, `timestamp without time zone`). */
  readonly formatName: string;
  /** Bytes of a value, -1 for variable length. */
  readonly length: number;
  /** typcategory: B boolean, N numeric, S string, D date/time, U user, A array, R range, X unknown, P pseudo. */
  readonly category: string;
  /** Element type of an array type, 0 otherwise. */
  readonly elementOid: number;
  /** The array type whose elements are this type, 0 when there is none. */
  readonly arrayOid: number;
}

function scalar(oid: number, name: string, formatName: string, length: number, category: string, arrayOid: number): PgType {
  return { oid, name, formatName, length, category, elementOid: 0, arrayOid };
}

function arrayOf(oid: number, element: PgType): PgType {
  return { oid, name: `_${element.name}`, formatName: `${element.formatName}[]`, length: -1, category: 'A', elementOid: element.oid, arrayOid: 0 };
}

const SCALARS: readonly PgType[] = [
  scalar(16, 'bool', 'boolean', 1, 'B', 1000),
  scalar(17, 'bytea', 'bytea', -1, 'U', 1001),
  scalar(18, 'char', '"char"', 1, 'Z', 1002),
  scalar(19, 'name', 'name', 64, 'S', 1003),
  scalar(20, 'int8', 'bigint', 8, 'N', 1016),
  scalar(21, 'int2', 'smallint', 2, 'N', 1005),
  scalar(23, 'int4', 'integer', 4, 'N', 1007),
  scalar(24, 'regproc', 'regproc', 4, 'N', 1008),
  scalar(25, 'text', 'text', -1, 'S', 1009),
  scalar(26, 'oid', 'oid', 4, 'N', 1028),
  scalar(114, 'json', 'json', -1, 'U', 199),
  scalar(700, 'float4', 'real', 4, 'N', 1021),
  scalar(701, 'float8', 'double precision', 8, 'N', 1022),
  scalar(705, 'unknown', 'unknown', -2, 'X', 0),
  scalar(1042, 'bpchar', 'character', -1, 'S', 1014),
  scalar(1043, 'varchar', 'character varying', -1, 'S', 1015),
  scalar(1082, 'date', 'date', 4, 'D', 1182),
  scalar(1083, 'time', 'time without time zone', 8, 'D', 1183),
  scalar(1114, 'timestamp', 'timestamp without time zone', 8, 'D', 1115),
  scalar(1184, 'timestamptz', 'timestamp with time zone', 8, 'D', 1185),
  scalar(1186, 'interval', 'interval', 16, 'T', 1187),
  scalar(1700, 'numeric', 'numeric', -1, 'N', 1231),
  scalar(2205, 'regclass', 'regclass', 4, 'N', 2210),
  scalar(2206, 'regtype', 'regtype', 4, 'N', 2211),
  scalar(2278, 'void', 'void', 4, 'P', 0),
  scalar(2281, 'internal', 'internal', 8, 'P', 0),
  scalar(2950, 'uuid', 'uuid', 16, 'U', 2951),
  scalar(3802, 'jsonb', 'jsonb', -1, 'U', 3807),
];

/** Every type svc lists in pg_type: the scalars, then their array types, ordered by OID. */
export const PG_TYPES: readonly PgType[] = [
  ...SCALARS,
  ...SCALARS.filter((type) => type.arrayOid !== 0).map((type) => arrayOf(type.arrayOid, type)),
].sort((a, b) => a.oid - b.oid);

const allByOid = new Map(PG_TYPES.map((type) => [type.oid, type]));

export function pgTypeByOid(oid: number): PgType | undefined {
  return allByOid.get(oid);
}

/** The one role svc reports as owner of everything (PostgreSQL's bootstrap superuser OID) and as current_user. */
export const OWNER_ROLE_OID = 10;
export const OWNER_ROLE_NAME = 'admin';
/** QuestDB answers current_database() with `qdb`; the database name a client sends is ignored. */
export const DATABASE_NAME = 'qdb';

/** What the server reports as its version (ParameterStatus server_version, SHOW server_version, version()). */
export const PG_SERVER_VERSION = '12.3 (svc)';
export const PG_SERVER_VERSION_NUM = '120003';

/** A column's PostgreSQL type: OID and type modifier (-1 = none; bpchar's is length + 4). */
export interface PgColumnType {
  readonly oid: number;
  readonly typmod: number;
}

/** QuestDB's PGOids mapping: text-like types are varchar, DATE and TIMESTAMP are timestamp, BYTE widens to int2. */
export function pgColumnType(type: ValueType): PgColumnType {
  // DECIMAL goes as varchar text, as GEOHASH does: exact digits, readable by every client in text and binary format.
  if (isGeohashType(type) || isDecimalType(type)) return { oid: 1043, typmod: -1 };
  if (isArrayType(type)) return { oid: 1022, typmod: -1 };
  switch (type) {
    case 'BOOLEAN': return { oid: 16, typmod: -1 };
    case 'BYTE': case 'SHORT': return { oid: 21, typmod: -1 };
    case 'CHAR': return { oid: 1042, typmod: 5 };
    case 'INT': return { oid: 23, typmod: -1 };
    case 'LONG': return { oid: 20, typmod: -1 };
    case 'FLOAT': return { oid: 700, typmod: -1 };
    case 'DOUBLE': return { oid: 701, typmod: -1 };
    case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': return { oid: 1114, typmod: -1 };
    case 'UUID': return { oid: 2950, typmod: -1 };
    case 'BINARY': return { oid: 17, typmod: -1 };
    case 'SYMBOL': case 'STRING': case 'VARCHAR': case 'IPV4': case 'NULL': case 'LONG256': case 'INTERVAL':
      return { oid: 1043, typmod: -1 };
  }
}

/** PostgreSQL's format_type(oid, typmod): the SQL spelling psql prints in `\d`; NULL for an unknown OID. */
export function formatPgType(oid: number, typmod: number): string | null {
  const type = allByOid.get(oid);
  if (type === undefined) return null;
  if (oid === 1042 && typmod >= 4) return `character(${typmod - 4})`;
  if (oid === 1043 && typmod >= 4) return `character varying(${typmod - 4})`;
  return type.formatName;
}

/** information_schema.columns.data_type: the type's SQL name, `ARRAY` for arrays, as PostgreSQL reports it. */
export function pgDataTypeName(oid: number): string {
  const type = allByOid.get(oid);
  if (type === undefined) return 'USER-DEFINED';
  if (type.category === 'A') return 'ARRAY';
  return type.formatName;
}
