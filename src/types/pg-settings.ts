// The session parameters PostgreSQL tools read with SHOW, current_setting() and pg_settings, with the fixed
// values svc runs with (UTF8, ISO dates, UTC, standard strings). SET of any parameter is accepted and has no
// effect, so these values are what every session sees.
import { PG_SERVER_VERSION, PG_SERVER_VERSION_NUM } from './pg-types.js';

export interface PgSetting {
  /** Name as PostgreSQL spells it (SHOW's column name); lookups are case-insensitive. */
  readonly name: string;
  readonly setting: string;
  readonly description: string;
}

export const PG_SETTINGS: readonly PgSetting[] = [
  { name: 'application_name', setting: '', description: 'Sets the application name to be reported in statistics and logs.' },
  { name: 'client_encoding', setting: 'UTF8', description: "Sets the client's character set encoding." },
  { name: 'DateStyle', setting: 'ISO, MDY', description: 'Sets the display format for date and time values.' },
  { name: 'default_transaction_isolation', setting: 'read committed', description: 'Sets the transaction isolation level of each new transaction.' },
  { name: 'default_transaction_read_only', setting: 'off', description: 'Sets the default read-only status of new transactions.' },
  { name: 'extra_float_digits', setting: '1', description: 'Sets the number of digits displayed for floating-point values.' },
  { name: 'integer_datetimes', setting: 'on', description: 'Shows whether datetimes are integer based.' },
  { name: 'IntervalStyle', setting: 'postgres', description: 'Sets the display format for interval values.' },
  { name: 'is_superuser', setting: 'on', description: 'Shows whether the current user is a superuser.' },
  { name: 'lc_collate', setting: 'C', description: "Shows the collation order locale." },
  { name: 'lc_ctype', setting: 'C', description: 'Shows the character classification and case conversion locale.' },
  { name: 'lc_messages', setting: 'C', description: 'Sets the language in which messages are displayed.' },
  { name: 'max_identifier_length', setting: '63', description: 'Shows the maximum identifier length.' },
  { name: 'max_index_keys', setting: '32', description: 'Shows the maximum number of index keys.' },
  { name: 'search_path', setting: '"$user", public', description: 'Sets the schema search order for names that are not schema-qualified.' },
  { name: 'server_encoding', setting: 'UTF8', description: 'Shows the server (database) character set encoding.' },
  { name: 'server_version', setting: PG_SERVER_VERSION, description: 'Shows the server version.' },
  { name: 'server_version_num', setting: PG_SERVER_VERSION_NUM, description: 'Shows the server version as an integer.' },
  { name: 'standard_conforming_strings', setting: 'on', description: "Causes '...' strings to treat backslashes literally." },
  { name: 'statement_timeout', setting: '0', description: 'Sets the maximum allowed duration of any statement.' },
  { name: 'TimeZone', setting: 'UTC', description: 'Sets the time zone for displaying and interpreting time stamps.' },
  { name: 'transaction_isolation', setting: 'read committed', description: "Sets the current transaction's isolation level." },
  { name: 'transaction_read_only', setting: 'off', description: "Sets the current transaction's read-only status." },
];

const byName = new Map(PG_SETTINGS.map((setting) => [setting.name.toLowerCase(), setting]));

/** The setting called `name` (case-insensitive), or undefined when svc does not know it. */
export function findPgSetting(name: string): PgSetting | undefined {
  return byName.get(name.toLowerCase());
}
