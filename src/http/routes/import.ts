// POST /imp: streams a multipart upload (busboy) through an ImportSession into a staging segment, then asks
// the primary to commit it. Parts: optional `schema` (JSON, before `data`) and `data` (the file). A client that
// disconnects mid-upload leaves nothing behind: the segment is deleted and the table is unchanged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import type { Catalog } from '../../sql/compiler.js';
import type { WriterClient } from '../../engine/writer-client.js';
import { createImportSession, type ImportSession } from '../../import/import-session.js';
import { parsePoolOf } from '../../import/parse-pool.js';
import { parseSchemaPart, type ImportSchema } from '../../import/schema-part.js';
import { checkImportTableName, sanitizeTableName } from '../../import/import-names.js';
import { importReportFromSummary, renderImportFailure, renderImportReportJson, renderImportReportText } from '../../import/import-report.js';
import { createImportStaging, type ImportStaging, type StagingLayout } from '../../import/staging.js';
import { flag, searchParamsOf } from '../query-params.js';
import { ImportError, SvcError, asStorageError } from '../../core/errors.js';
import { importRowsChannel, queryChannel } from '../../core/diagnostics.js';
import { reportUnhandled } from '../error-response.js';
import type { ColumnType } from '../../types/column-type.js';
import { partitionUnitOf } from '../../types/timestamp.js';
import type { ImportAtomicity } from '../../import/import-session.js';
import type { ActiveImports } from '../active-imports.js';

export interface ImportRouteDeps {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
  readonly analysisMaxLines: number;
  /** Threads of this process that convert large uploads; 0 = none. */
  readonly importParseThreadCount: number;
  readonly readOnly: boolean;
  /** Uploads in progress, rolled back by shutdown; absent in tests that build a handler alone. */
  readonly activeImports?: ActiveImports;
}

interface ImportParams {
  readonly name?: string;
  readonly atomicity: ImportAtomicity;
  readonly delimiter?: string;
  readonly json: boolean;
  readonly forceHeader: boolean;
  readonly overwrite: boolean;
  readonly create: boolean;
  readonly skipLev: boolean;
  readonly partitionBy: string;
  readonly timestamp?: string;
}

function parseImportParams(url: string): ImportParams {
  const params = searchParamsOf(url);
  const atomicity = params.get('atomicity');
  const name = params.get('name');
  const delimiter = params.get('delimiter');
  const timestamp = params.get('timestamp');
  return {
    atomicity: atomicity === 'abort' || atomicity === 'skipRow' ? atomicity : 'skipCol',
    json: params.get('fmt') === 'json',
    forceHeader: flag(params, 'forceHeader'),
    overwrite: flag(params, 'overwrite'),
    create: params.get('create')?.toLowerCase() !== 'false',
    skipLev: flag(params, 'skipLev'),
    partitionBy: (params.get('partitionBy') ?? 'NONE').toUpperCase(),
    // The name parameter is used as given, as QuestDB does; it is checked (checkImportTableName) before any
    // file is written, so a name that would leave db/ is refused. Only a file name is cleaned.
    ...(name === null || name === '' ? {} : { name }),
    ...(delimiter === null || delimiter.length !== 1 ? {} : { delimiter }),
    ...(timestamp === null || timestamp === '' ? {} : { timestamp }),
  };
}

function send(res: ServerResponse, status: number, params: ImportParams, body: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': params.json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' });
  res.end(body);
}

interface ExistingTable {
  readonly columns: { name: string; type: ColumnType }[];
  readonly layout: StagingLayout;
}

function existingTable(catalog: Catalog, table: string): ExistingTable | undefined {
  const stored = catalog.resolveName(table);
  const meta = stored === undefined ? undefined : catalog.openSnapshot(stored)?.meta;
  if (meta === undefined) return undefined;
  return {
    columns: meta.columns.map((column) => ({ name: column.name, type: column.type })),
    layout: { partitionBy: meta.partitionBy, timestampIndex: meta.timestampIndex },
  };
}

