// The minimal server (:9003, plain node:http, no express) run by the primary, which runs no user
// queries, so health answers while workers are saturated or restarting.
// GET or HEAD on any path → 200 text/plain, chunked, `Status: Healthy` (QuestDB HealthCheckProcessor);
// GET /metrics, when metrics are enabled → the cluster-wide Prometheus text from `collect`; when they
// are disabled /metrics is not bound and gets the health answer like any path. Pessimistic health
// (needs metrics) → 500 `Status: Unhealthy\nUnhandled errors: <n>` once any unhandled error happened.
// During shutdown's drain → 503 `Status: Draining` (not QuestDB behaviour: it lets a load balancer take the
// instance out while in-flight requests finish). Other methods → 405 with `Allow: GET, HEAD`: a health probe that POSTs is a misconfiguration we name.
import http from 'node:http';
import { assert } from '../core/assert.js';
import { ConfigError } from '../core/errors.js';

/** Connections the admin server keeps at once; probes and one Prometheus need a handful. */
export const adminConnectionsMax = 128;
/** Bounds on a slow client; the /metrics answer itself is bounded by the collector's scrape timeout. */
export const adminHeadersTimeoutMs = 10_000;
export const adminRequestTimeoutMs = 30_000;
/** After close(), how long in-flight answers may finish before their sockets are destroyed. */
export const adminCloseGraceMs = 1_000;

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const HEALTH_CONTENT_TYPE = 'text/plain';

export interface AdminServerOptions {
  readonly host: string;
  /** 0 picks a free port (tests); the bound port is returned. */
  readonly port: number;
  readonly metricsEnabled: boolean;
  /** http.pessimistic.health.check.enabled; has no effect unless metricsEnabled. */
  readonly pessimisticHealth: boolean;
  /** Cluster-wide metrics text; expected never to reject (the collector answers partial instead). */
  readonly collect: () => Promise<string>;
  /** Unhandled errors since start across the cluster. */
  readonly unhandledErrors: () => number;
  /** True once shutdown has begun: health answers 503 so load balancers stop sending traffic. */
  readonly draining?: () => boolean;
  /** A reason to answer 503 (a replica lagging past its bound), or undefined. */
  readonly unhealthyReason?: () => string | undefined;
  readonly log?: (message: string) => void;
}

export interface AdminServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  assert(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535, 'admin port was validated by config');
  const log = options.log ?? (() => {});
  const server = http.createServer((request, response) => {
    handleAdminRequest(options, request, response).catch((error: unknown) => {
      log(`admin request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) writeText(response, 500, HEALTH_CONTENT_TYPE, 'Internal Server Error');
      else response.destroy();
    });
  });
  server.maxConnections = adminConnectionsMax;
  server.headersTimeout = adminHeadersTimeoutMs;
  server.requestTimeout = adminRequestTimeoutMs;
  await listen(server, options.host, options.port);
  server.on('error', (error) => log(`admin server error: ${error.message}`));
  const address = server.address();
  assert(address !== null && typeof address === 'object', 'a TCP server listening on host:port has an AddressInfo');
  const port = address.port;
  log(`admin server listening on ${options.host}:${port} (metrics ${options.metricsEnabled ? 'enabled' : 'disabled'}, pessimistic health ${options.pessimisticHealth ? 'on' : 'off'})`);
  return { port, close: () => closeServer(server) };
}

async function handleAdminRequest(options: AdminServerOptions, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const method = request.method ?? '';
  if (method !== 'GET' && method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    writeText(response, 405, HEALTH_CONTENT_TYPE, 'Method Not Allowed');
    return;
  }
  if (options.metricsEnabled && pathOf(request.url) === '/metrics') {
    const text = await options.collect();
    writeText(response, 200, PROMETHEUS_CONTENT_TYPE, text);
    return;
  }
  if (options.draining?.() === true) {
    writeText(response, 503, HEALTH_CONTENT_TYPE, 'Status: Draining');
    return;
  }
  const reason = options.unhealthyReason?.();
  if (reason !== undefined) {
    writeText(response, 503, HEALTH_CONTENT_TYPE, `Status: Unhealthy\n${reason}`);
    return;
  }
  // QuestDB reads the counter only when metrics exist; disabled metrics mean always healthy.
  const unhandled = options.metricsEnabled && options.pessimisticHealth ? options.unhandledErrors() : 0;
  if (unhandled > 0) {
    writeText(response, 500, HEALTH_CONTENT_TYPE, `Status: Unhealthy\nUnhandled errors: ${unhandled}`);
    return;
  }
  writeText(response, 200, HEALTH_CONTENT_TYPE, 'Status: Healthy');
}

/** Path without query string; the path is otherwise ignored, as QuestDB's default handler does. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const queryIndex = url.indexOf('?');
  return queryIndex < 0 ? url : url.slice(0, queryIndex);
}

/** write() then end() without a length makes Node send the body chunked, as QuestDB does. */
function writeText(response: http.ServerResponse, status: number, contentType: string, body: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', contentType);
  response.write(body);
  response.end();
}

function listen(server: http.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(new ConfigError('http.min.net.bind.to', `cannot listen on ${host}:${port}: ${error.message}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const timer = setTimeout(() => server.closeAllConnections(), adminCloseGraceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
