// The :9000 application: the SQL endpoints are dispatched first on the plain node:http request (the hot path),
// everything else goes through express (static files: the root's public/, then the bundled console; 404s).
// Every request first passes the per-worker concurrency gate, then authentication (so static files are
// covered too), then the body limit.
// Every route reports to the metrics channel and turns unexpected errors into 500 + an unhandled-error event.
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleExecute } from './routes/execute.js';
import { handleValidate } from './routes/validate.js';
import { handleImport } from './routes/import.js';
import { handleExport } from './routes/export.js';
import type { ExportRouteDeps } from './routes/export.js';
import type { ImportRouteDeps } from './routes/import.js';
import { handleIlpWrite, type IlpRouteDeps } from './routes/ilp-write.js';
import { handlePing, handleSettings } from './routes/settings.js';
import { handleTableStatus } from './routes/table-status.js';
import { handleWarnings, readSystemReadings, SystemWarningsCache } from './routes/warnings.js';
import { reportUnhandled } from './error-response.js';
import { staticFileHandlers } from './static-files.js';
import { httpEndpointOf, httpRequestChannel } from '../core/diagnostics.js';
import type { Authenticator, Principal } from './auth/authenticator.js';
import { authenticateRequest } from './auth/auth-gate.js';
import { ConcurrencyGate, discardUnusedBody, hasBody, type RequestLimits } from './request-limits.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Tests set SVCTEST_INJECT_FAULTS=1 to reach a path that fails like a bug would (never set in production). */
const FAULT_INJECTION = process.env['SVCTEST_INJECT_FAULTS'] === '1';

const EXECUTE_PATHS = new Set(['/exec', '/api/v1/sql/execute']);
const VALIDATE_PATH = '/api/v1/sql/validate';

function pathOf(url: string): string {
  const index = url.indexOf('?');
  return index < 0 ? url : url.slice(0, index);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\r\n`);
}

export type HttpDeps = ExportRouteDeps & ImportRouteDeps & IlpRouteDeps & {
  readonly authenticate: Authenticator;
  readonly limits: RequestLimits;
  /** The root's public/ directory, served before the bundled console (static-files.ts). */
  readonly publicDir: string;
};

const IMPORT_PATHS = new Set(['/imp', '/upload']);
const ILP_WRITE_PATHS = new Set(['/write', '/api/v2/write']);

export function createHttpHandler(deps: HttpDeps): RequestHandler {
  const app = express();
  app.disable('x-powered-by');
  app.use(...staticFileHandlers(deps.publicDir));
  app.use((_req, res) => sendText(res, 404, 'Not Found'));
  const gate = new ConcurrencyGate(deps.limits.concurrentRequestsMax);
  const settingsDeps = { readOnly: deps.readOnly, ilpHttpEnabled: deps.ilp.httpEnabled, ilpTcpEnabled: deps.ilp.tcpEnabled };
  const warnings = new SystemWarningsCache(() => readSystemReadings(deps.dbDir));

  return (req, res) => {
    const started = process.hrtime.bigint();
    const path = pathOf(req.url ?? '/');
    res.on('finish', () => {
      httpRequestChannel.publish({ endpoint: httpEndpointOf(path), status: res.statusCode, durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
    });
    try {
      // QuestDB's clients ask these before they send credentials: they answer without any (settings.ts, warnings.ts).
      if (path === '/settings') return handleSettings(req.method ?? 'GET', res, settingsDeps);
      if (path === '/ping') return handlePing(req.method ?? 'GET', res);
      if (path === '/warnings') return handleWarnings(req.method ?? 'GET', res, warnings);
      if (!gate.admit(res)) return;
      const principal = authenticateRequest(req, res, deps.authenticate);
      if (principal === undefined) return;
      if (IMPORT_PATHS.has(path) || (ILP_WRITE_PATHS.has(path) && deps.ilp.httpEnabled) || !hasBody(req)) {
        dispatch(req, res, path, principal);
        return;
      }
      discardUnusedBody(req, res, deps.limits.bodyBytesMax, () => {
        try {
          dispatch(req, res, path, principal);
        } catch (error) {
          failUnexpectedly(res, error);
        }
      });
    } catch (error) {
      failUnexpectedly(res, error);
    }
  };

  function dispatch(req: IncomingMessage, res: ServerResponse, path: string, principal: Principal): void {
    if (EXECUTE_PATHS.has(path) || path === VALIDATE_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET');
        sendText(res, 405, `Method (${req.method ?? ''}) not supported`);
        return;
      }
      if (path === VALIDATE_PATH) {
        handleValidate(req, res, deps);
        return;
      }
      handleExecute(req, res, deps, principal).catch((error: unknown) => failUnexpectedly(res, error));
      return;
    }
    if (path === '/exp') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET');
        sendText(res, 405, `Method (${req.method ?? ''}) not supported`);
        return;
      }
      handleExport(req, res, deps).catch((error: unknown) => failUnexpectedly(res, error));
      return;
    }
    if (IMPORT_PATHS.has(path)) {
      if (req.method !== 'POST' && req.method !== 'PUT') {
        res.setHeader('Allow', 'POST');
        sendText(res, 405, `Method (${req.method ?? ''}) not supported`);
        return;
      }
      handleImport(req, res, deps);
      return;
    }
    if (ILP_WRITE_PATHS.has(path) && deps.ilp.httpEnabled) {
      handleIlpWrite(req, res, deps).catch((error: unknown) => failUnexpectedly(res, error));
      return;
    }
    if (path === '/chk') {
      handleTableStatus(req.method ?? 'GET', req.url ?? '/', res, deps.catalog);
      return;
    }
    if (FAULT_INJECTION && path === '/__test/unhandled') throw new Error('injected fault for tests');
    app(req, res);
  }
}

function failUnexpectedly(res: ServerResponse, error: unknown): void {
  reportUnhandled('http', error);
  if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
  else res.end();
}
