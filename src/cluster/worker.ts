// A worker process: serves :9000 (shared through node:cluster) and the ILP TCP and PostgreSQL connections the
// primary hands it, compiles every statement, runs reads over memory-mapped columns, and sends writes to the
// primary over IPC.
import { join } from 'node:path';
import { Socket } from 'node:net';
import { loadParquetCodecs } from '../output/parquet-codecs.js';
import type { ServerConfig } from '../config/server-config.js';
import { Catalog } from '../storage/catalog.js';
import { parallelThreadsStarted, warmColdStore } from '../sql/compiler.js';
import { createHttpHandler } from '../http/app.js';
import { IpcWriterClient } from './ipc-writer-client.js';
import { parsePrimaryMessage } from './ipc.js';
import type { TcpProtocol, WorkerToPrimary } from './ipc.js';
import { startHttpServer } from './http-server.js';
import { buildHttpDeps } from './http-deps.js';
import { ilpTcpConnectionsOf } from './ilp-tcp-listener.js';
import { pgConnectionsOf } from './pg-listener.js';
import { TokenRegistry } from '../http/auth/token-registry.js';
import { parseTokenEntries } from '../accounts/token-entry.js';
import { readServiceAccounts, SERVICE_ACCOUNTS_RELATIVE_PATH, tokenEntriesOf } from '../accounts/service-account-file.js';
import { getLogger } from '../log/logger.js';
import { configureWorkerLogging } from '../log/worker-bridge.js';
import { unhandledErrorChannel } from '../core/diagnostics.js';
import { startMetricsRuntime } from '../metrics/metrics-runtime.js';
import { currentMappedBytes } from '../storage/mmap.js';
import { ActiveImports } from '../http/active-imports.js';
import { ConnectionShedder } from './connection-shedder.js';

const log = getLogger('worker');

export async function runWorker(config: ServerConfig): Promise<void> {
  const send = (message: WorkerToPrimary): void => {
    if (process.connected) process.send?.(message);
  };
  configureWorkerLogging((record) => send({ type: 'svc:log', record }));
  // ZSTD pages of Parquet partitions and read_parquet files decode synchronously inside scans.
  await loadParquetCodecs();
  warmColdStore();
  const metrics = config.metricsEnabled ? startMetricsRuntime({ mappedBytes: currentMappedBytes }) : undefined;
  const writer = new IpcWriterClient(send, config.queryTimeoutMs);
  const catalog = new Catalog(join(config.rootDir, 'db'), config.sqlCopyRoot);
  // Tokens as of start-up; from here on the primary broadcasts every change (and waits for the ack).
  const tokens = new TokenRegistry();
  tokens.replace(tokenEntriesOf(readServiceAccounts(join(config.rootDir, SERVICE_ACCOUNTS_RELATIVE_PATH))));
  const activeImports = new ActiveImports();
  const handler = createHttpHandler(buildHttpDeps(config, { catalog, writer, dbDir: join(config.rootDir, 'db'), tokens, activeImports }));
  forwardUnhandledErrors(send);
  // The IPC handler is installed before listening: a shutdown that arrives during start-up must not be lost.
  const shedder = connectionShedderOf(config, send);
  const starting = startHttpServer(config, handler, (req, res) => shedder.onRequest(req, res));
  const tcp = ilpTcpConnectionsOf(config, { catalog, writer, dbDir: join(config.rootDir, 'db') });
  const pg = pgConnectionsOf(config, { catalog, writer, dbDir: join(config.rootDir, 'db'), onForeignCancel: (processId, secretKey) => send({ type: 'svc:pg-cancel', processId, secretKey }) });
  const served: Record<TcpProtocol, HandedConnections | undefined> = { ilp: tcp, pg: pg?.connections };
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const running = await starting;
    const closed = running.close(config.shutdownDrainTimeoutMs);
    // TCP connections commit what they hold while the primary still answers (it waits for the workers to exit).
    const tcpClosed = tcp?.close(config.shutdownDrainTimeoutMs);
    const pgClosed = pg?.connections.close(config.shutdownDrainTimeoutMs);
    const aborted = activeImports.abortAll('server is shutting down');
    if (aborted > 0) log.info(`shutdown: rolled back ${aborted} import(s) in progress`);
    await closed;
    await tcpClosed;
    await pgClosed;
    process.exit(0);
  };
  process.on('message', (raw: unknown, handle: unknown) => {
    const message = parsePrimaryMessage(raw);
    if (message === undefined) return;
    if (message.type === 'svc:replies') {
      for (const reply of message.replies) writer.onReply(reply);
    }
    else if (message.type === 'svc:tcp-connection') serveHanded(message.protocol, handle, stopping ? undefined : served[message.protocol], send);
    else if (message.type === 'svc:shutdown') void stop();
    else if (message.type === 'svc:shed-connections') shedder.shed(message.order, message.count);
    else if (message.type === 'svc:pg-cancel') pg?.cancels.cancel(message.processId, message.secretKey);
    else if (message.type === 'svc:tokens') {
      tokens.replace(parseTokenEntries(message.tokens));
      send({ type: 'svc:tokens-ack', version: message.version });
    }
    else if (message.type === 'svc:metrics-request' && metrics !== undefined) {
      const requestId = message.requestId;
      void metrics.takeSnapshot().then((snapshot) => send({ type: 'svc:metrics-reply', requestId, snapshot }));
    }
  });
  process.on('disconnect', () => {
    writer.failAll('the primary process went away');
    void stop();
  });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => { /* the primary orchestrates shutdown */ });
  // Ready once the parallel query threads have loaded too: their start-up would otherwise share the cores with
  // the first queries (and be counted in their CPU time).
  await Promise.all([starting, parallelThreadsStarted()]);
  send({ type: 'svc:ready' });
  log.info(`worker ${process.pid} serving http://${config.httpBindHost}:${config.httpBindPort}`);
}

