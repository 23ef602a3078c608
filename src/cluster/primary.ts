// The primary process: owns the engine (all writes, WAL, commits, recovery), the admin server on :9003 and
// the log writers; forks and supervises the HTTP workers, or serves HTTP (and ILP over TCP) itself when
// http.worker.count=0.
// SIGTERM/SIGINT: stop accepting, roll back imports still uploading, drain in-flight requests up to
// shutdown.drain.timeout, finish queued writes, close and fsync db/, release the root lock, exit 0.
// SIGHUP reopens the log files (after logrotate moved them).
import { join } from 'node:path';
import type { ServerConfig } from '../config/server-config.js';
import { realFiles } from '../core/files.js';
import { filesFromEnvironment } from '../core/fault-files.js';
import { Engine } from '../engine/engine.js';
import { WriterService, type AccountsBinding } from './writer-service.js';
import { ColdStorageManager } from '../engine/cold/cold-storage-manager.js';
import { LocalWriterClient } from './local-writer-client.js';
import { WorkerPool } from './worker-pool.js';
import type { WorkerSlot } from './worker-pool.js';
import { parseWorkerMessage } from './ipc.js';
import type { TcpProtocol, WorkerRequest, WorkerToPrimary } from './ipc.js';
import { errorToPayload } from '../core/errors.js';
import { createHttpHandler } from '../http/app.js';
import { startHttpServer } from './http-server.js';
import type { RunningHttpServer } from './http-server.js';
import { Catalog } from '../storage/catalog.js';
import { getLogger } from '../log/logger.js';
import { writeForwardedRecord } from '../log/worker-bridge.js';
import { flushLogsSync, reopenLogFiles, shutdownLogging } from '../log/configure.js';
import { parseLogRecordPayload } from '../log/log-record.js';
import { unhandledErrorChannel } from '../core/diagnostics.js';
import { startAdminServer, type AdminServer } from '../admin/admin-server.js';
import { startMetricsRuntime } from '../metrics/metrics-runtime.js';
import type { MetricsRuntime } from '../metrics/metrics-runtime.js';
import { createClusterMetricsCollector } from '../metrics/cluster-collector.js';
import { currentMappedBytes } from '../storage/mmap.js';
import { MetricsRequests } from './metrics-requests.js';
import { ReplyBatcher } from './reply-batcher.js';
import type { IlpCommitResult, ImportCommitResult, WriteResult } from '../engine/writer-client.js';
import { buildHttpDeps } from './http-deps.js';
import { ilpTcpAuthDbOf, ilpTcpListening, startIlpTcpListener } from './ilp-tcp-listener.js';
import type { RunningIlpTcpServer } from '../ilp/tcp-server.js';
import { removeStagedFilesOf } from '../ilp/staged-file-pool.js';
import { stagingRoot } from '../storage/staging-segment.js';
import { pgTlsContextOf, startPgListener, type PgListener } from './pg-listener.js';
import { TokenBroadcast } from './token-broadcast.js';
import { ConnectionRebalancer } from './connection-rebalancer.js';
import { TcpDispatcher } from './tcp-dispatcher.js';
import { WorkersStarting } from './workers-starting.js';
import { ServiceAccounts } from '../accounts/service-accounts.js';
import { SERVICE_ACCOUNTS_RELATIVE_PATH } from '../accounts/service-account-file.js';
import type { TokenEntry } from '../accounts/token-entry.js';
import { TokenRegistry } from '../http/auth/token-registry.js';
import type { RecoveryReport } from '../engine/engine.js';
import type { RootLock } from './root-lock.js';
import { ActiveImports } from '../http/active-imports.js';
import { parquetPartitionEncoder, partitionEncodingOf } from '../output/parquet-partition-encoder.js';
import { loadParquetCodecs } from '../output/parquet-codecs.js';
import { prepareReplication, type ReplicationRuntime, type ReplicationStatus } from '../replication/replication-runtime.js';
import { decodeStatement } from '../sql/compiler.js';

const log = getLogger('server-main');