/**
 * The partitioning a new table will get, for splitting staged rows; a combination the commit will refuse
 * (an unknown unit, or partitions without a designated timestamp) stages as one partition.
 */
function newTableLayout(params: ImportParams, columns: readonly { name: string }[]): StagingLayout {
  const wanted = params.timestamp?.toLowerCase();
  const timestampIndex = wanted === undefined ? -1 : columns.findIndex((column) => column.name.toLowerCase() === wanted);
  const unit = partitionUnitOf(params.partitionBy);
  const partitionBy = unit !== undefined && timestampIndex >= 0 ? unit : 'NONE';
  return { partitionBy, timestampIndex };
}

export function handleImport(req: IncomingMessage, res: ServerResponse, deps: ImportRouteDeps): void {
  let params: ImportParams;
  try {
    params = parseImportParams(req.url ?? '');
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    req.resume();
    const json = searchParamsOf(req.url ?? '').get('fmt') === 'json';
    res.writeHead(400, { 'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' });
    res.end(renderImportFailure(error.message, undefined, json ? 'json' : 'tabular'));
    return;
  }
  const started = process.hrtime.bigint();
  let table = params.name;
  let schema: ImportSchema | undefined;
  let session: ImportSession | undefined;
  let dataSeen = false;
  /** Set while a schema sent as a file part is still arriving. */
  let schemaRead: Promise<void> | undefined;
  let segment: ImportStaging | undefined;
  let failed = false;
  let finished = false;
  const fail = (thrown: unknown): void => {
    if (failed) return;
    const error = asStorageError(thrown);
    failed = true;
    segment?.abort();
    session?.abort();
    const message = error instanceof Error ? error.message : String(error);
    const status = error instanceof SvcError ? error.httpStatus : 500;
    // Storage failures and bugs are C records (and count as unhandled); user mistakes in the upload are not.
    if (status >= 500) reportUnhandled('import', error);
    queryChannel.publish({ endpoint: 'import', outcome: 'error', durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
    // Read-only refusal (403) and an overloaded primary (503) keep their meaning for clients; other
    // request-level failures are QuestDB's 400, and anything else unexpected stays a 500.
    const sentStatus = status === 403 || status === 503 ? status : status >= 500 ? 500 : 400;
    send(res, sentStatus, params, renderImportFailure(message, table, params.json ? 'json' : 'tabular'));
    req.unpipe();
    req.resume();
  };
  if (deps.readOnly) {
    fail(new SvcError('SVC_FORBIDDEN', 'Write permission denied', 403));
    return;
  }
  // Shutdown rolls back an upload still streaming; once its commit is sent, the primary finishes it.
  let committing = false;
  const deregister = deps.activeImports?.add((reason) => {
    if (committing || finished || failed) return;
    res.shouldKeepAlive = false;
    fail(new SvcError('SVC_IMPORT_FAILED', `${reason}; the import was rolled back`, 503));
  }) ?? ((): void => undefined);
  res.on('close', deregister);
  try {
    if (table !== undefined) checkImportTableName(table);
  } catch (error) {
    fail(error);
    return;
  }
  res.on('close', () => {
    if (!finished && !failed) {
      failed = true;
      segment?.abort();
      session?.abort();
      queryChannel.publish({ endpoint: 'import', outcome: 'cancelled', durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
    }
  });
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers });
  } catch (error) {
    fail(new SvcError('SVC_BAD_REQUEST', error instanceof Error ? error.message : 'bad multipart request', 400));
    return;
  }
  parser.on('field', (fieldName, value) => {
    if (fieldName !== 'schema' || failed) return;
    try {
      schema = parseSchemaPart(value);
    } catch (error) {
      fail(error);
    }
  });
  const badRequest = (error: unknown): void => fail(new SvcError('SVC_BAD_REQUEST', error instanceof Error ? error.message : 'bad multipart request', 400));
  parser.on('file', (fieldName, stream, info) => {
    // A body cut off inside a part errors the part's stream as well as the parser (busboy's "Unexpected end
    // of form"); without a listener that error would be thrown as uncaught and take the worker down.
    stream.on('error', badRequest);
    if (failed || (fieldName !== 'data' && dataSeen)) {
      stream.resume();
      return;
    }
    if (fieldName === 'schema') {
      let text = '';
      schemaRead = new Promise((resolve) => {
        stream.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
        const done = (): void => {
          schemaRead = undefined;
          resolve();
        };
        stream.on('end', () => { try { schema = parseSchemaPart(text); } catch (error) { fail(error); } done(); });
        stream.on('error', done);
      });
      return;
    }
    dataSeen = true;
    if (schemaRead === undefined) {
      startData(stream, info.filename);
      return;
    }
    // A schema sent as a file part (curl -F schema=@schema.json) may still be arriving: the data waits for it.
    stream.pause();
    void schemaRead.then(() => (failed ? stream.resume() : startData(stream, info.filename)));
  });
  const startData = (stream: NodeJS.ReadableStream, filename: string | undefined): void => {
    table = table ?? sanitizeTableName(filename ?? 'import');
    const existing = params.overwrite ? undefined : existingTable(deps.catalog, table);
    const layoutOf = (columns: readonly { name: string }[]): StagingLayout => existing?.layout ?? newTableLayout(params, columns);
    const staging = createImportStaging(deps.dbDir, layoutOf);
    const parsePool = parsePoolOf(deps.importParseThreadCount);
    segment = staging;
    const current = createImportSession({
      analysisMaxLines: deps.analysisMaxLines, forceHeader: params.forceHeader, atomicity: params.atomicity, skipLev: params.skipLev,
      ...(parsePool === undefined ? {} : { parallel: { pool: parsePool, placer: staging.placer(() => current.columns()) } }),
      layoutOf,
      ...(params.delimiter === undefined ? {} : { delimiter: params.delimiter }),
      ...(schema === undefined ? {} : { schema }),
      ...(params.timestamp === undefined ? {} : { timestampColumn: params.timestamp }),
      ...(existing === undefined ? {} : { existingColumns: existing.columns }),
      onBatch: (batch) => staging.append(batch, current.columns()),
    });
    session = current;
    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      stream.pause();
      current.push(chunk).then(() => stream.resume(), fail);
    });
    stream.on('end', () => {
      if (failed) return;
      current.finish().then(async (summary) => {
        if (failed) return;
        staging.finish(current.columns());
        committing = true;
        const result = await deps.writer.importCommit({ segmentDir: staging.dir, table: table as string, create: params.create, overwrite: params.overwrite, partitionBy: params.partitionBy, ...(params.timestamp === undefined ? {} : { timestampColumn: params.timestamp }) });
        finished = true;
        const rowsImported = result.rowsCommitted;
        importRowsChannel.publish({ table: table as string, rowsImported, rowsRejected: summary.rowsRejected + result.rowsDropped });
        queryChannel.publish({ endpoint: 'import', outcome: 'ok', durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
        const report = importReportFromSummary({ ...summary, rowsImported, rowsRejected: summary.rowsRejected + result.rowsDropped }, {
          location: table as string, partitionBy: params.partitionBy, ...(params.timestamp === undefined ? {} : { timestamp: params.timestamp }),
        });
        send(res, 200, params, params.json ? renderImportReportJson(report) : renderImportReportText(report));
      }).catch(fail);
    });
    stream.resume();
  };
  parser.on('error', badRequest);
  parser.on('close', () => {
    if (!dataSeen && !failed) fail(new SvcError('SVC_IMPORT_FAILED', 'no data part in the request', 400));
  });
  req.pipe(parser);
}
