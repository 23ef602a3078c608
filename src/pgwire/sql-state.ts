// Maps svc errors to PostgreSQL ErrorResponse fields: a SQLSTATE per error code, the message, and for SQL
// errors the `P` field, PostgreSQL's 1-based position in characters (code points) of the whole query text.
import { SqlError, SvcError, asLimitError, type ErrorCode } from '../core/errors.js';
import { unhandledErrorChannel, type QueryOutcome } from '../core/diagnostics.js';
import type { ErrorFields } from './message-writer.js';

const SQL_STATE_OF: Partial<Record<ErrorCode, string>> = {
  SVC_SQL_SYNTAX: '42601',
  SVC_SQL_SEMANTIC: '42000',
  SVC_SQL_RUNTIME: '22000',
  SVC_SQL_TIMEOUT: '57014',
  SVC_SQL_CANCELLED: '57014',
  SVC_SQL_LIMIT: '54000',
  SVC_FORBIDDEN: '42501',
  SVC_AUTH_REQUIRED: '28P01',
  SVC_OVERLOADED: '53300',
  SVC_PG_PROTOCOL: '08P01',
  SVC_STORAGE: '58030',
  SVC_IPC: '58000',
  SVC_SNAPSHOT: '55000',
  SVC_INTERNAL: 'XX000',
};

/** Errors whose position points into the statement (others carry position 0 meaning "none"). */
const POSITIONED = new Set<ErrorCode>(['SVC_SQL_SYNTAX', 'SVC_SQL_SEMANTIC', 'SVC_SQL_RUNTIME']);

/** More precise classes PostgreSQL clients test for (psycopg's UndefinedTable, UndefinedColumn). */
function semanticState(message: string): string {
  if (message.startsWith('table does not exist')) return '42P01';
  if (message.startsWith('Invalid column') || message.startsWith('column not found')) return '42703';
  return '42000';
}

/** `offset` is where the statement starts in `queryText`; the result is 1-based code points. */
function positionOf(queryText: string, offset: number, position: number): number {
  const end = Math.min(queryText.length, offset + position);
  let codePoints = 0;
  for (let i = 0; i < end; i++) {
    const code = queryText.charCodeAt(i);
    // A low surrogate continues the code point its high surrogate started.
    if (code < 0xdc00 || code > 0xdfff) codePoints++;
  }
  return codePoints + 1;
}

export function errorFieldsOf(thrown: unknown, queryText = '', statementOffset = 0): ErrorFields {
  const error = asLimitError(thrown);
  if (error instanceof SvcError) {
    const state = error.code === 'SVC_SQL_SEMANTIC' ? semanticState(error.message) : (SQL_STATE_OF[error.code] ?? '58000');
    const positioned = error instanceof SqlError && POSITIONED.has(error.code) && queryText !== '';
    return {
      severity: 'ERROR', sqlState: state, message: error.message,
      ...(positioned ? { position: positionOf(queryText, statementOffset, error.position) } : {}),
    };
  }
  unhandledErrorChannel.publish({ source: 'pg', origin: 'local', error: error instanceof Error ? error : new Error(String(error)) });
  return { severity: 'ERROR', sqlState: 'XX000', message: error instanceof Error ? error.message : String(error) };
}

export function isProtocolError(error: unknown): boolean {
  return error instanceof SvcError && error.code === 'SVC_PG_PROTOCOL';
}

/** The svc_pg_queries_total outcome of a failed statement. */
export function outcomeOf(error: unknown): QueryOutcome {
  if (error instanceof SqlError && error.code === 'SVC_SQL_TIMEOUT') return 'timeout';
  if (error instanceof SqlError && error.code === 'SVC_SQL_CANCELLED') return 'cancelled';
  return 'error';
}