function logRecovery(recovery: RecoveryReport, lock: RootLock, version: string, rootDir: string): void {
  const stale = lock.staleOwner;
  // Killed or crashed (kill -9, power loss): a critical record, so it reaches the alert writer.
  if (stale !== undefined) {
    log.critical(`the previous run${stale.pid > 0 ? ` (pid ${stale.pid})` : ''} did not shut down cleanly: stale lock replaced; recovered ${recovery.tables} tables, replayed ${recovery.replayedRecords} WAL records`);
  }
  for (const name of recovery.removedLeftovers) log.info(`recovery: removed ${name === '.staging' ? 'staging segments of uncommitted imports' : `dropped table leftover ${name}`}`);
  if (recovery.uncommittedGroupRecords > 0) log.info(`recovery: left out ${recovery.uncommittedGroupRecords} WAL record(s) of commits across tables that never reached their commit point`);
  for (const table of recovery.replayed) {
    log.info(`recovery: table ${table.table} replayed ${table.records} WAL record(s) [seq ${table.firstSeq}..${table.lastSeq}, rows ${table.rows}]`);
  }
  log.advisory(`svc ${version} root=${rootDir} tables=${recovery.tables} replayed WAL records=${recovery.replayedRecords}`);
}

/** The engine over db/, recovered, except on a replica, whose files are the primary's applied whole commits. */
async function openEngine(config: ServerConfig, replica: boolean, lock: RootLock, version: string): Promise<Engine> {
  // CONVERT PARTITION may write ZSTD and rewrites decode Parquet partitions, synchronously.
  await loadParquetCodecs();
  const engine = new Engine({
    rootDir: config.rootDir, files: filesFromEnvironment(realFiles, process.env), commitMode: config.commitMode, walSegmentBytesMax: config.walSegmentBytesMax,
    uncommittedRowsMax: config.uncommittedRowsMax, o3LagMaxMs: config.o3LagMaxMs,
    sqlCopyRoot: config.sqlCopyRoot,
    parquetEncoder: parquetPartitionEncoder(partitionEncodingOf(config.parquetRowGroupRows, config.parquetCodec, config.parquetCompressionLevel)),
  });
  if (replica) log.advisory(`svc ${version} root=${config.rootDir} replica of ${config.replicationPrimaryUrl ?? 'the primary'}`);
  else logRecovery(engine.recover(), lock, version, config.rootDir);
  return engine;
}

