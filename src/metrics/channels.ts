// Subscribers that turn the svc:* diagnostics events (names and payloads in core/diagnostics.ts) into
// updates of this process's metrics. Nothing in storage/, sql/ or http/ imports metrics/: they publish,
// this file listens. A subscriber that throws would crash the publisher's process (diagnostics_channel
// rethrows on the next tick), so every handler checks its numbers and never throws on bad input.
import {
  catalogChannel,
  coldChunkChannel,
  type ColdChunkEvent,
  commitChannel,
  HTTP_ENDPOINTS,
  httpRequestChannel,
  importRowsChannel,
  ilpChannel,
  ilpConnectionChannel,
  ilpHeldChannel,
  pgConnectionChannel,
  httpConnectionChannel,
  pgQueryChannel,
  ILP_TRANSPORTS,
  type IlpTransport,
  QUERY_OUTCOMES,
  queryChannel,
  readerChannel,
  sqlCompileChannel,
  sqlParallelChannel,
  unhandledErrorChannel,
  walChannel,
  workerRestartChannel,
  type HttpEndpoint,
  type QueryOutcome,
  type ReaderEvent,
  type WalEvent,
} from '../core/diagnostics.js';
import type { SvcMetrics } from './registry.js';

export interface MetricsSubscription {
  /** Unhandled errors this process saw: its own plus those its workers reported (primary only). */
  unhandledErrorsSeen(): number;
  unsubscribe(): void;
}

export function subscribeMetricsChannels(metrics: SvcMetrics): MetricsSubscription {
  let unhandledErrorsSeen = 0;
  const unsubscribers = [
    httpRequestChannel.subscribe((event) => {
      const endpoint = endpointLabel(event.endpoint);
      metrics.httpRequests.inc({ endpoint, status: statusLabel(event.status) });
      const seconds = durationSeconds(event.durationMs);
      if (seconds !== undefined) metrics.httpRequestDuration.observe({ endpoint }, seconds);
      if (endpoint === 'write') metrics.ilpRequests.inc({ status: statusLabel(event.status) });
    }),
    ...subscribeProtocolChannels(metrics),
    queryChannel.subscribe((event) => {
      const endpoint = endpointLabel(event.endpoint);
      metrics.queries.inc({ endpoint, outcome: outcomeLabel(event.outcome) });
      const seconds = durationSeconds(event.durationMs);
      if (seconds !== undefined) metrics.queryDuration.observe({ endpoint }, seconds);
    }),
    importRowsChannel.subscribe((event) => {
      metrics.importRowsImported.inc(countOf(event.rowsImported));
      metrics.importRowsRejected.inc(countOf(event.rowsRejected));
    }),
    commitChannel.subscribe((event) => {
      metrics.commits.inc();
      if (event.outOfOrder) metrics.o3Commits.inc();
      metrics.committedRows.inc(countOf(event.rowsCommitted));
      metrics.physicallyWrittenRows.inc(countOf(event.rowsPhysical));
      metrics.tableRows.set({ table: String(event.table) }, countOf(event.tableRows));
    }),
    catalogChannel.subscribe((event) => {
      const tables = Array.isArray(event.tables) ? event.tables : [];
      // Full state: forget dropped tables' series, then set every table present.
      metrics.tableRows.reset();
      for (const table of tables) metrics.tableRows.set({ table: String(table.name) }, countOf(table.rows));
      metrics.tables.set(tables.length);
    }),
    sqlCompileChannel.subscribe((event) => {
      if (event.kind === 'compiled') metrics.sqlCompiledFunctions.inc();
      else metrics.sqlCompileCacheHits.inc();
      if (event.evicted > 0) metrics.sqlCompileCacheEvictions.inc(countOf(event.evicted));
      metrics.sqlCompileCacheEntries.set(countOf(event.cacheEntries));
    }),
    sqlParallelChannel.subscribe((event) => {
      metrics.sqlParallelFragmentsRunning.set(countOf(event.running));
      if (event.kind === 'threadDied') metrics.sqlParallelThreadDeaths.inc();
      if (event.kind === 'cancelStopped') metrics.sqlParallelCancelStop.observe((event.stopMs ?? 0) / 1000);
      if (event.kind === 'finished') metrics.sqlParallelFragments.inc({ outcome: event.outcome ?? 'ok' });
    }),
    walChannel.subscribe((event) => onWalEvent(metrics, event)),
    readerChannel.subscribe((event) => onReaderEvent(metrics, event)),
    coldChunkChannel.subscribe((event) => onColdChunkEvent(metrics, event)),
    workerRestartChannel.subscribe(() => {
      metrics.workerRestarts.inc();
    }),
    unhandledErrorChannel.subscribe((event) => {
      unhandledErrorsSeen += 1;
      // Errors a worker reported were counted in that worker's own counter; the sum shows them once.
      if (event.origin === 'local') metrics.unhandledErrors.inc();
    }),
  ];
  return {
    unhandledErrorsSeen: () => unhandledErrorsSeen,
    unsubscribe(): void {
      for (const unsubscribe of unsubscribers) unsubscribe();
    },
  };
}

