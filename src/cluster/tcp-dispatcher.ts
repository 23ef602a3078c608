// Primary side of the long-lived TCP protocols with workers (ILP on line.tcp.net.bind.to, PostgreSQL on
// pg.net.bind.to): the primary accepts and hands each connection, unread, to the ready worker serving the fewest
// of that protocol. Their connections are few and long-lived, and with the workers accepting on a shared socket
// the first to wake took most of them: 8 ILP senders connecting together landed on one worker, which then
// parsed every row while the other idled, and a PostgreSQL client's pool of 8 split 1 and 7. An HTTP client can
// be told to reconnect elsewhere (connection-shedder.ts); these clients cannot, so the choice is made at accept.
// Invariants: the primary never reads from a connection (pauseOnConnect), so no byte is left behind in it; a
// connection that no worker can take within tcpDispatchWaitMs, or past tcpDispatchQueueMax waiting, is closed
// (the client reconnects); a worker's count rises when a connection is sent to it and falls when the worker
// reports it closed, or to zero when the worker exits (the kernel closed its sockets).
import { createServer, type Server, type Socket } from 'node:net';
import { tcpDispatchQueueMax, tcpDispatchWaitMs } from '../core/limits.js';
import { getLogger } from '../log/logger.js';
import type { PrimaryToWorker, TcpProtocol } from './ipc.js';

const log = getLogger('tcp-dispatch');

const PROTOCOL_NAMES: Record<TcpProtocol, string> = { ilp: 'ILP TCP', pg: 'PG' };

/** What the dispatcher uses of a worker slot (worker-pool.ts's WorkerSlot and its node:cluster Worker). */
export interface DispatchSlot {
  readonly slot: number;
  readonly worker: {
    send(message: PrimaryToWorker, handle: Socket, callback: (error: Error | null) => void): boolean;
    isConnected(): boolean;
  } | undefined;
}

/** The worker slots connections go to (worker-pool.ts's WorkerPool). */
export interface DispatchPool {
  readonly slots: readonly DispatchSlot[];
}

interface SlotLoad {
  ready: boolean;
  connections: number;
}

interface WaitingSocket {
  readonly socket: Socket;
  readonly since: number;
}

export class TcpDispatcher {
  private readonly loads = new Map<number, SlotLoad>();
  private readonly waiting: WaitingSocket[] = [];
  private readonly expiry: NodeJS.Timeout;

  private constructor(private readonly protocol: TcpProtocol, private readonly server: Server, private readonly pool: DispatchPool, readonly port: number) {
    this.expiry = setInterval(() => this.expireWaiting(Date.now()), Math.max(100, tcpDispatchWaitMs / 4));
    this.expiry.unref();
  }

  static start(protocol: TcpProtocol, host: string, port: number, pool: DispatchPool): Promise<TcpDispatcher> {
    let dispatcher: TcpDispatcher | undefined;
    const server = createServer({ pauseOnConnect: true }, (socket) => {
      socket.on('error', () => undefined);
      dispatcher?.dispatch(socket);
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        server.on('error', (error) => log.error(`${PROTOCOL_NAMES[protocol]} listener: ${error.message}`));
        const address = server.address();
        dispatcher = new TcpDispatcher(protocol, server, pool, typeof address === 'object' && address !== null ? address.port : port);
        resolve(dispatcher);
      });
    });
  }

  /** The worker in `slot` has started serving (svc:ready): it takes connections from now on. */
  onReady(slot: DispatchSlot): void {
    this.loadOf(slot).ready = true;
    const waiting = this.waiting.splice(0);
    for (const { socket } of waiting) this.dispatch(socket);
  }

  /** The slots of the workers serving at least one connection of this protocol now. */
  servingSlots(): number[] {
    return [...this.loads].filter(([, load]) => load.connections > 0).map(([slot]) => slot);
  }

  /** A connection handed to the worker in `slot` closed. */
  onClosed(slot: DispatchSlot): void {
    const load = this.loadOf(slot);
    load.connections = Math.max(0, load.connections - 1);
  }

  /** The worker in `slot` died: its connections died with it, and it takes none until its successor is ready. */
  onExit(slot: DispatchSlot): void {
    this.loads.set(slot.slot, { ready: false, connections: 0 });
  }

  /** Stops accepting; connections waiting for a worker are closed (handed ones drain in their workers). */
  close(): Promise<void> {
    clearInterval(this.expiry);
    for (const { socket } of this.waiting.splice(0)) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private dispatch(socket: Socket): void {
    const slot = this.leastLoaded();
    const worker = slot?.worker;
    if (slot === undefined || worker === undefined) {
      this.wait(socket);
      return;
    }
    const load = this.loadOf(slot);
    load.connections++;
    const message: PrimaryToWorker = { type: 'svc:tcp-connection', protocol: this.protocol };
    worker.send(message, socket, (error) => {
      if (error === null) return;
      load.connections = Math.max(0, load.connections - 1);
      log.error(`${PROTOCOL_NAMES[this.protocol]}: could not hand a connection to worker ${slot.slot}, closing it: ${error.message}`);
      socket.destroy();
    });
  }

  private wait(socket: Socket): void {
    if (this.waiting.length >= tcpDispatchQueueMax) {
      log.error(`${PROTOCOL_NAMES[this.protocol]}: no worker is ready and ${tcpDispatchQueueMax} connections wait for one; closing a new one`);
      socket.destroy();
      return;
    }
    this.waiting.push({ socket, since: Date.now() });
  }

  private expireWaiting(now: number): void {
    let expired = 0;
    for (let first = this.waiting[0]; first !== undefined && now - first.since >= tcpDispatchWaitMs; first = this.waiting[0]) {
      this.waiting.shift();
      first.socket.destroy();
      expired++;
    }
    if (expired > 0) log.error(`${PROTOCOL_NAMES[this.protocol]}: closed ${expired} connection(s) that waited ${tcpDispatchWaitMs} ms for a ready worker`);
  }

  private leastLoaded(): DispatchSlot | undefined {
    let best: DispatchSlot | undefined;
    let bestConnections = Infinity;
    for (const slot of this.pool.slots) {
      const load = this.loadOf(slot);
      if (!load.ready || slot.worker === undefined || !slot.worker.isConnected()) continue;
      if (load.connections < bestConnections) {
        best = slot;
        bestConnections = load.connections;
      }
    }
    return best;
  }

  private loadOf(slot: DispatchSlot): SlotLoad {
    let load = this.loads.get(slot.slot);
    if (load === undefined) {
      load = { ready: false, connections: 0 };
      this.loads.set(slot.slot, load);
    }
    return load;
  }
}
