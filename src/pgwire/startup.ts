// The start-up phase: the packet's request code (protocol 3.0, SSLRequest, GSSENCRequest, CancelRequest),
// the start-up parameters (`user`, `database` ignored, `application_name`, `options`), and the ParameterStatus
// values sent after authentication, which clients check (server_version, encodings, DateStyle, integer_datetimes).
import { BodyReader } from './body-reader.js';
import { protocolError } from './message-reader.js';
import { PG_SERVER_VERSION } from '../types/pg-types.js';

export const PROTOCOL_3_0 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;
/** Start-up parameters kept per connection; more are a protocol error. */
const STARTUP_PARAMETERS_MAX = 64;

export type StartupPacket =
  | { readonly kind: 'startup'; readonly parameters: ReadonlyMap<string, string> }
  | { readonly kind: 'ssl' }
  | { readonly kind: 'gssenc' }
  | { readonly kind: 'cancel'; readonly processId: number; readonly secretKey: number };

export function parseStartupPacket(body: Buffer): StartupPacket {
  const reader = new BodyReader(body);
  const code = reader.int32();
  switch (code) {
    case SSL_REQUEST: return { kind: 'ssl' };
    case GSSENC_REQUEST: return { kind: 'gssenc' };
    case CANCEL_REQUEST: return { kind: 'cancel', processId: reader.int32(), secretKey: reader.int32() };
    case PROTOCOL_3_0: break;
    default: throw protocolError(`unsupported frontend protocol ${code >>> 16}.${code & 0xffff}: server supports 3.0`);
  }
  const parameters = new Map<string, string>();
  while (reader.remaining > 0) {
    const name = reader.cstring();
    if (name === '') break;
    if (parameters.size >= STARTUP_PARAMETERS_MAX) throw protocolError('too many start-up parameters');
    parameters.set(name, reader.cstring());
  }
  return { kind: 'startup', parameters };
}

/**
 * `statement_timeout` from the `options` start-up parameter (`-c statement_timeout=5000`, also `--statement_timeout=5s`
 * spellings with units ms/s/min), the only option QuestDB honours; undefined when absent or 0 (no override).
 */
export function statementTimeoutOf(options: string | undefined): number | undefined {
  if (options === undefined) return undefined;
  const match = /(?:-c\s*|--)statement_timeout=(\d+)\s*(ms|s|min)?/.exec(options);
  if (match === null) return undefined;
  const value = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const ms = unit === 'min' ? value * 60_000 : unit === 's' ? value * 1000 : value;
  return ms > 0 ? ms : undefined;
}

/** The ParameterStatus messages sent after authentication. */
export function parameterStatuses(applicationName: string): ReadonlyArray<readonly [string, string]> {
  return [
    // A PostgreSQL version string, as QuestDB sends: clients parse it to pick protocol features.
    ['server_version', PG_SERVER_VERSION],
    ['server_encoding', 'UTF8'],
    ['client_encoding', 'UTF8'],
    ['DateStyle', 'ISO, MDY'],
    ['TimeZone', 'UTC'],
    ['integer_datetimes', 'on'],
    ['standard_conforming_strings', 'on'],
    ['IntervalStyle', 'postgres'],
    ['is_superuser', 'off'],
    ['application_name', applicationName],
  ];
}