/** The ingestion and PostgreSQL protocol channels: rows, commits and connections per transport, PG statements. */
function subscribeProtocolChannels(metrics: SvcMetrics): (() => void)[] {
  return [
    ilpChannel.subscribe((event) => {
      const transport = transportLabel(event.transport);
      metrics.ilpRows.inc({ transport }, countOf(event.rows));
      const seconds = durationSeconds(event.commitMs);
      if (seconds !== undefined) metrics.ilpCommitDuration.observe({ transport }, seconds);
    }),
    ilpHeldChannel.subscribe((event) => {
      metrics.ilpTcpHeldRows.set(countOf(event.rows));
    }),
    ilpConnectionChannel.subscribe((event) => {
      const transport = transportLabel(event.transport);
      if (event.delta === 1) metrics.ilpConnections.inc({ transport });
      else if (event.delta === -1) metrics.ilpConnections.dec({ transport });
    }),
    httpConnectionChannel.subscribe((event) => {
      if (event.kind === 'busy') metrics.httpConnectionsBusy.set(countOf(event.busy));
      else metrics.httpConnectionsRebalanced.inc();
    }),
    pgConnectionChannel.subscribe((event) => {
      if (event.delta === 1) metrics.pgConnections.inc();
      else if (event.delta === -1) metrics.pgConnections.dec();
    }),
    pgQueryChannel.subscribe((event) => {
      metrics.pgQueries.inc({ outcome: outcomeLabel(event.outcome) });
    }),
  ];
}

function onWalEvent(metrics: SvcMetrics, event: WalEvent): void {
  switch (event.kind) {
    case 'append':
      metrics.walBytes.inc(countOf(event.bytes));
      return;
    case 'replay':
      metrics.walReplayedRecords.inc(countOf(event.records));
      return;
    default:
      // A payload outside the union is a publisher bug; ignoring it keeps that bug from crashing here.
      return;
  }
}

function onReaderEvent(metrics: SvcMetrics, event: ReaderEvent): void {
  switch (event.kind) {
    case 'open':
      metrics.readersOpen.inc();
      return;
    case 'close':
      metrics.readersOpen.dec();
      return;
    case 'pins':
      metrics.partitionVersionsPinned.set(countOf(event.partitionVersionsPinned));
      return;
    default:
      return;
  }
}

function onColdChunkEvent(metrics: SvcMetrics, event: ColdChunkEvent): void {
  switch (event.kind) {
    case 'acquire': {
      const hits = countOf(event.hitChunks);
      const misses = countOf(event.missChunks);
      if (misses === 0) metrics.coldAcquireFullHit.inc();
      else if (hits === 0) metrics.coldAcquireFullMiss.inc();
      else metrics.coldAcquirePartialHit.inc();
      metrics.coldAcquireHitChunks.inc(hits);
      metrics.coldAcquireMissChunks.inc(misses);
      metrics.coldDownloadCoalesced.inc(countOf(event.coalescedReaders));
      return;
    }
    case 'download':
      if (event.phase === 'started') metrics.coldDownloadStarted.inc();
      else if (event.phase === 'failed') metrics.coldDownloadFailed.inc();
      else {
        metrics.coldDownloadFinished.inc();
        metrics.coldDownloadBytes.inc(countOf(event.bytes));
      }
      return;
    case 'evict':
      metrics.coldReleaseEvictions.inc(countOf(event.chunks));
      return;
    case 'gauges':
      metrics.coldInFlightDownloads.set(countOf(event.inFlightDownloads));
      metrics.coldPendingBatches.set(countOf(event.pendingBatches));
      metrics.coldBusyLeases.set(countOf(event.busyLeases));
      metrics.coldReadyChunks.set(countOf(event.readyChunks));
      metrics.coldPinnedBytes.set(countOf(event.pinnedBytes));
      return;
    default:
      return;
  }
}

/** Counters reject negative and non-finite increments by throwing; clamp instead (see header). */
function countOf(value: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function durationSeconds(durationMs: number): number | undefined {
  return typeof durationMs === 'number' && Number.isFinite(durationMs) && durationMs >= 0 ? durationMs / 1000 : undefined;
}

function endpointLabel(endpoint: string): HttpEndpoint {
  return (HTTP_ENDPOINTS as readonly string[]).includes(endpoint) ? (endpoint as HttpEndpoint) : 'other';
}

function transportLabel(transport: string): IlpTransport | 'other' {
  return (ILP_TRANSPORTS as readonly string[]).includes(transport) ? (transport as IlpTransport) : 'other';
}

function outcomeLabel(outcome: string): QueryOutcome | 'other' {
  return (QUERY_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as QueryOutcome) : 'other';
}

/** Exact status codes are a small closed set; anything outside 100..599 is a publisher bug. */
function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other';
}
