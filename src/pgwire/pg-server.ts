// The PostgreSQL wire protocol listener (pg.net.bind.to, 8812 by default). In a worker the listening socket is
// shared through node:cluster like :9000's; in single-process mode the primary listens itself. Owns its
// connections: past pg.net.connection.limit a new one gets a FATAL 53300 ErrorResponse and is closed.
// close() stops accepting and closes every connection (a running query is cancelled).
import { createServer, type Server, type Socket } from 'node:net';
import { PgConnection, type PgConnectionSettings } from './connection.js';
import { MessageWriter } from './message-writer.js';
import { pgConnectionChannel } from '../core/diagnostics.js';
import { getLogger } from '../log/logger.js';
import { tcpKeepAliveDelayMs } from '../core/limits.js';
import type { SecureContext } from 'node:tls';
import { negotiateTls } from './tls-negotiation.js';

const log = getLogger('pg');

export interface PgServerOptions {
  readonly host: string;
  /** 0 picks a free port (the same one for every worker of a cluster). */
  readonly port: number;
  readonly connectionsMax: number;
  readonly connection: PgConnectionSettings;
  /** Certificate and key for TLS after SSLRequest; absent: SSLRequest is answered 'N'. */
  readonly tls?: SecureContext;
}

export interface RunningPgServer {
  readonly port: number;
  close(drainMs: number): Promise<void>;
}

export function startPgServer(options: PgServerOptions): Promise<RunningPgServer> {
  const connections = new Set<PgConnection>();
  const server = createServer((socket) => accept(socket, options, connections));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      server.on('error', (error) => log.error(`PG listener: ${error.message}`));
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : options.port;
      resolve({ port, close: (drainMs) => closeServer(server, connections, drainMs) });
    });
  });
}

function accept(socket: Socket, options: PgServerOptions, connections: Set<PgConnection>): void {
  socket.on('error', () => undefined);
  if (connections.size >= options.connectionsMax) {
    // PostgreSQL answers the start-up with this error; sending it at once is equivalent for clients.
    const out = new MessageWriter();
    out.errorResponse({ severity: 'FATAL', sqlState: '53300', message: `too many connections [max=${options.connectionsMax}] [pg.net.connection.limit]` });
    socket.end(out.take());
    setTimeout(() => socket.destroy(), 1000).unref();
    log.error(`PG ${socket.remoteAddress ?? '?'}: connection refused, ${options.connectionsMax} connections are open [pg.net.connection.limit]`);
    return;
  }
  socket.setKeepAlive(true, tcpKeepAliveDelayMs);
  if (options.tls === undefined) {
    serve(socket, options, connections);
    return;
  }
  void negotiateTls(socket, options.tls, options.connection.handshakeTimeoutMs).then((negotiated) => {
    if (negotiated !== undefined) serve(negotiated, options, connections);
  });
}

function serve(socket: Socket, options: PgServerOptions, connections: Set<PgConnection>): void {
  const connection = new PgConnection(socket, options.connection);
  // TLS negotiation paused a plain socket to push its first bytes back; a listener alone does not resume it.
  socket.resume();
  connections.add(connection);
  pgConnectionChannel.publish({ delta: 1 });
  void connection.closed.then(() => {
    connections.delete(connection);
    pgConnectionChannel.publish({ delta: -1 });
  });
}

async function closeServer(server: Server, connections: Set<PgConnection>, drainMs: number): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // Statements in flight get up to drainMs; PostgreSQL clients reconnect, so idle connections close at once.
  const deadline = Date.now() + drainMs;
  while (connections.size > 0 && Date.now() < deadline) {
    for (const connection of connections) connection.closeIfIdle();
    if (connections.size === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const connection of [...connections]) connection.shutdown();
  await stopped;
}
