// Every svc_* metric in one table (name, help, type, labels, how the primary combines processes) and
// the factory that registers them on a fresh prom-client Registry. Every process registers the whole
// table, so every snapshot has the same families and histogram buckets; only the primary's collector
// reads the `mode` column. Counters end in _total; units are base units (seconds, bytes).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export type MetricType = 'counter' | 'gauge' | 'histogram';

/**
 * How the primary combines one metric across processes:
 * - sum: counters, histograms (bucket counts add up correctly) and gauges that count things each
 *   process holds (open readers);
 * - max: gauges that several processes report about the same shared state (table row counts);
 * - per-process: each process's value kept apart under a `process` label the collector adds;
 * - scrape: computed by the collector at scrape time, not registered in any process.
 */
export type AggregationMode = 'sum' | 'max' | 'per-process' | 'scrape';

export interface MetricDefinition {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  /** Labels set in the process; per-process metrics additionally get `process` from the collector. */
  readonly labels: readonly string[];
  readonly mode: AggregationMode;
  readonly buckets?: readonly number[];
}

/** Request and query durations: 1 ms to 60 s, in seconds. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;
const COLD = 'Cold read path (README "Cold reads").';

function counter<const L extends readonly string[]>(name: string, help: string, labels: L) {
  return { name, help, type: 'counter', labels, mode: 'sum' } as const;
}
function gauge<const L extends readonly string[], const M extends AggregationMode>(name: string, help: string, labels: L, mode: M) {
  return { name, help, type: 'gauge', labels, mode } as const;
}
function histogram<const L extends readonly string[]>(name: string, help: string, labels: L) {
  return { name, help, type: 'histogram', labels, mode: 'sum', buckets: DURATION_BUCKETS } as const;
}

export const METRIC_DEFINITIONS = {
  unhandledErrors: counter('svc_unhandled_errors_total', 'Unhandled errors (bugs) since start, all processes; drives pessimistic health.', []),
  httpRequests: counter('svc_http_requests_total', 'HTTP requests answered on the main port, by endpoint and status.', ['endpoint', 'status']),
  httpRequestDuration: histogram('svc_http_request_duration_seconds', 'HTTP request duration on the main port, by endpoint.', ['endpoint']),
  queries: counter('svc_queries_total', 'Statements run by execute and export, and uploads by import, by outcome.', ['endpoint', 'outcome']),
  queryDuration: histogram('svc_query_duration_seconds', 'Statement or upload duration, by endpoint.', ['endpoint']),
  importRowsImported: counter('svc_import_rows_imported_total', 'Rows committed by /imp.', []),
  importRowsRejected: counter('svc_import_rows_rejected_total', 'Rows /imp skipped because a value did not convert.', []),
  commits: counter('svc_commits_total', 'Table commits.', []),
  o3Commits: counter('svc_o3_commits_total', 'Table commits that needed an out-of-order merge.', []),
  committedRows: counter('svc_committed_rows_total', 'Rows made visible by commits.', []),
  physicallyWrittenRows: counter('svc_physically_written_rows_total', 'Rows commits wrote into column files, out-of-order merges\' copied and rewritten rows included; over svc_committed_rows_total, the write amplification.', []),
  walBytes: counter('svc_wal_bytes_total', 'Bytes appended to WAL segments.', []),
  walReplayedRecords: counter('svc_wal_replayed_records_total', 'WAL records replayed by recovery at start.', []),
  ilpRows: counter('svc_ilp_rows_total', 'Rows committed from the line protocol, by transport (http, tcp).', ['transport']),
  ilpRequests: counter('svc_ilp_requests_total', 'ILP HTTP requests (/write, /api/v2/write) answered, by status.', ['status']),
  ilpConnections: gauge('svc_ilp_connections', 'Open ILP TCP connections, by transport, summed over processes.', ['transport'], 'sum'),
  ilpTcpHeldRows: gauge('svc_ilp_tcp_held_rows', 'Rows of ILP TCP connections the primary holds back from out-of-order commits, not yet visible.', [], 'sum'),
  ilpCommitDuration: histogram('svc_ilp_commit_duration_seconds', 'From the first byte of an ILP commit unit to the acknowledgement of its commit, by transport.', ['transport']),
  sqlCompiledFunctions: counter('svc_sql_compiled_functions_total', 'Expression functions compiled with new Function; flat while queries differ only in their literals.', []),
  sqlCompileCacheHits: counter('svc_sql_compile_cache_hits_total', 'Expression functions reused from the compile cache.', []),
  sqlCompileCacheEvictions: counter('svc_sql_compile_cache_evictions_total', 'Least recently used expression functions dropped from a full compile cache.', []),
  sqlCompileCacheEntries: gauge('svc_sql_compile_cache_entries', 'Expression functions in the compile cache of each process.', [], 'per-process'),
  sqlParallelFragmentsRunning: gauge('svc_sql_parallel_fragments_running', 'Query fragments running on parallel query threads, summed over processes; drops to 0 within a batch of a cancelled query.', [], 'sum'),
  sqlParallelFragments: counter('svc_sql_parallel_fragments_total', 'Query fragments run on parallel query threads, by outcome (ok, error, cancelled).', ['outcome']),
  sqlParallelCancelStop: histogram('svc_sql_parallel_cancel_stop_seconds', 'From a parallel query\'s cancellation (client gone) reaching its process to the last of its fragments stopping.', []),
  sqlParallelThreadDeaths: counter('svc_sql_parallel_thread_deaths_total', 'Parallel query threads that died (their query failed; the pool started a replacement).', []),
  httpConnectionsBusy: gauge('svc_http_connections_busy', 'Kept-alive connections on the main port with a request in flight or one in the last second, per worker; those told to close are not counted.', [], 'per-process'),
  httpConnectionsRebalanced: counter('svc_http_connections_rebalanced_total', 'Responses on the main port sent with Connection: close to move a busy connection off a worker above its share.', []),
  pgConnections: gauge('svc_pg_connections', 'Open PostgreSQL wire protocol connections (port 8812), summed over processes.', [], 'sum'),
  pgQueries: counter('svc_pg_queries_total', 'Statements run over the PostgreSQL wire protocol (simple Query statements and Executes), by outcome.', ['outcome']),
  workerRestarts: counter('svc_worker_restarts_total', 'HTTP worker processes restarted after they died.', []),
  tables: gauge('svc_tables', 'Tables in the catalog (largest value any process reports).', [], 'max'),
  tableRows: gauge('svc_table_rows', 'Committed rows per table (largest value any process reports).', ['table'], 'max'),
  readersOpen: gauge('svc_readers_open', 'Table readers open, summed over processes.', [], 'sum'),
  partitionVersionsPinned: gauge('svc_partition_versions_pinned', 'Partition versions pinned by readers, summed over processes.', [], 'sum'),
  residentMemory: gauge('svc_process_resident_memory_bytes', 'Resident set size of each process.', [], 'per-process'),
  heapUsed: gauge('svc_process_heap_used_bytes', 'V8 heap in use in each process.', [], 'per-process'),
  mappedBytes: gauge('svc_process_mapped_bytes', 'Bytes of column files memory-mapped by each process.', [], 'per-process'),
  eventLoopLag: gauge('svc_event_loop_lag_seconds', 'Largest event-loop delay of each process since its previous scrape.', [], 'per-process'),
  coldAcquireFullHit: counter('svc_cold_chunk_acquire_full_hit_total', `Reads where every chunk was already resident. ${COLD}`, []),
  coldAcquirePartialHit: counter('svc_cold_chunk_acquire_partial_hit_total', `Reads where some chunks were resident and the rest fetched. ${COLD}`, []),
  coldAcquireFullMiss: counter('svc_cold_chunk_acquire_full_miss_total', `Reads where every chunk had to be fetched. ${COLD}`, []),
  coldAcquireHitChunks: counter('svc_cold_chunk_acquire_hit_chunks_total', `Chunk lookups served from cache. ${COLD}`, []),
  coldAcquireMissChunks: counter('svc_cold_chunk_acquire_miss_chunks_total', `Chunk lookups that had to be fetched. ${COLD}`, []),
  coldDownloadStarted: counter('svc_cold_chunk_download_started_total', `Range requests dispatched, one per coalesced group. ${COLD}`, []),
  coldDownloadFinished: counter('svc_cold_chunk_download_finished_total', `Range requests that returned data. ${COLD}`, []),
  coldDownloadFailed: counter('svc_cold_chunk_download_failed_total', `Range requests that failed after retries. ${COLD}`, []),
  coldDownloadCoalesced: counter('svc_cold_chunk_download_coalesced_total', `Readers that attached to an in-flight download. ${COLD}`, []),
  coldReleaseEvictions: counter('svc_cold_chunk_release_evictions_total', `Chunks evicted when their last lease was released. ${COLD}`, []),
  coldInFlightDownloads: gauge('svc_cold_chunk_in_flight_downloads', `Range requests dispatched but not complete. ${COLD}`, [], 'sum'),
  coldPendingBatches: gauge('svc_cold_chunk_pending_batches', `Batches the read coordinator is tracking. ${COLD}`, [], 'sum'),
  coldBusyLeases: gauge('svc_cold_chunk_busy_leases', `Currently allocated leases. ${COLD}`, [], 'sum'),
  coldReadyChunks: gauge('svc_cold_chunk_ready_chunks', `Chunks resident in the ready cache. ${COLD}`, [], 'sum'),
  coldPinnedBytes: gauge('svc_cold_chunk_pinned_bytes', `Compressed bytes resident in the ready cache. ${COLD}`, [], 'sum'),
  coldDownloadBytes: counter('svc_cold_download_bytes_total', 'Bytes received by cold chunk range requests (column pruning shows here).', []),
  replicationUploadLag: gauge('svc_replication_upload_lag_seconds', 'Primary: age of the oldest committed change not yet in the replication store (0 when all is uploaded).', [], 'max'),
  replicationPendingBytes: gauge('svc_replication_pending_bytes', 'Primary: bytes of committed changes waiting for upload; 0 means a planned switch-over loses nothing.', [], 'max'),
  replicationShippedSequence: gauge('svc_replication_shipped_sequence', 'Primary: sequence number of the last segment or checkpoint uploaded.', [], 'max'),
  replicationLag: gauge('svc_replication_lag_seconds', 'Replica: age of the oldest segment in the store not yet applied (time since the store was last reached, while it cannot be).', [], 'max'),
  replicationAppliedSequence: gauge('svc_replication_applied_sequence', 'Replica: sequence number of the last segment or checkpoint applied.', [], 'max'),
  scrapePartial: gauge('svc_metrics_scrape_partial', '1 when this scrape lacks a fresh snapshot from some worker (see the comment line), else 0.', [], 'scrape'),
} as const satisfies Record<string, MetricDefinition>;

type Definitions = typeof METRIC_DEFINITIONS;
type LabelOf<D> = D extends { readonly labels: readonly (infer L extends string)[] } ? L : never;
type HandleOf<D> = D extends { readonly type: 'counter' }
  ? Counter<LabelOf<D>>
  : D extends { readonly type: 'gauge' }
    ? Gauge<LabelOf<D>>
    : Histogram<LabelOf<D>>;

/** Typed handles to this process's metrics; scrape-mode metrics are absent (the collector makes them). */
export type SvcMetrics = {
  readonly [K in keyof Definitions as Definitions[K]['mode'] extends 'scrape' ? never : K]: HandleOf<Definitions[K]>;
};

