// POST /imp: streams a multipart upload (busboy) through an ImportSession into a staging segment, then asks
// the primary to commit it. Parts: optional `schema` (JSON, before `data`) and `data` (the file: the first file
// part not named `schema`); parts after it are drained. A client that disconnects mid-upload leaves nothing behind: the segment is deleted
// and the table is unchanged. The request's state lives in an ImportStateMachine (import-state.ts): this file
// turns busboy and stream events into its events, and carries out the effects it asks for.
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
import { searchParamsOf } from '../query-params.js';
import { ImportError, SvcError, asStorageError } from '../../core/errors.js';
import { importRowsChannel, queryChannel } from '../../core/diagnostics.js';
import { reportUnhandled } from '../error-response.js';
import type { ActiveImports } from '../active-imports.js';
import { existingTable, newTableLayout, parseImportParams, type ImportParams } from './import-params.js';
import { ImportStateMachine, type ImportEvent } from './import-state.js';

export interface ImportRouteDeps {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
  readonly analysisMaxLines: number;
  /** Threads of this process that convert large uploads; 0 = none. */
  readonly importParseThreadCount: number;
  readonly readOnly: boolean;
  /** On a read replica: uploads are refused with this before the body is read. */
  readonly replicaRefusal?: SvcError;
  /** Uploads in progress, rolled back by shutdown; absent in tests that build a handler alone. */
  readonly activeImports?: ActiveImports;
}

/** One upload: what its parts have told so far; where it stands is `machine.state`. */
interface ImportRun {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly deps: ImportRouteDeps;
  readonly params: ImportParams;
  readonly started: bigint;
  readonly machine: ImportStateMachine;
  table: string | undefined;
  schema: ImportSchema | undefined;
  /** Set while a schema sent as a file part is still arriving. */
  schemaRead: Promise<void> | undefined;
  segment: ImportStaging | undefined;
  session: ImportSession | undefined;
  /** Leaves the list of uploads shutdown rolls back. */
  deregister: () => void;
}

export function handleImport(req: IncomingMessage, res: ServerResponse, deps: ImportRouteDeps): void {
  const params = importParamsOrAnswer(req, res);
  if (params === undefined) return;
  const run = createImportRun(req, res, deps, params);
  if (deps.readOnly || deps.replicaRefusal !== undefined) {
    failImport(run, deps.replicaRefusal ?? new SvcError('SVC_FORBIDDEN', 'Write permission denied', 403));
    return;
  }
  run.deregister = deps.activeImports?.add((reason) => run.machine.fire({ kind: 'shutdown', reason })) ?? ((): void => undefined);
  if (run.machine.over) return;
  try {
    if (run.table !== undefined) checkImportTableName(run.table);
  } catch (error) {
    failImport(run, error);
    return;
  }
  res.on('close', () => run.machine.fire({ kind: 'client-gone' }));
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers });
  } catch (error) {
    failImportRequest(run, error);
    return;
  }
  parser.on('field', (fieldName, value) => {
    if (fieldName !== 'schema' || run.machine.over) return;
    try {
      run.schema = parseSchemaPart(value);
    } catch (error) {
      failImport(run, error);
    }
  });
  parser.on('file', (fieldName, stream, info) => receiveImportPart(run, fieldName, stream, info.filename));
  parser.on('error', (error) => failImportRequest(run, error));
  parser.on('close', () => {
    if (run.machine.state === 'receiving') failImport(run, new SvcError('SVC_IMPORT_FAILED', 'no data part in the request', 400));
  });
  req.pipe(parser);
}

function importParamsOrAnswer(req: IncomingMessage, res: ServerResponse): ImportParams | undefined {
  try {
    return parseImportParams(req.url ?? '');
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    req.resume();
    const json = searchParamsOf(req.url ?? '').get('fmt') === 'json';
    res.writeHead(400, { 'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' });
    res.end(renderImportFailure(error.message, undefined, json ? 'json' : 'tabular'));
    return undefined;
  }
}

function createImportRun(req: IncomingMessage, res: ServerResponse, deps: ImportRouteDeps, params: ImportParams): ImportRun {
  const run: ImportRun = {
    req, res, deps, params, started: process.hrtime.bigint(), table: params.name,
    schema: undefined, schemaRead: undefined, segment: undefined, session: undefined, deregister: () => undefined,
    machine: new ImportStateMachine({
      discard: () => {
        run.segment?.abort();
        run.session?.abort();
      },
      answerFailure: (event) => answerImportFailure(run, event),
      recordCancelled: () => queryChannel.publish({ endpoint: 'import', outcome: 'cancelled', durationMs: elapsedMs(run.started) }),
      release: () => run.deregister(),
    }),
  };
  return run;
}

function elapsedMs(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function failImport(run: ImportRun, error: unknown): void {
  run.machine.fire({ kind: 'fail', error });
}

/** A malformed multipart body (busboy's errors) is the client's mistake: 400. */
function failImportRequest(run: ImportRun, error: unknown): void {
  failImport(run, new SvcError('SVC_BAD_REQUEST', error instanceof Error ? error.message : 'bad multipart request', 400));
}

function send(res: ServerResponse, status: number, params: ImportParams, body: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': params.json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' });
  res.end(body);
}

