// The ILP TCP connections of one process and, where it listens itself (single-process mode), its listener on
// line.tcp.net.bind.to (9009 by default). With workers the primary accepts and hands each connection to a worker
// (cluster/tcp-dispatcher.ts), which serves it here. Past the connection limit a new connection is closed
// at once (and logged, at most once per interval); close() stops accepting, lets every connection commit what
// it has, and after the drain time closes the rest.
import { createServer, type Server, type Socket } from 'node:net';
import { IlpTcpConnection, type IlpTcpConnectionSettings } from './tcp-connection.js';
import { ilpConnectionChannel } from '../core/diagnostics.js';
import { ilpTcpRefusalLogIntervalMs, tcpKeepAliveDelayMs } from '../core/limits.js';
import { getLogger } from '../log/logger.js';

const log = getLogger('ilp-tcp');

export interface IlpTcpServerOptions {
  readonly host: string;
  /** 0 picks a free port (the same one for every worker of a cluster). */
  readonly port: number;
  /** Connections this process serves at once. */
  readonly connectionsMax: number;
  readonly connection: IlpTcpConnectionSettings;
}

export interface RunningIlpTcpServer {
  /** The port listened on (the chosen one when options.port was 0). */
  readonly port: number;
  /** Stops accepting, commits what every connection has, closes; connections still busy after `drainMs` are cut. */
  close(drainMs: number): Promise<void>;
}

/** Logs refused connections: the first at once, then one record per interval with the count. */
class RefusalLog {
  private lastLoggedAt = -Infinity;
  private unlogged = 0;

  constructor(private readonly connectionsMax: number) {}

  note(remote: string): void {
    this.unlogged++;
    const now = Date.now();
    if (now - this.lastLoggedAt < ilpTcpRefusalLogIntervalMs) return;
    log.error(`ILP TCP ${remote}: connection refused, ${this.connectionsMax} connections are open [line.tcp.net.connection.limit]${this.unlogged > 1 ? `; ${this.unlogged} refused since the last record` : ''}`);
    this.lastLoggedAt = now;
    this.unlogged = 0;
  }
}

/**
 * The ILP TCP connections one process serves, however they reach it: accepted by its own listener, or handed to
 * it by the primary (tcp-dispatcher.ts). Past the connection limit a new one is closed at once.
 */
export class IlpTcpConnections {
  private readonly connections = new Set<IlpTcpConnection>();
  private readonly refusals: RefusalLog;

  constructor(private readonly connectionsMax: number, private readonly settings: IlpTcpConnectionSettings) {
    this.refusals = new RefusalLog(connectionsMax);
  }

  /** Serves `socket`; resolves once the connection is closed and its last commit answered. */
  accept(socket: Socket): Promise<void> {
    if (this.connections.size >= this.connectionsMax) {
      this.refusals.note(`${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`);
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.destroy();
      return closed;
    }
    socket.setKeepAlive(true, tcpKeepAliveDelayMs);
    const connection = new IlpTcpConnection(socket, this.settings);
    this.connections.add(connection);
    ilpConnectionChannel.publish({ transport: 'tcp', delta: 1 });
    return connection.closed.then(() => {
      this.connections.delete(connection);
      ilpConnectionChannel.publish({ transport: 'tcp', delta: -1 });
    });
  }

  /** Every connection commits what it has and closes; those still busy after `drainMs` are cut. */
  async close(drainMs: number): Promise<void> {
    const open = [...this.connections];
    for (const connection of open) connection.shutdown();
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.all(open.map((connection) => connection.closed)).then(() => true);
    const timedOut = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), drainMs); });
    const inTime = await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    if (!inTime) for (const connection of this.connections) connection.abandon();
  }
}

export function startIlpTcpServer(options: IlpTcpServerOptions): Promise<RunningIlpTcpServer> {
  const connections = new IlpTcpConnections(options.connectionsMax, options.connection);
  const server = createServer((socket) => connections.accept(socket));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      server.on('error', (error) => log.error(`ILP TCP listener: ${error.message}`));
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : options.port;
      resolve({ port, close: (drainMs) => closeServer(server, connections, drainMs) });
    });
  });
}

async function closeServer(server: Server, connections: IlpTcpConnections, drainMs: number): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  await connections.close(drainMs);
  await stopped;
}
