// GET /exp: runs a query and streams the result as CSV (default) or Parquet (fmt=parquet), with bounded
// memory: batches go out as they are produced, waiting for the socket to drain. Errors before the first byte
// are 400 `{query,error,position}`; a closed socket or the timeout stops the query.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ColumnBatch, Cursor, ExecContext, QueryFactory } from '../../sql/compiler.js';
import { compile, createExecContext, createRuntime, limitFactory, withColdFaults } from '../../sql/compiler.js';
import { runWithColdReads } from '../cold-read-scope.js';
import { checkQueryLength, searchParamsOf, flag } from '../query-params.js';
import { queryErrorBody, sendJson, sendQueryError } from '../error-response.js';
import { createCsvWriter } from '../../output/csv-writer.js';
import { checkParquetColumns, parseParquetParams } from '../../output/parquet-params.js';
import { encodeParquet } from '../../output/parquet-thread.js';
import { parquetExportDownload } from '../../output/partitioned-export.js';
import { SqlError } from '../../core/errors.js';
import { queryChannel } from '../../core/diagnostics.js';
import type { SqlRouteDeps } from './execute.js';

export interface ExportRouteDeps extends SqlRouteDeps {
  readonly exportTimeoutMs: number;
}

/** `n` first n, `lo,hi` rows (lo, hi], `-n` last n; anything unparseable means no limit. */
function parseExportLimit(text: string | null): { lo: number; hi?: number } | undefined {
  if (text === null || text.trim() === '') return undefined;
  const parts = text.split(',');
  const numbers = parts.map((part) => (/^\s*-?\d+\s*$/.test(part) ? Number(part) : NaN));
  if (numbers.some(Number.isNaN) || numbers.length > 2) return undefined;
  return numbers.length === 1 ? { lo: numbers[0] } : { lo: numbers[0], hi: numbers[1] };
}

function writeChunk(res: ServerResponse, chunk: string | Uint8Array): Promise<void> {
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => { res.off('drain', done); res.off('close', done); resolve(); };
    res.once('drain', done);
    res.once('close', done);
  });
}

async function* batchesOf(cursor: Cursor, first: ColumnBatch | undefined, ctx: ExecContext): AsyncGenerator<ColumnBatch> {
  for (let batch = first; batch !== undefined; batch = cursor.nextBatch()) {
    ctx.checkCancelled();
    if (batch.rowCount > 0) yield batch;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function handleExport(req: IncomingMessage, res: ServerResponse, deps: ExportRouteDeps): Promise<void> {
  const params = searchParamsOf(req.url ?? '');
  const query = params.get('query') ?? '';
  if (query.trim() === '') {
    sendJson(res, 400, '{"query":"","error":"No query text","position":0}');
    return;
  }
  const format = (params.get('fmt') ?? 'csv').toLowerCase();
  if (format !== 'csv' && format !== 'parquet') {
    sendJson(res, 400, queryErrorBody(query, `unrecognised format [format=${format}]`, 0));
    return;
  }
  const timeoutSeconds = Number(params.get('timeout'));
  const timeoutMs = Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds * 1000 : format === 'parquet' ? deps.exportTimeoutMs : deps.queryTimeoutMs;
  await runWithColdReads(res, timeoutMs, () => exportStatement(res, params, deps, query, format, timeoutMs));
}

async function exportStatement(res: ServerResponse, params: URLSearchParams, deps: ExportRouteDeps, query: string, format: string, timeoutMs: number): Promise<void> {
  const started = process.hrtime.bigint();
  const cancellation = { deadlineMs: Date.now() + timeoutMs, cancelled: false, reason: 'cancelled by user' };
  const onClose = (): void => { if (!res.writableFinished) cancellation.cancelled = true; };
  res.on('close', onClose);
  let outcome: 'ok' | 'error' | 'cancelled' | 'timeout' = 'ok';
  let cursor: Cursor | undefined;
  try {
    checkQueryLength(query, deps.queryTextLengthMax);
    const compiled = await withColdFaults(() => compile(query, deps.catalog));
    if (compiled.kind === 'write' && deps.readOnly) throw new SqlError('Write permission denied', 0, 'SVC_FORBIDDEN', 403);
    if (compiled.kind === 'write') throw new SqlError('/exp accepts queries only', 0);
    const limit = parseExportLimit(params.get('limit'));
    const factory: QueryFactory = limit === undefined ? compiled.factory : limitFactory(compiled.factory, limit.lo, limit.hi);
    const parquet = format === 'parquet' ? checkParquetColumns(parseParquetParams(Object.fromEntries(params)), factory.columns, factory.timestampIndex) : undefined;
    const ctx = createExecContext(createRuntime(Date.now() * 1000), cancellation, timeoutMs);
    const opened = await withColdFaults(() => {
      const fresh = factory.open(ctx);
      try {
        return { cursor: fresh, first: fresh.nextBatch() };
      } catch (error) {
        fresh.close();
        throw error;
      }
    });
    cursor = opened.cursor;
    const first = opened.first;
    // The name goes into a header: anything but printable ASCII (and the quote and backslash that would end or
    // escape the quoted value) becomes `_`, since Node refuses control and non-Latin-1 characters in headers.
    const name = (params.get('filename') ?? `questdb-query-${Date.now()}`).replace(/[^\x20-\x7e]|["\\]/g, '_');
    if (parquet === undefined) {
      const delimiter = params.get('delimiter');
      const writer = createCsvWriter(factory.columns, { delimiter: delimiter !== null && delimiter.length === 1 ? delimiter : ',', header: !flag(params, 'nm') });
      res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.csv"` });
      await writeChunk(res, writer.header());
      for await (const batch of batchesOf(cursor, first, ctx)) await writeChunk(res, writer.writeBatch(batch));
    } else {
      const download = parquetExportDownload(parquet);
      let headersSent = false;
      for await (const bytes of encodeParquet({ columns: factory.columns, options: parquet, timestampIndex: factory.timestampIndex, batches: batchesOf(cursor, first, ctx) })) {
        if (!headersSent) {
          res.writeHead(200, { 'Content-Type': download.contentType, 'Content-Disposition': `attachment; filename="${name}${download.extension}"` });
          headersSent = true;
        }
        await writeChunk(res, bytes);
      }
    }
    res.end();
  } catch (error) {
    outcome = error instanceof SqlError && error.code === 'SVC_SQL_TIMEOUT' ? 'timeout' : cancellation.cancelled ? 'cancelled' : 'error';
    if (!res.headersSent) sendQueryError(res, query, error);
    else res.destroy();
  } finally {
    cursor?.close();
    res.off('close', onClose);
    queryChannel.publish({ endpoint: 'export', outcome, durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
  }
}
