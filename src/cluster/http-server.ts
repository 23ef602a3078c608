// Starts the :9000 node:http server around the request handler, and closes it gracefully:
// stop accepting, let in-flight requests finish up to a bound, then close the remaining connections.
import * as http from 'node:http';
import type { ServerConfig } from '../config/server-config.js';
import type { RequestHandler } from '../http/app.js';

/** Longest period between checks of slow requests' header timeouts. */
const CONNECTION_CHECK_INTERVAL_MAX_MS = 5000;

export interface RunningHttpServer {
  readonly server: http.Server;
  close(drainMs: number): Promise<void>;
}

/** `beforeRequest` sees each request before the handler does (connection-shedder.ts marks responses there). */
export function startHttpServer(config: ServerConfig, handler: RequestHandler, beforeRequest?: RequestHandler): Promise<RunningHttpServer> {
  const server = http.createServer({
    maxHeaderSize: config.httpRequestHeaderBytesMax,
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    // Node checks the headers timeout on this period (30 s by default), so a short timeout needs a short period.
    connectionsCheckingInterval: Math.min(CONNECTION_CHECK_INTERVAL_MAX_MS, Math.max(50, Math.floor(config.httpRequestHeadersTimeoutMs / 4))),
  }, handler);
  if (beforeRequest !== undefined) server.prependListener('request', beforeRequest);
  // Slow clients: the request line and headers must arrive within http.request.headers.timeout, and a socket
  // idle (nothing received or sent) for http.net.connection.timeout is closed. Bodies have no overall bound
  // because /imp uploads may run for as long as data keeps flowing.
  server.headersTimeout = config.httpRequestHeadersTimeoutMs;
  server.requestTimeout = 0;
  server.timeout = config.httpConnectionTimeoutMs;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.httpBindPort, config.httpBindHost, () => {
      server.off('error', reject);
      resolve({
        server,
        close: (drainMs) => new Promise<void>((done) => {
          const timer = setTimeout(() => { server.closeAllConnections(); }, drainMs);
          timer.unref();
          server.close(() => { clearTimeout(timer); done(); });
          server.closeIdleConnections();
        }),
      });
    });
  });
}
