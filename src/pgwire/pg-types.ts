// The PostgreSQL type each svc type travels as (QuestDB's PGOids table), and the reverse mapping for the
// parameter types a client declares in Parse. Unknown client types are refused rather than guessed.
import { isDecimalType } from '../types/decimal.js';
import type { DecimalType } from '../types/decimal.js';
import type { ValueType } from '../types/column-type.js';
import { perGeohashType } from '../types/column-type.js';
import { isArrayType } from '../types/double-array.js';
import type { ParameterType } from '../sql/compiler.js';

export const OID = {
  BOOL: 16, BYTEA: 17, CHAR1: 18, NAME: 19, INT8: 20, INT2: 21, INT4: 23, TEXT: 25, OID: 26,
  FLOAT4: 700, FLOAT8: 701, UNKNOWN: 705, BPCHAR: 1042, VARCHAR: 1043, DATE: 1082, TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184, NUMERIC: 1700, UUID: 2950,
} as const;

export interface PgType {
  readonly oid: number;
  /** pg_type.typlen: bytes of the binary form, -1 for variable size. */
  readonly size: number;
  readonly modifier: number;
}

const VARCHAR_TYPE: PgType = { oid: OID.VARCHAR, size: -1, modifier: -1 };

const PG_TYPE_OF: Readonly<Record<Exclude<ValueType, `DOUBLE[]${string}` | DecimalType>, PgType>> = {
  BOOLEAN: { oid: OID.BOOL, size: 1, modifier: -1 },
  BYTE: { oid: OID.INT2, size: 2, modifier: -1 },
  SHORT: { oid: OID.INT2, size: 2, modifier: -1 },
  CHAR: { oid: OID.BPCHAR, size: -1, modifier: 5 },
  INT: { oid: OID.INT4, size: 4, modifier: -1 },
  LONG: { oid: OID.INT8, size: 8, modifier: -1 },
  FLOAT: { oid: OID.FLOAT4, size: 4, modifier: -1 },
  DOUBLE: { oid: OID.FLOAT8, size: 8, modifier: -1 },
  DATE: { oid: OID.TIMESTAMP, size: 8, modifier: -1 },
  TIMESTAMP: { oid: OID.TIMESTAMP, size: 8, modifier: -1 },
  TIMESTAMP_NS: { oid: OID.TIMESTAMP, size: 8, modifier: -1 },
  SYMBOL: VARCHAR_TYPE, STRING: VARCHAR_TYPE, VARCHAR: VARCHAR_TYPE, IPV4: VARCHAR_TYPE, NULL: VARCHAR_TYPE,
  UUID: { oid: OID.UUID, size: 16, modifier: -1 },
  BINARY: { oid: OID.BYTEA, size: -1, modifier: -1 },
  // QuestDB sends LONG256, GEOHASH and INTERVAL as varchar text.
  LONG256: VARCHAR_TYPE, INTERVAL: VARCHAR_TYPE,
  ...perGeohashType(() => VARCHAR_TYPE),
};

/** float8[] (QuestDB sends every DOUBLE[] type as it, whatever the dimensionality). */
const FLOAT8_ARRAY_TYPE: PgType = { oid: 1022, size: -1, modifier: -1 };

export function pgTypeOf(type: ValueType): PgType {
  if (isDecimalType(type)) return VARCHAR_TYPE;
  return isArrayType(type) ? FLOAT8_ARRAY_TYPE : PG_TYPE_OF[type];
}

export const PARAMETER_OID_OF: Readonly<Record<ParameterType, number>> = {
  BOOLEAN: OID.BOOL, SHORT: OID.INT2, INT: OID.INT4, LONG: OID.INT8, FLOAT: OID.FLOAT4, DOUBLE: OID.FLOAT8,
  TIMESTAMP: OID.TIMESTAMP, DATE: OID.TIMESTAMP, VARCHAR: OID.VARCHAR, UUID: OID.UUID, CHAR: OID.BPCHAR, BINARY: OID.BYTEA,
};

/** The parameter type of a client-declared OID; undefined for 0 and `unknown` (infer from use). Throws nothing: `null` = unsupported. */
export function parameterTypeOfOid(oid: number): ParameterType | undefined | null {
  switch (oid) {
    case 0: case OID.UNKNOWN: return undefined;
    case OID.BOOL: return 'BOOLEAN';
    case OID.INT2: return 'SHORT';
    case OID.INT4: case OID.OID: return 'INT';
    case OID.INT8: return 'LONG';
    case OID.FLOAT4: return 'FLOAT';
    case OID.FLOAT8: case OID.NUMERIC: return 'DOUBLE';
    case OID.TIMESTAMP: case OID.TIMESTAMPTZ: case OID.DATE: return 'TIMESTAMP';
    case OID.TEXT: case OID.VARCHAR: case OID.NAME: case OID.BPCHAR: return 'VARCHAR';
    case OID.CHAR1: return 'CHAR';
    case OID.UUID: return 'UUID';
    case OID.BYTEA: return 'BINARY';
    default: return null;
  }
}
