// The PostgreSQL connections of one process and, where it listens itself (single-process mode), its listener on
// pg.net.bind.to (8812 by default). With workers the primary accepts and hands each connection to a worker
// (cluster/tcp-dispatcher.ts), which serves it here. Past pg.net.connection.limit a new connection gets a FATAL
// 53300 ErrorResponse and is closed. close() stops accepting and closes every connection (a running query is
// cancelled).
import { createServer, type Server, type Socket } from 'node:net';
import { PgConnection, type PgConnectionSettings } from './connection.js';
import { MessageWriter } from './message-writer.js';
import { pgConnectionChannel } from '../core/diagnostics.js';
import { getLogger } from '../log/logger.js';
import { tcpKeepAliveDelayMs } from '../core/limits.js';
import type { SecureContext } from 'node:tls';
import { negotiateTls } from './tls-negotiation.js';

const log = getLogger('pg');

/** How a process serves its PostgreSQL connections. */
export interface PgConnectionOptions {
  readonly connectionsMax: number;
  readonly connection: PgConnectionSettings;
  /** Certificate and key for TLS after SSLRequest; absent: SSLRequest is answered 'N'. */
  readonly tls?: SecureContext;
}

export interface PgServerOptions extends PgConnectionOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
}

export interface RunningPgServer {
  readonly port: number;
  close(drainMs: number): Promise<void>;
}

/**
 * The PostgreSQL connections one process serves, however they reach it: accepted by its own listener, or
 * handed to it by the primary (cluster/tcp-dispatcher.ts).
 */
export class PgConnections {
  private readonly connections = new Set<PgConnection>();

  constructor(private readonly options: PgConnectionOptions) {}

  accept(socket: Socket): void {
    const options = this.options;
    socket.on('error', () => undefined);
    if (this.connections.size >= options.connectionsMax) {
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
      this.serve(socket);
      return;
    }
    void negotiateTls(socket, options.tls, options.connection.handshakeTimeoutMs).then((negotiated) => {
      if (negotiated !== undefined) this.serve(negotiated);
    });
  }

  /** Statements in flight get up to `drainMs`; PostgreSQL clients reconnect, so idle connections close at once. */
  async close(drainMs: number): Promise<void> {
    const deadline = Date.now() + drainMs;
    while (this.connections.size > 0 && Date.now() < deadline) {
      for (const connection of this.connections) connection.closeIfIdle();
      if (this.connections.size === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const connection of [...this.connections]) connection.shutdown();
  }

  private serve(socket: Socket): void {
    const connection = new PgConnection(socket, this.options.connection);
    // TLS negotiation paused a plain socket to push its first bytes back; a listener alone does not resume it.
    socket.resume();
    this.connections.add(connection);
    pgConnectionChannel.publish({ delta: 1 });
    void connection.closed.then(() => {
      this.connections.delete(connection);
      pgConnectionChannel.publish({ delta: -1 });
    });
  }
}

export function startPgServer(options: PgServerOptions): Promise<RunningPgServer> {
  const connections = new PgConnections(options);
  const server = createServer((socket) => connections.accept(socket));
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

async function closeServer(server: Server, connections: PgConnections, drainMs: number): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  await connections.close(drainMs);
  await stopped;
}