export async function runPrimary(config: ServerConfig, version: string, lock: RootLock): Promise<void> {
  // Signals are taken from the first moment: one arriving during recovery or while workers start is kept
  // and acted on once start-up is complete, instead of killing the process with the default disposition.
  let onStopSignal: ((signal: string) => void) | undefined;
  let pendingSignal: string | undefined;
  const stopSignal = (signal: string): void => {
    if (onStopSignal === undefined) pendingSignal ??= signal;
    else onStopSignal(signal);
  };
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => stopSignal(signal));
  for (const dir of ['conf', 'db', 'log', 'public']) realFiles.mkdirs(join(config.rootDir, dir));
  // Before recovery: a primary must hold the store's writer lease (and a promoted replica catch up) first.
  const replication = await prepareReplication(config);
  const engine = await openEngine(config, replication.role === 'replica', lock, version);
  // Service accounts live in the primary; token changes reach the workers (or the local handler) before the
  // statement that made them answers.
  const accounts = new ServiceAccounts(join(config.rootDir, SERVICE_ACCOUNTS_RELATIVE_PATH));
  const localTokens = new TokenRegistry();
  localTokens.replace(accounts.tokenEntries());
  let workers: Workers | undefined;
  const publish = (entries: readonly TokenEntry[]): Promise<void> => {
    localTokens.replace(entries);
    return workers === undefined ? Promise.resolve() : workers.broadcast.publish(entries);
  };
  // A TCP tick's ILP group waits for the units of every worker serving TCP connections (tick-gather.ts).
  const ilpTcpOwners = (): ReadonlySet<string> => new Set((workers?.dispatchers.ilp?.servingSlots() ?? []).map(ilpOwnerOfSlot));
  const { service, cold } = await startWriterSide(config, engine, { accounts, publish }, replication, ilpTcpOwners);
  const activeImports = new ActiveImports();
  const metrics: MetricsRuntime | undefined = config.metricsEnabled ? startMetricsRuntime({ mappedBytes: currentMappedBytes }) : undefined;
  const metricsRequests = new MetricsRequests();
  const replies = new ReplyBatcher((slot, message) => workers?.pool.send(slot, message));
  let stopping = false;
  let localHttp: RunningHttpServer | undefined;
  let localTcp: RunningIlpTcpServer | undefined;
  let localPg: PgListener | undefined;
  // Whoever serves TCP loads its keys; a bad file stops the start here, before anything listens or forks.
  if (ilpTcpListening(config)) ilpTcpAuthDbOf(config);
  // Likewise the PG TLS certificate and key: a bad pair stops the start here.
  if (config.pgEnabled) pgTlsContextOf(config);
  if (config.httpEnabled && config.httpWorkerCount > 0) {
    workers = await startWorkers(config, service, replies, metricsRequests);
  } else if (config.httpEnabled) {
    const handler = createHttpHandler(buildHttpDeps(config, {
      catalog: new Catalog(engine.dbDir, config.sqlCopyRoot), writer: new LocalWriterClient(service, config.queryTimeoutMs), dbDir: engine.dbDir, tokens: localTokens, activeImports,
    }));
    localHttp = await startHttpServer(config, handler);
  }
  if (workers === undefined) {
    localTcp = await startIlpTcpListener(config, { catalog: new Catalog(engine.dbDir, config.sqlCopyRoot), writer: new LocalWriterClient(service, config.queryTimeoutMs), dbDir: engine.dbDir });
    localPg = await startPgListener(config, { catalog: new Catalog(engine.dbDir, config.sqlCopyRoot), writer: new LocalWriterClient(service, config.queryTimeoutMs), dbDir: engine.dbDir });
  }
  replication.follow(() => void publish(new ServiceAccounts(join(config.rootDir, SERVICE_ACCOUNTS_RELATIVE_PATH)).tokenEntries()));
  const admin = await startAdmin(config, metrics, metricsRequests, () => workers?.pool, () => stopping, replication);
  logListening(config, admin?.port, localTcp?.port ?? workers?.dispatchers.ilp?.port, localPg?.server.port ?? workers?.dispatchers.pg?.port);

  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info(`${signal} received, draining [drain=${config.shutdownDrainTimeoutMs}ms]`);
    service.snapshot.release(signal);
    workers?.rebalancer?.stop();
    const closingHttp = localHttp?.close(config.shutdownDrainTimeoutMs);
    const closingTcp = localTcp?.close(config.shutdownDrainTimeoutMs);
    const closingDispatchers = Promise.all(Object.values(workers?.dispatchers ?? {}).map((dispatcher) => dispatcher.close()));
    const closingPg = localPg?.server.close(config.shutdownDrainTimeoutMs);
    activeImports.abortAll('server is shutting down');
    await workers?.pool.stop(config.shutdownDrainTimeoutMs);
    await closingHttp;
    await closingTcp;
    await closingDispatchers;
    await closingPg;
    await cold.close();
    await service.idle();
    await replication.close();
    const synced = engine.close();
    await admin?.close();
    metrics?.close();
    lock.release();
    log.info(`stopped in ${Date.now() - started} ms; ${synced} files flushed to disk`);
    await shutdownLogging();
    process.exit(0);
  };
  onStopSignal = (signal) => void shutdown(signal);
  if (pendingSignal !== undefined) onStopSignal(pendingSignal);
  process.on('SIGHUP', () => {
    reopenLogFiles();
    log.info('SIGHUP received: log files reopened');
  });
  process.on('exit', () => flushLogsSync());
}

/** The worker processes and what serves them in the primary. */
interface Workers {
  readonly pool: WorkerPool;
  readonly broadcast: TokenBroadcast;
  /** Absent with rebalancing off or a single worker. */
  readonly rebalancer: ConnectionRebalancer | undefined;
  /** Absent with ILP TCP off, with PostgreSQL off. */
  readonly dispatchers: Partial<Record<TcpProtocol, TcpDispatcher>>;
}

/** Forks the workers once the ILP TCP and PG ports are bound (a connection that arrives first waits for a ready worker). */
async function startWorkers(config: ServerConfig, service: WriterService, replies: ReplyBatcher, metricsRequests: MetricsRequests): Promise<Workers> {
  let workers: Workers | undefined;
  const starting = new WorkersStarting(Array.from({ length: config.httpWorkerCount }, (_, k) => k + 1));
  const pool = new WorkerPool(config.httpWorkerCount, (slot, raw) => {
    const message = parseWorkerMessage(raw);
    if (message === undefined || workers === undefined) return;
    if (message.type === 'svc:ready') starting.ready(slot.slot);
    if (message.type === 'svc:tokens-ack') workers.broadcast.onAck(slot.slot, message.version);
    else handleWorkerMessage(slot, message, { ...workers, replies, service, metricsRequests });
  }, (slot, pid) => {
    if (starting.exited(slot.slot, pid)) pool.holdRestarts();
    service.ilpOrder.ownerGone(ilpOwnerOf(slot));
    // The files its ILP requests staged in are its own (ilp/staged-file-pool.ts): nobody else deletes them.
    if (pid !== undefined) removeStagedFilesOf(stagingRoot(join(config.rootDir, 'db')), pid);
    for (const dispatcher of Object.values(workers?.dispatchers ?? {})) dispatcher.onExit(slot);
    service.tcpConnectionsChanged();
  });
  const rebalancer = config.httpConnectionRebalance && config.httpWorkerCount > 1 ? new ConnectionRebalancer(pool) : undefined;
  const dispatchers: Partial<Record<TcpProtocol, TcpDispatcher>> = {};
  if (ilpTcpListening(config)) dispatchers.ilp = await TcpDispatcher.start('ilp', config.ilpTcpBindHost, config.ilpTcpBindPort, pool);
  if (config.pgEnabled) dispatchers.pg = await TcpDispatcher.start('pg', config.pgBindHost, config.pgBindPort, pool);
  workers = { pool, broadcast: new TokenBroadcast(pool), rebalancer, dispatchers };
  pool.start();
  try {
    await starting.done;
  } catch (error) {
    await pool.stop(0);
    await Promise.all(Object.values(dispatchers).map((dispatcher) => dispatcher.close()));
    throw error;
  }
  return workers;
}

