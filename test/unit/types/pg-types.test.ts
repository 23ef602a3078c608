// svc's PostgreSQL type table: QuestDB's OID for each column type, format_type's spellings, and pg_type's
// array rows pointing at their elements and back.
import test from 'ava';
import { COLUMN_TYPES } from '../../../src/types/column-type.js';
import { PG_TYPES, formatPgType, pgColumnType, pgDataTypeName, pgTypeByOid } from '../../../src/types/pg-types.js';

test('every column type has QuestDB\'s OID, and that OID is listed in pg_type', (t) => {
  const expected: Record<string, number> = {
    BOOLEAN: 16, BYTE: 21, SHORT: 21, CHAR: 1042, INT: 23, LONG: 20, FLOAT: 700, DOUBLE: 701, DATE: 1114, TIMESTAMP: 1114,
    SYMBOL: 1043, STRING: 1043, VARCHAR: 1043, UUID: 2950, IPV4: 1043, BINARY: 17, LONG256: 1043,
    TIMESTAMP_NS: 1114,
  };
  for (const type of COLUMN_TYPES) {
    t.is(pgColumnType(type).oid, expected[type], type);
    t.not(pgTypeByOid(pgColumnType(type).oid), undefined, type);
  }
  t.is(pgColumnType('CHAR').typmod, 5);
  // QuestDB sends GEOHASH and INTERVAL as varchar.
  t.is(pgColumnType('GEOHASH(20b)').oid, 1043);
  t.is(pgColumnType('INTERVAL').oid, 1043);
});

test('format_type spells types as psql prints them, with typmods for character types', (t) => {
  t.is(formatPgType(1114, -1), 'timestamp without time zone');
  t.is(formatPgType(1043, -1), 'character varying');
  t.is(formatPgType(1043, 36), 'character varying(32)');
  t.is(formatPgType(1042, 5), 'character(1)');
  t.is(formatPgType(701, -1), 'double precision');
  t.is(formatPgType(1016, -1), 'bigint[]');
  t.is(formatPgType(424242, -1), null);
});

test('array types and their elements point at each other; OIDs are unique and sorted', (t) => {
  const oids = PG_TYPES.map((type) => type.oid);
  t.deepEqual(oids, [...new Set(oids)].sort((a, b) => a - b));
  for (const type of PG_TYPES) {
    if (type.category === 'A') t.is(pgTypeByOid(type.elementOid)?.arrayOid, type.oid, type.name);
    else if (type.arrayOid !== 0) t.is(pgTypeByOid(type.arrayOid)?.elementOid, type.oid, type.name);
  }
  t.is(pgTypeByOid(1022)?.name, '_float8');
});

test('information_schema data_type names', (t) => {
  t.is(pgDataTypeName(23), 'integer');
  t.is(pgDataTypeName(1007), 'ARRAY');
  t.is(pgDataTypeName(424242), 'USER-DEFINED');
});
