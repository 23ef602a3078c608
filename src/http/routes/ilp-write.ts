// POST /write and /api/v2/write: InfluxDB line protocol over HTTP, as QuestDB's clients send it. The body
// (plain or gzip, Content-Length or chunked) is parsed as it streams in; one request is one commit, and 204 is
// sent only once the primary has committed it. Errors have QuestDB's {code,message,line,errorId} shape: 400
// for bad lines (nothing of the request is committed), 413 for an overlong line, 503 when the primary's queue
// is full (clients retry), 500 for storage failures.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { Catalog } from '../../sql/compiler.js';
import type { WriterClient } from '../../engine/writer-client.js';
import { IlpRequest, type IlpIngestOptions } from '../../ilp/ilp-request.js';
import { IlpError, ILP_CODE_WORDS } from '../../ilp/ilp-errors.js';
import type { TimestampUnit } from '../../ilp/ilp-numbers.js';
import { SvcError, asStorageError } from '../../core/errors.js';
import { ilpChannel } from '../../core/diagnostics.js';
import { searchParamsOf } from '../query-params.js';
import { jsonString } from '../../types/value-format.js';
import { reportUnhandled } from '../error-response.js';

export interface IlpSettings {
  readonly httpEnabled: boolean;
  readonly tcpEnabled: boolean;
  readonly lineBytesMax: number;
  readonly autoCreateTables: boolean;
  readonly autoCreateColumns: boolean;
  readonly partitionBy: string;
  /** Timestamp columns the line protocol creates are TIMESTAMP_NS (line.timestamp.default.column.type). */
  readonly nanosTimestamps?: boolean;
  /** line.http.commit.order.wait: 0 = requests do not announce themselves to the primary's commit ordering. */
  readonly commitOrderWaitMs?: number;
}

export interface IlpRouteDeps {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
  readonly readOnly: boolean;
  /** On a read replica: writes are refused with this message before the body is read. */
  readonly replicaRefusal?: { readonly message: string };
  readonly ilp: IlpSettings;
}

/** Parsed bytes a request holds in memory before they move to its staged file. */
const SPILL_BYTES = 32 * 1024 * 1024;
const PRECISIONS: ReadonlyMap<string, TimestampUnit> = new Map([
  ['n', 'ns'], ['ns', 'ns'], ['u', 'us'], ['us', 'us'], ['ms', 'ms'], ['s', 's'], ['m', 'm'], ['h', 'h'],
]);
/** Error ids are `<process prefix>-<sequence>`, as QuestDB's: unique enough to find the log record of a failure. */
const ERROR_ID_PREFIX = randomBytes(6).toString('hex');
let errorSequence = 0;

export function sendIlpError(res: ServerResponse, status: number, code: string, message: string, line: number, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const lineField = line > 0 ? `,"line":${line}` : '';
  const body = `{"code":${jsonString(code)},"message":${jsonString(message)}${lineField},"errorId":"${ERROR_ID_PREFIX}-${errorSequence++}"}`;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(body);
}

function ingestOptions(deps: IlpRouteDeps): IlpIngestOptions {
  const ilp = deps.ilp;
  return {
    dbDir: deps.dbDir, catalog: deps.catalog, lineBytesMax: ilp.lineBytesMax, autoCreateTables: ilp.autoCreateTables,
    autoCreateColumns: ilp.autoCreateColumns, partitionBy: ilp.partitionBy, spillBytes: SPILL_BYTES,
    nanosTimestamps: ilp.nanosTimestamps === true,
  };
}

/** The decoded body, or undefined after a 415 for an encoding svc does not read. */
function bodyOf(req: IncomingMessage, res: ServerResponse): Readable | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return req;
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    const gunzip = createGunzip();
    // pipe() does not pass the source's errors on: without this, a client leaving mid-body would leave the
    // loop over the decoded body waiting forever.
    req.once('error', (error) => gunzip.destroy(error));
    return req.pipe(gunzip);
  }
  sendIlpError(res, 415, 'not supported', `unsupported content encoding [encoding=${encoding}]`, 0);
  req.resume();
  return undefined;
}

