// The primary process: owns the engine (all writes, WAL, commits, recovery), the admin server on :9003 and
// the log writers; forks and supervises the HTTP workers, or serves HTTP itself when http.worker.count=0.
// SIGTERM/SIGINT: stop accepting, drain workers, finish queued writes, close the engine, exit 0.
import { join } from 'node:path';
import type { ServerConfig } from '../config/server-config.js';
import { realFiles } from '../core/files.js';
import { filesFromEnvironment } from '../core/fault-files.js';
import { Engine } from '../engine/engine.js';
import { WriterService } from './writer-service.js';
import { LocalWriterClient } from './local-writer-client.js';
import { WorkerPool } from './worker-pool.js';
import type { WorkerSlot } from './worker-pool.js';
import { parseWorkerMessage } from './ipc.js';
import type { WorkerToPrimary } from './ipc.js';
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
import { startAdminServer } from '../admin/admin-server.js';
import { startMetricsRuntime } from '../metrics/metrics-runtime.js';
import type { MetricsRuntime } from '../metrics/metrics-runtime.js';
import { createClusterMetricsCollector } from '../metrics/cluster-collector.js';
import { currentMappedBytes } from '../storage/mmap.js';
import { MetricsRequests } from './metrics-requests.js';
import { claimRunMarker, releaseRunMarker } from './run-marker.js';

const log = getLogger('server-main');

export async function runPrimary(config: ServerConfig, version: string): Promise<void> {
  for (const dir of ['conf', 'db', 'log', 'public']) realFiles.mkdirs(join(config.rootDir, dir));
  const engine = new Engine({
    rootDir: config.rootDir, files: filesFromEnvironment(realFiles, process.env), commitMode: config.commitMode, walSegmentBytesMax: config.walSegmentBytesMax,
    uncommittedRowsMax: config.uncommittedRowsMax, o3LagMaxMs: config.o3LagMaxMs,
  });
  const uncleanPid = claimRunMarker(config.rootDir);
  const recovery = engine.recover();
  log.advisory(`svc ${version} root=${config.rootDir} tables=${recovery.tables} replayed WAL records=${recovery.replayedRecords}`);
  if (uncleanPid !== undefined) {
    log.critical(`the previous primary (pid ${uncleanPid}) stopped without a clean shutdown; recovered ${recovery.tables} tables, replayed ${recovery.replayedRecords} WAL records`);
  }
  const service = new WriterService(engine);
  const metrics: MetricsRuntime | undefined = config.metricsEnabled ? startMetricsRuntime({ mappedBytes: currentMappedBytes }) : undefined;
  const metricsRequests = new MetricsRequests();
  let pool: WorkerPool | undefined;
  let localHttp: RunningHttpServer | undefined;

  const onWorkerMessage = (slot: WorkerSlot, raw: unknown): void => {
    const message = parseWorkerMessage(raw);
    if (message !== undefined && pool !== undefined) handleWorkerMessage(slot, message, pool, service, metricsRequests);
  };
  if (config.httpEnabled && config.httpWorkerCount > 0) {
    pool = new WorkerPool(config.httpWorkerCount, onWorkerMessage);
    pool.start();
  } else if (config.httpEnabled) {
    const handler = createHttpHandler({ catalog: new Catalog(engine.dbDir), writer: new LocalWriterClient(service, config.queryTimeoutMs), queryTimeoutMs: config.queryTimeoutMs, readOnly: config.httpReadOnly, dbDir: engine.dbDir, analysisMaxLines: config.importAnalysisLinesMax, exportTimeoutMs: config.httpExportTimeoutMs });
    localHttp = await startHttpServer(config, handler);
  }
  const admin = config.httpMinEnabled ? await startAdminServer({
    host: config.httpMinBindHost, port: config.httpMinBindPort, metricsEnabled: config.metricsEnabled,
    pessimisticHealth: config.pessimisticHealthCheckEnabled,
    collect: metrics === undefined ? async () => '' : createClusterMetricsCollector({
      takeLocalSnapshot: () => metrics.takeSnapshot(),
      requestSnapshots: (timeoutMs) => (pool === undefined ? Promise.resolve([]) : metricsRequests.request(pool, timeoutMs)),
    }).collect,
    unhandledErrors: () => metrics?.unhandledErrorsSeen() ?? 0,
  }) : undefined;
  log.advisory(`listening: http ${config.httpBindHost}:${config.httpBindPort} (${config.httpWorkerCount} workers), min http ${config.httpMinBindHost}:${admin?.port ?? 'disabled'}`);

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, draining`);
    await pool?.stop(config.shutdownDrainTimeoutMs);
    await localHttp?.close(config.shutdownDrainTimeoutMs);
    await service.idle();
    engine.close();
    releaseRunMarker(config.rootDir);
    await admin?.close();
    metrics?.close();
    log.info('stopped');
    await shutdownLogging();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => reopenLogFiles());
  process.on('exit', () => flushLogsSync());
}

function handleWorkerMessage(slot: WorkerSlot, message: WorkerToPrimary, pool: WorkerPool, service: WriterService, metricsRequests: MetricsRequests): void {
  switch (message.type) {
    case 'svc:write':
      service.executeWrite(message.sql, message.timeoutMs).then(
        (result) => pool.send(slot, { type: 'svc:reply', id: message.id, ok: true, result }),
        (error: unknown) => pool.send(slot, { type: 'svc:reply', id: message.id, ok: false, error: replyError(error) }),
      );
      return;
    case 'svc:import-commit':
      service.importCommit(message.request).then(
        (result) => pool.send(slot, { type: 'svc:reply', id: message.id, ok: true, result }),
        (error: unknown) => pool.send(slot, { type: 'svc:reply', id: message.id, ok: false, error: replyError(error) }),
      );
      return;
    case 'svc:import-abort':
      void service.importAbort(message.segmentDir).then(() => pool.send(slot, { type: 'svc:reply', id: message.id, ok: true, result: null }));
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
    case 'svc:ready':
      return;
  }
}

function replyError(error: unknown): ReturnType<typeof errorToPayload> {
  const payload = errorToPayload(error);
  if (payload.code === 'SVC_INTERNAL') {
    // The unhandled-error subscriber of log/ writes the C record (and so the alert).
    unhandledErrorChannel.publish({ source: 'writer', origin: 'local', error });
  }
  return payload;
}
