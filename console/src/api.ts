// The console's view of the HTTP API: builds /exec and /exp requests and sends them with the credentials the
// user entered (credentials.ts); answers are narrowed from `unknown` by exec-answer.ts.
import { authorizedFetch } from './credentials.js';
import { parseExecBody } from './exec-answer.js';
import type { ExecResult, RowsResult } from './exec-answer.js';

export { parseExecBody } from './exec-answer.js';
export type { Cell, Column, ExecResult, RowsResult, Timings } from './exec-answer.js';

export interface ExecOptions {
  /** QuestDB's `limit` parameter: `n` (first n rows) or `lo,hi` (rows lo..hi, 1-based, inclusive). */
  readonly limit?: string;
  readonly signal?: AbortSignal;
}

export async function execute(query: string, options: ExecOptions = {}): Promise<ExecResult> {
  const params = new URLSearchParams({ query, count: 'true', timings: 'true' });
  if (options.limit !== undefined) params.set('limit', options.limit);
  const response = await authorizedFetch(`exec?${params.toString()}`, options.signal === undefined ? {} : { signal: options.signal });
  const text = await response.text();
  try {
    return parseExecBody(JSON.parse(text));
  } catch {
    return { kind: 'error', message: `HTTP ${response.status}: ${text.trim().slice(0, 200)}`, position: 0 };
  }
}

/** Runs a statement that must return rows (schema look-ups); a failure is thrown as an Error with the server's text. */
export async function queryRows(query: string): Promise<RowsResult> {
  const result = await execute(query);
  if (result.kind === 'rows') return result;
  throw new Error(result.kind === 'error' ? result.message : `${query}: no rows returned`);
}

export type ExportFormat = 'csv' | 'parquet';

export function exportUrl(query: string, format: ExportFormat, filename: string): string {
  const params = new URLSearchParams({ query, fmt: format, filename });
  return `exp?${params.toString()}`;
}

/** SQL string literal for a table name passed to table_columns(). */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
