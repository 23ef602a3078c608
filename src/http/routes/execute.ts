// GET /exec and /api/v1/sql/execute: compile, then run a query and stream JSON, or forward a write statement
// to the primary. Errors before the first row give 400 `{query,error,position}`; after it, the body is closed
// with QuestDB's error tail. A closed socket or the timeout cancels the query between batches. `cols` projects
// the result by column name (column-list.ts); query text that is not UTF-8 is refused before parsing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalog, ColumnBatch, Cursor, ExecContext, OutputColumn, QueryFactory } from '../../sql/compiler.js';
import { compileCached, createExecContext, createRuntime, recordParallelRun, runInParallel, withColdFaults } from '../../sql/compiler.js';
import { runWithColdReads } from '../cold-read-scope.js';
import type { WriteResult, WriterClient } from '../../engine/writer-client.js';
import { checkQueryLength, parseExecuteParams } from '../query-params.js';
import type { ExecuteParams } from '../query-params.js';
import { resolveColumnList, type ColumnListResolution } from '../column-list.js';
import { JSON_CONTENT_TYPE, sendJson, sendQueryError } from '../error-response.js';
import { JsonResultWriter } from '../../output/json-writer.js';
import { isEmptyStatement } from '../../sql/compiler.js';
import { SqlError } from '../../core/errors.js';
import { queryChannel } from '../../core/diagnostics.js';
import type { Principal } from '../auth/authenticator.js';
import { checkWritePermitted } from '../auth/write-permission.js';
import { tokenResultBody } from '../auth/token-result.js';
import { jsonString } from '../../types/value-format.js';
import { getLogger } from '../../log/logger.js';

const log = getLogger('http');