function answerImportFailure(run: ImportRun, event: Extract<ImportEvent, { kind: 'fail' | 'shutdown' }>): void {
  if (event.kind === 'shutdown') run.res.shouldKeepAlive = false;
  const thrown = event.kind === 'shutdown' ? new SvcError('SVC_IMPORT_FAILED', `${event.reason}; the import was rolled back`, 503) : event.error;
  const error = asStorageError(thrown);
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof SvcError ? error.httpStatus : 500;
  // Storage failures and bugs are C records (and count as unhandled); user mistakes in the upload are not.
  if (status >= 500) reportUnhandled('import', error);
  queryChannel.publish({ endpoint: 'import', outcome: 'error', durationMs: elapsedMs(run.started) });
  // Read-only refusal (403) and an overloaded primary (503) keep their meaning for clients; other
  // request-level failures are QuestDB's 400, and anything else unexpected stays a 500.
  const sentStatus = status === 403 || status === 503 ? status : status >= 500 ? 500 : 400;
  send(run.res, sentStatus, run.params, renderImportFailure(message, run.table, run.params.json ? 'json' : 'tabular'));
  run.req.unpipe();
  run.req.resume();
}

function receiveImportPart(run: ImportRun, fieldName: string, stream: NodeJS.ReadableStream, filename: string | undefined): void {
  // A body cut off inside a part errors the part's stream as well as the parser (busboy's "Unexpected end
  // of form"); without a listener that error would be thrown as uncaught and take the worker down.
  stream.on('error', (error) => failImportRequest(run, error));
  if (run.machine.state !== 'receiving') {
    stream.resume();
    return;
  }
  if (fieldName === 'schema') {
    readSchemaFile(run, stream);
    return;
  }
  const schemaRead = run.schemaRead;
  if (schemaRead === undefined) {
    streamImportData(run, stream, filename);
    return;
  }
  // A schema sent as a file part (curl -F schema=@schema.json) may still be arriving: the data waits for it.
  run.machine.fire({ kind: 'hold-data' });
  stream.pause();
  void schemaRead.then(() => (run.machine.over ? stream.resume() : streamImportData(run, stream, filename)));
}

function readSchemaFile(run: ImportRun, stream: NodeJS.ReadableStream): void {
  let text = '';
  run.schemaRead = new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    const done = (): void => {
      run.schemaRead = undefined;
      resolve();
    };
    stream.on('end', () => {
      try {
        run.schema = parseSchemaPart(text);
      } catch (error) {
        failImport(run, error);
      }
      done();
    });
    stream.on('error', done);
  });
}

function streamImportData(run: ImportRun, stream: NodeJS.ReadableStream, filename: string | undefined): void {
  if (!run.machine.fire({ kind: 'start-data' })) {
    stream.resume();
    return;
  }
  const table = run.table ?? sanitizeTableName(filename ?? 'import');
  run.table = table;
  const { staging, session } = openImportSession(run, table);
  stream.on('data', (chunk: Buffer) => {
    if (run.machine.over) return;
    stream.pause();
    session.push(chunk).then(() => stream.resume(), (error: unknown) => failImport(run, error));
  });
  stream.on('end', () => {
    if (!run.machine.over) commitImport(run, table, staging, session).catch((error: unknown) => failImport(run, error));
  });
  stream.resume();
}

function openImportSession(run: ImportRun, table: string): { staging: ImportStaging; session: ImportSession } {
  const { params, deps } = run;
  const existing = params.overwrite ? undefined : existingTable(deps.catalog, table);
  const layoutOf = (columns: readonly { name: string; type?: string }[]): StagingLayout => existing?.layout ?? newTableLayout(params, columns);
  const staging = createImportStaging(deps.dbDir, layoutOf);
  const parsePool = parsePoolOf(deps.importParseThreadCount);
  run.segment = staging;
  const session = createImportSession({
    analysisMaxLines: deps.analysisMaxLines, forceHeader: params.forceHeader, atomicity: params.atomicity, skipLev: params.skipLev,
    ...(parsePool === undefined ? {} : { parallel: { pool: parsePool, placer: staging.placer(() => session.columns()) } }),
    layoutOf,
    ...(params.delimiter === undefined ? {} : { delimiter: params.delimiter }),
    ...(run.schema === undefined ? {} : { schema: run.schema }),
    ...(params.timestamp === undefined ? {} : { timestampColumn: params.timestamp }),
    ...(existing === undefined ? {} : { existingColumns: existing.columns }),
    onBatch: (batch) => staging.append(batch, session.columns()),
  });
  run.session = session;
  return { staging, session };
}

async function commitImport(run: ImportRun, table: string, staging: ImportStaging, session: ImportSession): Promise<void> {
  const summary = await session.finish();
  if (run.machine.over) return;
  staging.finish(session.columns());
  run.machine.fire({ kind: 'staged' });
  const { params } = run;
  const result = await run.deps.writer.importCommit({
    segmentDir: staging.dir, table, create: params.create, overwrite: params.overwrite, partitionBy: params.partitionBy,
    ...(params.timestamp === undefined ? {} : { timestampColumn: params.timestamp }),
  });
  const rowsImported = result.rowsCommitted;
  const rowsRejected = summary.rowsRejected + result.rowsDropped;
  // The rows are in the table whether or not the client is still there to hear it.
  importRowsChannel.publish({ table, rowsImported, rowsRejected });
  run.machine.fire({
    kind: 'committed',
    answer: () => {
      queryChannel.publish({ endpoint: 'import', outcome: 'ok', durationMs: elapsedMs(run.started) });
      const report = importReportFromSummary({ ...summary, rowsImported, rowsRejected }, {
        location: table, partitionBy: params.partitionBy, ...(params.timestamp === undefined ? {} : { timestamp: params.timestamp }),
      });
      send(run.res, 200, params, params.json ? renderImportReportJson(report) : renderImportReportText(report));
    },
  });
}
