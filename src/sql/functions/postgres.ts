// PostgreSQL's session and catalog functions that tools call at connect and while browsing a schema: version(),
// current_database(), current_user, format_type(), pg_table_is_visible()... svc has one database, one schema
// (`public`) and reports one owner role, so most answers are fixed; the catalog ones read svc's type table.
// `pg_catalog.f(...)` is parsed as `f(...)`, so the qualified spellings resolve here too.
import type { ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import { DATABASE_NAME, OWNER_ROLE_NAME, OWNER_ROLE_OID, PG_SERVER_VERSION, formatPgType } from '../../types/pg-types.js';
import { findPgSetting } from '../../types/pg-settings.js';
import { releaseVersion } from '../../core/release-version.js';
import { constantText } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

const fixedText = (name: string, value: string | null): ScalarFunctionDef => ({
  name, args: [], returns: 'VARCHAR', emit: (_args, constant) => constant(value),
});

/** format_type(type_oid, typmod); a NULL typmod means none. */
function formatType(oid: number, typmod: number): string | null {
  return Number.isNaN(oid) ? null : formatPgType(oid, Number.isNaN(typmod) ? -1 : typmod);
}

/** pg_get_userbyid: PostgreSQL's text for an OID no role has. */
function userById(oid: number): string | null {
  if (Number.isNaN(oid)) return null;
  return oid === OWNER_ROLE_OID ? OWNER_ROLE_NAME : `unknown (OID=${oid})`;
}

/** pg_size_pretty: bytes below 10 kB as `n bytes`, then kB, MB, GB, TB (1024 each), rounded half up. */
function prettySize(bytes: number): string | null {
  if (Number.isNaN(bytes)) return null;
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  // Each step halves once more than the unit, as PostgreSQL does: a unit is used once the value reaches 10 × 1024.
  while (Math.abs(value) >= 10 * 1024 - 0.5 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value)} ${units[unit]}`;
}

/** quote_ident: double-quotes a name unless it is a plain lower-case identifier. */
function quoteIdent(name: string | null): string | null {
  if (name === null) return null;
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** current_setting('name'): the value SHOW gives, resolved once at bind time. */
function prepareSetting(args: readonly BoundExpr[], position: number): string {
  const name = constantText(args[0]);
  if (name === undefined || name === null) throw sqlSemanticError('setting name expected', args[0]?.position ?? position);
  const setting = findPgSetting(name);
  if (setting === undefined) throw sqlSemanticError(`unrecognized configuration parameter "${name}"`, args[0]?.position ?? position);
  return setting.setting;
}

const alwaysTrue = (name: string, args: ScalarFunctionDef['args']): ScalarFunctionDef => ({ name, args, returns: 'BOOLEAN', emit: () => 'true' });
const alwaysNull = (name: string, args: ScalarFunctionDef['args']): ScalarFunctionDef => ({ name, args, returns: 'VARCHAR', emit: () => 'null' });

export const POSTGRES_FUNCTIONS: readonly ScalarFunctionDef[] = [
  fixedText('version', `PostgreSQL ${PG_SERVER_VERSION.replace(/ .*/, '')} (svc ${releaseVersion()}) on x86_64-pc-linux-gnu, 64-bit`),
  fixedText('current_database', DATABASE_NAME),
  fixedText('current_catalog', DATABASE_NAME),
  fixedText('current_schema', 'public'),
  fixedText('current_user', OWNER_ROLE_NAME),
  fixedText('session_user', OWNER_ROLE_NAME),
  fixedText('current_role', OWNER_ROLE_NAME),
  { name: 'current_setting', args: ['TEXT'], returns: 'VARCHAR', prepare: prepareSetting, emit: (_args, constant, _types, value) => constant(value) },
  { name: 'pg_backend_pid', args: [], returns: 'INT', emit: (_args, constant) => constant(process.pid) },
  // svc has no array columns; the catalogs' list-valued columns (datacl, polroles) are text already.
  { name: 'array_to_string', args: ['TEXT', 'TEXT'], returns: 'VARCHAR', emit: ([list]) => list },
  { name: 'pg_encoding_to_char', args: ['INT'], returns: 'VARCHAR', emit: () => "'UTF8'" },
  { name: 'format_type', args: ['INT', 'INT'], returns: 'VARCHAR', emit: ([oid, typmod], constant) => `${constant(formatType)}(${oid}, ${typmod})` },
  { name: 'pg_get_userbyid', args: ['INT'], returns: 'VARCHAR', emit: ([oid], constant) => `${constant(userById)}(${oid})` },
  { name: 'quote_ident', args: ['TEXT'], returns: 'VARCHAR', emit: ([name], constant) => `${constant(quoteIdent)}(${name})` },
  { name: 'pg_size_pretty', args: ['LONG'], returns: 'VARCHAR', emit: ([bytes], constant) => `${constant(prettySize)}(${bytes})` },
  // Relation sizes are not tracked per relation OID (table_partitions() reports them per partition): NULL, as
  // PostgreSQL answers for a relation it does not know.
  { name: 'pg_table_size', args: ['INT'], returns: 'LONG', emit: () => 'NaN' },
  { name: 'pg_relation_size', args: ['INT'], returns: 'LONG', emit: () => 'NaN' },
  { name: 'pg_total_relation_size', args: ['INT'], returns: 'LONG', emit: () => 'NaN' },
  alwaysTrue('pg_table_is_visible', ['INT']),
  alwaysTrue('pg_type_is_visible', ['INT']),
  alwaysTrue('has_table_privilege', ['ANY', 'TEXT']),
  alwaysTrue('has_table_privilege', ['TEXT', 'ANY', 'TEXT']),
  alwaysTrue('has_schema_privilege', ['ANY', 'TEXT']),
  alwaysTrue('has_schema_privilege', ['TEXT', 'ANY', 'TEXT']),
  alwaysTrue('has_database_privilege', ['ANY', 'TEXT']),
  alwaysTrue('has_database_privilege', ['TEXT', 'ANY', 'TEXT']),
  // svc stores no column defaults, partition bounds or comments: PostgreSQL's answer for "none" is NULL.
  alwaysNull('pg_get_expr', ['ANY', 'INT']),
  alwaysNull('pg_get_expr', ['ANY', 'INT', 'BOOLEAN']),
  alwaysNull('obj_description', ['INT']),
  alwaysNull('obj_description', ['INT', 'TEXT']),
  alwaysNull('col_description', ['INT', 'INT']),
  alwaysNull('shobj_description', ['INT', 'TEXT']),
];