/** The write queue, and the cold-storage manager that runs storage policies through it. */
async function startWriterSide(
  config: ServerConfig, engine: Engine, accounts: AccountsBinding, replication: ReplicationRuntime, ilpTcpOwners: () => ReadonlySet<string>,
): Promise<{ service: WriterService; cold: ColdStorageManager }> {
  const refusal = replication.writeRefusal === undefined ? {} : { refuseWrites: replication.writeRefusal };
  const service = new WriterService(engine, { accounts, snapshotTimeoutMs: config.snapshotPrepareTimeoutMs, ilpCommitOrderWaitMs: config.ilpHttpCommitOrderWaitMs, ilpTcpOwners, ilpTcpCommitIntervalMs: config.ilpTcpCommitIntervalMs, ...refusal });
  // Only a primary manages the cold store (uploads, manifests, deletion); a replica's cold partitions arrive as
  // its primary's _txn changes and are read from the store like anyone's.
  const cold = new ColdStorageManager({
    engine, connection: replication.role === 'replica' ? null : config.coldStorageObjectStore, exclusive: (work) => service.runExclusive(work),
    checkIntervalMs: config.storagePolicyCheckIntervalMs, deleteGraceMs: config.coldDeleteGraceMs, reuploadSettleMs: config.coldReuploadSettleMs,
  });
  service.attachColdStorage(cold);
  cold.start();
  await replication.attachWriter(service);
  return { service, cold };
}

/** The health and metrics server (http.min), when enabled: metrics gathered from every process. */
function startAdmin(
  config: ServerConfig, metrics: MetricsRuntime | undefined, metricsRequests: MetricsRequests,
  pool: () => WorkerPool | undefined, draining: () => boolean, replication: ReplicationRuntime,
): Promise<AdminServer | undefined> {
  if (!config.httpMinEnabled) return Promise.resolve(undefined);
  return startAdminServer({
    host: config.httpMinBindHost, port: config.httpMinBindPort, metricsEnabled: config.metricsEnabled,
    pessimisticHealth: config.pessimisticHealthCheckEnabled,
    collect: metrics === undefined ? async () => '' : createClusterMetricsCollector({
      takeLocalSnapshot: () => {
        setReplicationGauges(metrics, replication.status());
        return metrics.takeSnapshot();
      },
      requestSnapshots: (timeoutMs) => {
        const workers = pool();
        return workers === undefined ? Promise.resolve([]) : metricsRequests.request(workers, timeoutMs);
      },
    }).collect,
    unhandledErrors: () => metrics?.unhandledErrorsSeen() ?? 0,
    draining,
    unhealthyReason: () => replication.unhealthyReason(),
  });
}

function setReplicationGauges(metrics: MetricsRuntime, status: ReplicationStatus): void {
  if (status.role === 'none') return;
  metrics.metrics.replicationUploadLag.set(status.uploadLagSeconds);
  metrics.metrics.replicationPendingBytes.set(status.pendingBytes);
  metrics.metrics.replicationShippedSequence.set(status.shippedSeq);
  metrics.metrics.replicationLag.set(status.lagSeconds);
  metrics.metrics.replicationAppliedSequence.set(status.appliedSeq);
}

function logListening(config: ServerConfig, adminPort: number | undefined, localTcpPort: number | undefined, localPgPort: number | undefined): void {
  const tcpAddress = ilpTcpListening(config) ? `${config.ilpTcpBindHost}:${localTcpPort ?? config.ilpTcpBindPort}` : 'disabled';
  const pgAddress = config.pgEnabled ? `${config.pgBindHost}:${localPgPort ?? config.pgBindPort}` : 'disabled';
  log.advisory(`listening: http ${config.httpBindHost}:${config.httpBindPort} (${config.httpWorkerCount} workers), min http ${config.httpMinBindHost}:${adminPort ?? 'disabled'}, ilp tcp ${tcpAddress}, pg ${pgAddress}`);
}