export interface SqlRouteDeps {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly queryTimeoutMs: number;
  readonly readOnly: boolean;
  /** http.query.max.length, in UTF-16 code units. */
  readonly queryTextLengthMax: number;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function statementTimeoutMs(req: IncomingMessage, fallback: number): number {
  const header = req.headers['statement-timeout'];
  const value = typeof header === 'string' ? Number(header) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The answer to text with no statement in it (empty, blanks, comments), which QuestDB echoes back. */
export function emptyQueryBody(version: number, query: string): string {
  return `{"${version >= 2 ? 'notice' : 'error'}":"empty query","query":${jsonString(query)},"position":"0"}`;
}

/** QuestDB's 400 for query bytes that are not UTF-8; `echo` is url-param-bytes.ts's rendering of them. */
export function badUtf8QueryBody(echo: string): string {
  return `{"query":${jsonString(echo)},"error":"Bad UTF8 encoding in query text","position":0}`;
}

/** The 400 bodies of a `cols` list QuestDB refuses: no `position`, and no `query` for bytes that are not UTF-8. */
function columnListErrorBody(query: string, failure: Exclude<ColumnListResolution, { kind: 'indexes' }>): string {
  switch (failure.kind) {
    case 'badUtf8': return '{"error":"utf8 error in column list"}';
    case 'empty': return `{"query":${jsonString(query)},"error":"empty column in query parameter"}`;
    case 'unknown': return `{"query":${jsonString(query)},"error":${jsonString(`column not found: '${failure.name}'`)}}`;
  }
}

function writeResultBody(query: string, result: WriteResult): string {
  switch (result.kind) {
    case 'ddl': return '{"ddl":"OK"}';
    case 'update': return `{"dml":"OK","updated":${result.rows}}`;
    case 'insert': return '{"dml":"OK"}';
    case 'token': return tokenResultBody(query, result.account, result.token, result.expiresAtMs);
  }
}

export async function handleExecute(req: IncomingMessage, res: ServerResponse, deps: SqlRouteDeps, principal: Principal): Promise<void> {
  const params = parseExecuteParams(req.url ?? '');
  if (params.badUtf8QueryEcho !== undefined) {
    sendJson(res, 400, badUtf8QueryBody(params.badUtf8QueryEcho));
    return;
  }
  if (isEmptyStatement(params.query)) {
    sendJson(res, 200, emptyQueryBody(params.version, params.query));
    return;
  }
  const timeoutMs = statementTimeoutMs(req, deps.queryTimeoutMs);
  await runWithColdReads(res, timeoutMs, () => executeStatement(res, params, deps, principal, timeoutMs));
}

async function executeStatement(res: ServerResponse, params: ExecuteParams, deps: SqlRouteDeps, principal: Principal, timeoutMs: number): Promise<void> {
  const started = process.hrtime.bigint();
  const cancellation = { deadlineMs: Date.now() + timeoutMs, cancelled: false, reason: 'cancelled by user' };
  const onClose = (): void => { if (!res.writableFinished) cancellation.cancelled = true; };
  res.on('close', onClose);
  let outcome: 'ok' | 'error' | 'cancelled' | 'timeout' = 'ok';
  try {
    checkQueryLength(params.query, deps.queryTextLengthMax);
    const compiled = await withColdFaults(() => compileCached(params.query, deps.catalog));
    const compiledAt = process.hrtime.bigint();
    if (compiled.kind === 'write') {
      checkWritePermitted(compiled.statement, deps.readOnly, principal);
      // The statement's own limit (Statement-Timeout or query.timeout), as for reads: INSERT ... SELECT runs the query.
      const result = await deps.writer.executeWrite(compiled.statement, { timeoutMs });
      sendJson(res, 200, writeResultBody(params.query, result));
      return;
    }
    const ctx = createExecContext(createRuntime(Date.now() * 1000), cancellation, timeoutMs);
    const projection = params.cols === null ? undefined : resolveColumnList(params.cols, compiled.factory.columns);
    if (projection !== undefined && projection.kind !== 'indexes') {
      outcome = 'error';
      sendJson(res, 400, columnListErrorBody(params.query, projection));
      return;
    }
    // A large query of a splittable shape runs on the parallel threads; this thread awaits (and serves others).
    const chosenAt = performance.now();
    const cpuAtChoice = process.cpuUsage();
    const parallel = compiled.kind === 'query'
      ? await runInParallel({
        text: params.query, factory: compiled.factory, statement: compiled.statement, snapshots: compiled.snapshots, catalog: deps.catalog, cancellation, timeoutMs,
        queryNowMicros: ctx.rt.queryNow,
      })
      : undefined;
    await streamQuery(res, params, parallel?.factory ?? compiled.factory, projection?.indexes, ctx, Number(compiledAt - started));
    if (parallel?.way !== undefined) {
      const cpu = process.cpuUsage(cpuAtChoice);
      recordParallelRun(params.query, parallel.way, performance.now() - chosenAt, (cpu.user + cpu.system) / 1000);
    }
  } catch (error) {
    outcome = error instanceof SqlError && error.code === 'SVC_SQL_TIMEOUT' ? 'timeout' : cancellation.cancelled ? 'cancelled' : 'error';
    if (!res.headersSent) sendQueryError(res, params.query, error);
    else endAfterStreamFailure(res, params.query, error, cancellation.cancelled);
  } finally {
    res.off('close', onClose);
    queryChannel.publish({ endpoint: 'execute', outcome, durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
  }
}

/**
 * A query that fails after its 200 and first rows went out cannot send an error any more. Ending the response
 * would write the last chunk, and the client would take the cut JSON for a whole answer; the connection is
 * reset instead, so every client sees a failed request. A failure that is neither a statement's own (timeout,
 * limits: SqlErrors) nor the client's leaving is logged, so a reset always has a record saying why.
 */
function endAfterStreamFailure(res: ServerResponse, query: string, error: unknown, clientGone: boolean): void {
  if (!(error instanceof SqlError) && !clientGone) log.error(`query failed after its rows began to stream [query=${query.slice(0, 200)}]`, error);
  res.destroy();
}

/**
 * Streams the rows of a compiled query; `projection` lists the result columns to send, in order (`cols`). The
 * timestamp index stays that of the whole result even then, as QuestDB sends it.
 */
async function streamQuery(
  res: ServerResponse, params: ExecuteParams, factory: QueryFactory, projection: readonly number[] | undefined, ctx: ExecContext, compilerNanos: number,
): Promise<void> {
  const executeStart = process.hrtime.bigint();
  const columns = projection === undefined ? factory.columns : projection.map((index) => factory.columns[index]);
  const writer = new JsonResultWriter({ query: params.query, columns, timestampIndex: factory.timestampIndex, skipMetadata: params.skipMetadata, quoteLargeNum: params.quoteLargeNum });
  // Cold chunks a scan meets in its first batch are fetched and the cursor reopened; later batches read what the
  // statement fetched after compiling.
  const opened = await withColdFaults(() => {
    const fresh: Cursor = factory.open(ctx);
    try {
      return { cursor: fresh, first: fresh.nextBatch() };
    } catch (error) {
      fresh.close();
      throw error;
    }
  });
  const cursor = opened.cursor;
  let position = 0;
  let sent = 0;
  try {
    let batch = opened.first;
    res.writeHead(200, { 'Content-Type': JSON_CONTENT_TYPE, 'Keep-Alive': 'timeout=5, max=10000' });
    let chunk = writer.head();
    try {
      while (batch !== undefined) {
        const from = Math.max(0, params.skip - position);
        const to = Math.min(batch.rowCount, params.stop - position);
        if (to > from) {
          chunk += writer.rows(projection === undefined ? batch : projectBatch(batch, projection), from, to);
          sent += to - from;
        }
        position += batch.rowCount;
        if (position >= params.stop && !params.count) break;
        if (chunk.length > 65536) {
          res.write(chunk);
          chunk = '';
        }
        // Other requests get the loop between two batches, not after the last one: a result of one batch (every
        // aggregate) is answered in the turn that computed it.
        batch = cursor.nextBatch();
        if (batch === undefined) break;
        await yieldToEventLoop();
        ctx.checkCancelled();
      }
      const count = params.count ? position : sent === 0 ? 0 : params.skip + sent;
      const executeNanos = Number(process.hrtime.bigint() - executeStart);
      const timings = params.timings ? { compiler: compilerNanos, execute: executeNanos, count: 0 } : undefined;
      res.end(chunk + writer.tail(count, timings, params.explain ? { jitCompiled: ctx.jitCompiled } : undefined));
    } catch (error) {
      if (error instanceof SqlError) res.end(chunk + writer.errorTail(sent, error.message, error.position));
      else throw error;
    }
  } finally {
    cursor.close();
  }
}

/** The listed vectors of a batch, in list order; one small array per batch, never per row. */
function projectBatch(batch: ColumnBatch, projection: readonly number[]): ColumnBatch {
  return { rowCount: batch.rowCount, vectors: projection.map((index) => batch.vectors[index]) };
}