export interface MetricsRegistry {
  readonly registry: Registry;
  readonly metrics: SvcMetrics;
}

/** All definitions in table order, the order /metrics lists families in. */
export const METRIC_LIST: readonly MetricDefinition[] = Object.values(METRIC_DEFINITIONS);

const definitionsByName = new Map<string, MetricDefinition>(METRIC_LIST.map((d) => [d.name, d]));

export function metricDefinitionOf(name: string): MetricDefinition | undefined {
  return definitionsByName.get(name);
}

/** A fresh registry (never prom-client's global one, so tests and processes do not share state). */
export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  const handles: Record<string, Counter<string> | Gauge<string> | Histogram<string>> = {};
  for (const [key, definition] of Object.entries(METRIC_DEFINITIONS)) {
    if (definition.mode === 'scrape') continue;
    const config = { name: definition.name, help: definition.help, labelNames: definition.labels, registers: [registry] };
    switch (definition.type) {
      case 'counter':
        handles[key] = new Counter(config);
        break;
      case 'gauge':
        handles[key] = new Gauge(config);
        break;
      case 'histogram':
        handles[key] = new Histogram({ ...config, buckets: [...definition.buckets] });
        break;
    }
  }
  // The loop above built exactly one handle of the right kind per non-scrape key of the table,
  // which is what SvcMetrics describes; TypeScript cannot follow a loop over keys, hence the cast.
  return { registry, metrics: handles as unknown as SvcMetrics };
}