export async function handleIlpWrite(req: IncomingMessage, res: ServerResponse, deps: IlpRouteDeps): Promise<void> {
  if (req.method !== 'POST' && req.method !== 'PUT') {
    sendIlpError(res, 404, 'invalid', `method not supported [method=${req.method ?? ''}]`, 0);
    return;
  }
  if (deps.readOnly || deps.replicaRefusal !== undefined) {
    req.resume();
    sendIlpError(res, 403, 'unauthorised', deps.replicaRefusal?.message ?? 'Write permission denied: the server is read-only', 0);
    return;
  }
  const precision = PRECISIONS.get(searchParamsOf(req.url ?? '').get('precision') ?? 'n');
  if (precision === undefined) {
    req.resume();
    sendIlpError(res, 400, 'not supported', 'unsupported precision', 0);
    return;
  }
  const body = bodyOf(req, res);
  if (body === undefined) return;
  // A gzip body's Content-Length is its compressed size: no bound on its rows, so no room is made up front.
  const declaredBytes = body === req ? Number(req.headers['content-length'] ?? 0) : 0;
  // With the ordering off nothing waits for announcements, so none are sent (each would cost the primary a wake-up).
  const order = deps.ilp.commitOrderWaitMs === 0 ? undefined : deps.writer;
  const request = new IlpRequest(ingestOptions(deps), precision, Number.isSafeInteger(declaredBytes) ? declaredBytes : 0, order);
  const started = process.hrtime.bigint();
  let failure: unknown;
  try {
    for await (const chunk of body) {
      if (failure === undefined) {
        try {
          request.feed(chunk as Buffer);
        } catch (error) {
          // Read the rest of the body before answering: clients send all of it before they read the reply.
          failure = error;
        }
      }
    }
    if (failure !== undefined) throw failure;
    request.finish();
  } catch (error) {
    request.discard();
    // The client left before the end of its body: there is nobody to answer, and nothing went wrong here.
    if (req.destroyed && !req.complete) return;
    if (isZlibError(error)) {
      req.resume();
      respondFailure(res, new SvcError('SVC_ILP_INVALID', `cannot decompress the gzip body: ${error.message}`, 400));
      return;
    }
    respondFailure(res, error);
    return;
  }
  await commit(res, deps, request, started);
}

async function commit(res: ServerResponse, deps: IlpRouteDeps, request: IlpRequest, started: bigint): Promise<void> {
  let staged;
  try {
    staged = request.commitRequest();
  } catch (error) {
    request.discard();
    respondFailure(res, asStorageError(error));
    return;
  }
  if (staged === undefined) {
    res.writeHead(204).end();
    return;
  }
  try {
    const result = await deps.writer.ilpCommit(staged);
    request.committed();
    ilpChannel.publish({ transport: 'http', rows: result.rowsCommitted, commitMs: Number(process.hrtime.bigint() - started) / 1e6 });
    res.writeHead(204).end();
  } catch (error) {
    request.discard();
    respondFailure(res, error);
  }
}

/** A corrupt or truncated gzip body (zlib's error codes are Z_DATA_ERROR, Z_BUF_ERROR...): the client's data, not a bug. */
function isZlibError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && (error as NodeJS.ErrnoException).code?.startsWith('Z_') === true;
}

function respondFailure(res: ServerResponse, error: unknown): void {
  if (error instanceof IlpError) {
    const code = ILP_CODE_WORDS[error.code] ?? 'invalid';
    const message = error.httpStatus === 400 && error.code === 'SVC_ILP_INVALID'
      ? `failed to parse line protocol:errors encountered on line(s):\nerror in line ${error.line}: ${error.message}`
      : error.message;
    sendIlpError(res, error.httpStatus, code, message, error.line);
    return;
  }
  if (error instanceof SvcError && error.httpStatus === 503) {
    sendIlpError(res, 503, 'internal error', error.message, 0, { 'Retry-After': '1' });
    return;
  }
  if (error instanceof SvcError && error.httpStatus < 500) {
    sendIlpError(res, error.httpStatus, ILP_CODE_WORDS[error.code] ?? 'invalid', error.message, 0);
    return;
  }
  if (error instanceof SvcError && error.code === 'SVC_STORAGE') {
    sendIlpError(res, 500, 'internal error', `commit error: ${error.message}`, 0);
    return;
  }
  reportUnhandled('ilp', error);
  sendIlpError(res, 500, 'internal error', error instanceof Error ? error.message : String(error), 0);
}
