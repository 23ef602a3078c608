// Every endpoint of :9000 in one list: its paths, the methods it serves, whether authentication (and the
// concurrency gate) applies, whether the handler streams the body itself, and what a read-only server does.
// app.ts runs the list; a path not in it goes to express (static files, then 404). A read-only refusal is
// answered by the handler in its endpoint's own error format, so `readOnly` here describes, it does not enforce.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleExecute } from './routes/execute.js';
import { handleValidate } from './routes/validate.js';
import { handleImport, type ImportRouteDeps } from './routes/import.js';
import { handleExport, type ExportRouteDeps } from './routes/export.js';
import { handleIlpWrite, type IlpRouteDeps } from './routes/ilp-write.js';
import { handlePing, handleSettings } from './routes/settings.js';
import { handleTableStatus } from './routes/table-status.js';
import { handleWarnings, readSystemReadings, SystemWarningsCache } from './routes/warnings.js';
import type { Authenticator, Principal } from './auth/authenticator.js';
import type { RequestLimits } from './request-limits.js';
import { assert } from '../core/assert.js';
import { searchParamsOf } from './query-params.js';

export type HttpDeps = ExportRouteDeps & ImportRouteDeps & IlpRouteDeps & {
  readonly authenticate: Authenticator;
  readonly limits: RequestLimits;
  /** The root's public/ directory, served before the bundled console (static-files.ts). */
  readonly publicDir: string;
};

export interface Route {
  readonly paths: readonly string[];
  /** Methods served; any other is answered 405 with `Allow: allow`. Absent: the handler answers every method. */
  readonly methods?: { readonly accepted: readonly string[]; readonly allow: string };
  /**
   * false: answered before the concurrency gate and authentication, because QuestDB's clients ask these before
   * they send credentials (settings.ts, warnings.ts).
   */
  readonly authenticated: boolean;
  /** true: the handler reads the body as a stream; otherwise an unused body is drained (within the limit) first. */
  readonly streamsBody: boolean;
  /** What a read-only server does: serve it, refuse it (403), or refuse only write statements (403). */
  readonly readOnly: 'served' | 'refused' | 'writes-refused';
  /** `principal` is undefined only for routes that are not authenticated. A returned promise's failure is a 500. */
  readonly handle: (req: IncomingMessage, res: ServerResponse, principal: Principal | undefined) => void | Promise<void>;
}

const GET_ONLY = { accepted: ['GET', 'HEAD'], allow: 'GET' } as const;

export function routeTable(deps: HttpDeps, faultInjection: boolean): readonly Route[] {
  const settingsDeps = { readOnly: deps.readOnly, ilpHttpEnabled: deps.ilp.httpEnabled, ilpTcpEnabled: deps.ilp.tcpEnabled };
  const warnings = new SystemWarningsCache(() => readSystemReadings(deps.dbDir));
  const open = { authenticated: false, streamsBody: false, readOnly: 'served' } as const;
  return [
    { paths: ['/settings'], ...open, handle: (req, res) => handleSettings(req.method ?? 'GET', res, settingsDeps) },
    { paths: ['/ping'], ...open, handle: (req, res) => handlePing(req.method ?? 'GET', res) },
    { paths: ['/warnings'], ...open, handle: (req, res) => handleWarnings(req.method ?? 'GET', res, warnings) },
    {
      paths: ['/exec', '/api/v1/sql/execute'], methods: GET_ONLY, authenticated: true, streamsBody: false, readOnly: 'writes-refused',
      handle: (req, res, principal) => handleExecute(req, res, deps, authenticatedPrincipal(principal)),
    },
    { paths: ['/api/v1/sql/validate'], methods: GET_ONLY, authenticated: true, streamsBody: false, readOnly: 'served', handle: (req, res) => handleValidate(req, res, deps) },
    { paths: ['/exp'], methods: GET_ONLY, authenticated: true, streamsBody: false, readOnly: 'writes-refused', handle: (req, res) => handleExport(req, res, deps) },
    {
      paths: ['/imp', '/upload'], methods: { accepted: ['POST', 'PUT'], allow: 'POST' }, authenticated: true, streamsBody: true, readOnly: 'refused',
      handle: (req, res) => handleImport(req, res, deps),
    },
    // With ILP over HTTP disabled these paths are unknown (404), as in QuestDB.
    ...(deps.ilp.httpEnabled
      ? [{ paths: ['/write', '/api/v2/write'], authenticated: true, streamsBody: true, readOnly: 'refused', handle: (req, res) => handleIlpWrite(req, res, deps) } satisfies Route]
      : []),
    {
      paths: ['/chk'], authenticated: true, streamsBody: false, readOnly: 'served',
      handle: (req, res) => handleTableStatus(req.method ?? 'GET', req.url ?? '/', res, deps.catalog),
    },
    // Tests set SVCTEST_INJECT_FAULTS=1 to reach a path that fails like a bug would (never set in production).
    ...(faultInjection
      ? [
        { paths: ['/__test/unhandled'], authenticated: true, streamsBody: false, readOnly: 'served', handle: injectFault } satisfies Route,
        { paths: ['/__test/block'], authenticated: true, streamsBody: false, readOnly: 'served', handle: blockEventLoop } satisfies Route,
      ]
      : []),
  ];
}

function authenticatedPrincipal(principal: Principal | undefined): Principal {
  assert(principal !== undefined, 'app.ts authenticates every route marked authenticated before calling it');
  return principal;
}

function injectFault(): never {
  throw new Error('injected fault for tests');
}

/** Longest block /__test/block accepts, in ms. */
const TEST_BLOCK_MS_MAX = 10_000;

/**
 * Sends the response headers, then holds this process's event loop for `ms` (a worker busy in a long synchronous
 * parse, as tests of connection placement need one): the headers tell the client the block has begun.
 */
function blockEventLoop(req: IncomingMessage, res: ServerResponse): void {
  const ms = Math.min(TEST_BLOCK_MS_MAX, Math.max(0, Number(searchParamsOf(req.url ?? '').get('ms') ?? 0) || 0));
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.flushHeaders();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  res.end('done\n');
}
