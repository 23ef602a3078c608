// SvcError → HTTP status and body. SQL errors become `{query,error,position}`; anything unexpected is a bug:
// HTTP 500 with the same shape, a C record and svc_unhandled_errors_total + 1 (through the diagnostics channel).
import type { ServerResponse } from 'node:http';
import { SqlError, SvcError, asLimitError } from '../core/errors.js';
import { jsonString } from '../types/value-format.js';
import { unhandledErrorChannel } from '../core/diagnostics.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJson(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Keep-Alive': 'timeout=5, max=10000' });
  res.end(body);
}

export function queryErrorBody(query: string, message: string, position: number): string {
  return `{"query":${jsonString(query)},"error":${jsonString(message)},"position":${position}}`;
}

/** Sends the error body for a statement; returns the status used. */
export function sendQueryError(res: ServerResponse, query: string, thrown: unknown): number {
  const error = asLimitError(thrown);
  if (error instanceof SqlError) {
    sendJson(res, error.httpStatus, queryErrorBody(query, error.message, error.position));
    return error.httpStatus;
  }
  // 503s are operating conditions (an object store down, back-pressure), not bugs: answered, never counted as unhandled.
  if (error instanceof SvcError && (error.httpStatus < 500 || error.httpStatus === 503)) {
    sendJson(res, error.httpStatus, queryErrorBody(query, error.message, 0));
    return error.httpStatus;
  }
  reportUnhandled('http', error);
  const message = error instanceof Error ? error.message : String(error);
  sendJson(res, 500, queryErrorBody(query, message, 0));
  return 500;
}

export function reportUnhandled(source: string, error: unknown): void {
  unhandledErrorChannel.publish({ source, origin: 'local', error: error instanceof Error ? error : new Error(String(error)) });
}