/** What serves the connections of one protocol here. */
interface HandedConnections {
  /** Serves `socket`; a promise when the connection's end comes after its socket's (ILP TCP: its last commit). */
  accept(socket: Socket): Promise<void> | void;
}

/**
 * A socket the primary accepted: served here, and reported when it is done (the primary counts them). An ILP TCP
 * connection is done once its last unit is committed, after its socket closed: the primary commits the rows it
 * holds back from out-of-order groups (engine/tcp-row-hold.ts) once no connection is left to send more.
 */
function serveHanded(protocol: TcpProtocol, handle: unknown, connections: HandedConnections | undefined, send: (message: WorkerToPrimary) => void): void {
  const report = (): void => send({ type: 'svc:tcp-closed', protocol });
  // The primary counted the connection when it sent it: it hears of its end whatever became of it here.
  if (!(handle instanceof Socket)) {
    report();
    return;
  }
  if (connections === undefined) {
    handle.once('close', report);
    handle.destroy();
    return;
  }
  const done = connections.accept(handle);
  if (done === undefined) handle.once('close', report);
  else void done.then(report);
}

/** Busy connections are counted either way (a metric); they are reported, and moved, only with rebalancing on. */
function connectionShedderOf(config: ServerConfig, send: (message: WorkerToPrimary) => void): ConnectionShedder {
  return new ConnectionShedder(config.httpConnectionRebalance ? (counts) => send({ type: 'svc:connections', ...counts }) : undefined);
}

/** The primary counts every process's unhandled errors (metrics, pessimistic health). */
function forwardUnhandledErrors(send: (message: WorkerToPrimary) => void): void {
  unhandledErrorChannel.subscribe((event) => {
    if (event.origin === 'local') send({ type: 'svc:unhandled-error', message: event.error instanceof Error ? (event.error.stack ?? event.error.message) : String(event.error) });
  });
}