interface WorkerMessageDeps {
  readonly pool: WorkerPool;
  readonly replies: ReplyBatcher;
  readonly service: WriterService;
  readonly metricsRequests: MetricsRequests;
  /** Absent with rebalancing off or a single worker: connection counts are then not reported. */
  readonly rebalancer: ConnectionRebalancer | undefined;
  /** By protocol; absent for one that is off. */
  readonly dispatchers: Partial<Record<TcpProtocol, TcpDispatcher>>;
}

/** Answers request `id` of the worker in `slot` once `outcome` settles (in that worker's next batch of replies). */
function replyWhenSettled(replies: ReplyBatcher, slot: WorkerSlot, id: number, outcome: Promise<WriteResult | ImportCommitResult | IlpCommitResult>): void {
  outcome.then(
    (result) => replies.reply(slot, { id, ok: true, result }),
    (error: unknown) => replies.reply(slot, { id, ok: false, error: replyError(error) }),
  );
}

/** Runs one request of a worker; a statement that cannot be decoded fails alone. */
function serve(service: WriterService, slot: WorkerSlot, request: WorkerRequest): Promise<WriteResult | ImportCommitResult | IlpCommitResult> {
  switch (request.type) {
    case 'svc:write':
      try {
        return service.executeWrite(decodeStatement(request.statement), request.timeoutMs);
      } catch (error) {
        return Promise.reject(error);
      }
    case 'svc:import-commit': return service.importCommit(request.request);
    case 'svc:ilp-commit': return service.ilpCommit(request.request, ilpOwnerOf(slot));
  }
}

function handleWorkerMessage(slot: WorkerSlot, message: WorkerToPrimary, deps: WorkerMessageDeps): void {
  const { pool, replies, service, metricsRequests } = deps;
  switch (message.type) {
    case 'svc:requests':
      for (const request of message.requests) replyWhenSettled(replies, slot, request.id, serve(service, slot, request));
      return;
    case 'svc:unhandled-error':
      // The worker already logged its C record (forwarded here); this only feeds metrics and health.
      unhandledErrorChannel.publish({ source: `worker-${slot.slot}`, origin: 'worker', error: new Error(message.message) });
      return;
    case 'svc:metrics-reply':
      metricsRequests.onReply(slot.slot, message.requestId, message.snapshot);
      return;
    case 'svc:log': {
      const record = parseLogRecordPayload(message.record);
      if (record !== undefined) writeForwardedRecord(record);
      return;
    }
    case 'svc:pg-cancel':
      // The worker that received the CancelRequest does not hold the connection: every other worker looks.
      for (const other of pool.slots) {
        if (other !== slot) pool.send(other, { type: 'svc:pg-cancel', processId: message.processId, secretKey: message.secretKey });
      }
      return;
    case 'svc:connections':
      deps.rebalancer?.onReport(slot, message.busy, message.leaving, message.settledOrder);
      return;
    case 'svc:ilp-announce':
      service.ilpOrder.announce(ilpOwnerOf(slot), message.announcement.id, message.announcement.starts);
      return;
    case 'svc:ilp-withdraw':
      service.ilpOrder.withdraw(ilpOwnerOf(slot), message.id);
      return;
    case 'svc:tcp-closed':
      deps.dispatchers[message.protocol]?.onClosed(slot);
      if (message.protocol === 'ilp') service.tcpConnectionsChanged();
      return;
    case 'svc:ready':
      for (const dispatcher of Object.values(deps.dispatchers)) dispatcher.onReady(slot);
      return;
    case 'svc:tokens-ack':
      return;
  }
}

/** Whose ILP announcements a worker's are: its slot (a restarted worker's ids start again, so it is told apart on exit). */
function ilpOwnerOf(slot: WorkerSlot): string {
  return ilpOwnerOfSlot(slot.slot);
}

function ilpOwnerOfSlot(slot: number): string {
  return `worker-${slot}`;
}

function replyError(error: unknown): ReturnType<typeof errorToPayload> {
  const payload = errorToPayload(error);
  if (payload.code === 'SVC_INTERNAL') {
    // The unhandled-error subscriber of log/ writes the C record (and so the alert).
    unhandledErrorChannel.publish({ source: 'writer', origin: 'local', error });
  }
  return payload;
}
