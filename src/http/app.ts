// The :9000 application: requests for the endpoints of route-table.ts are dispatched on the plain node:http
// request (the hot path), everything else goes through express (static files: the root's public/, then the
// bundled console; 404s). Every request but the few open routes first passes the per-worker concurrency gate,
// then authentication (so static files are covered too), then the body limit.
// Every route reports to the metrics channel and turns unexpected errors into 500 + an unhandled-error event.
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { reportUnhandled } from './error-response.js';
import { staticFileHandlers } from './static-files.js';
import { httpEndpointOf, httpRequestChannel } from '../core/diagnostics.js';
import type { Principal } from './auth/authenticator.js';
import { authenticateRequest } from './auth/auth-gate.js';
import { ConcurrencyGate, discardUnusedBody, hasBody } from './request-limits.js';
import { assert } from '../core/assert.js';
import { routeTable, type HttpDeps, type Route } from './route-table.js';

export type { HttpDeps } from './route-table.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Tests set SVCTEST_INJECT_FAULTS=1 to reach a path that fails like a bug would (never set in production). */
const FAULT_INJECTION = process.env['SVCTEST_INJECT_FAULTS'] === '1';

function pathOf(url: string): string {
  const index = url.indexOf('?');
  return index < 0 ? url : url.slice(0, index);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\r\n`);
}

function routesByPath(routes: readonly Route[]): ReadonlyMap<string, Route> {
  const byPath = new Map<string, Route>();
  for (const route of routes) {
    for (const path of route.paths) {
      assert(!byPath.has(path), `route-table.ts lists each path once (${path})`);
      byPath.set(path, route);
    }
  }
  return byPath;
}

export function createHttpHandler(deps: HttpDeps): RequestHandler {
  const app = express();
  app.disable('x-powered-by');
  app.use(...staticFileHandlers(deps.publicDir));
  app.use((_req, res) => sendText(res, 404, 'Not Found'));
  const gate = new ConcurrencyGate(deps.limits.concurrentRequestsMax);
  const routes = routesByPath(routeTable(deps, FAULT_INJECTION));

  return (req, res) => {
    const started = process.hrtime.bigint();
    const path = pathOf(req.url ?? '/');
    res.on('finish', () => {
      httpRequestChannel.publish({ endpoint: httpEndpointOf(path), status: res.statusCode, durationMs: Number(process.hrtime.bigint() - started) / 1e6 });
    });
    const route = routes.get(path);
    try {
      if (route !== undefined && !route.authenticated) {
        dispatch(req, res, route, undefined);
        return;
      }
      if (!gate.admit(res)) return;
      const principal = authenticateRequest(req, res, deps.authenticate);
      if (principal === undefined) return;
      if (route?.streamsBody === true || !hasBody(req)) {
        dispatch(req, res, route, principal);
        return;
      }
      discardUnusedBody(req, res, deps.limits.bodyBytesMax, () => {
        try {
          dispatch(req, res, route, principal);
        } catch (error) {
          failUnexpectedly(res, error);
        }
      });
    } catch (error) {
      failUnexpectedly(res, error);
    }
  };

  /** Runs `route` (express when no route has the path), answering 405 for a method it does not serve. */
  function dispatch(req: IncomingMessage, res: ServerResponse, route: Route | undefined, principal: Principal | undefined): void {
    if (route === undefined) {
      app(req, res);
      return;
    }
    if (route.methods !== undefined && !route.methods.accepted.includes(req.method ?? '')) {
      res.setHeader('Allow', route.methods.allow);
      sendText(res, 405, `Method (${req.method ?? ''}) not supported`);
      return;
    }
    const pending = route.handle(req, res, principal);
    if (pending instanceof Promise) pending.catch((error: unknown) => failUnexpectedly(res, error));
  }
}

function failUnexpectedly(res: ServerResponse, error: unknown): void {
  reportUnhandled('http', error);
  if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
  else res.end();
}
