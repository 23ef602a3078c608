// The svc:* node:diagnostics_channel names and the payload each one carries.
// Core modules (storage, sql, http, cluster) publish here and import nothing from metrics/ or log/;
// metrics/ and log/ subscribe (undici lib/core/diagnostics.js). Publishing with no subscriber costs one
// property read, so a process with metrics disabled pays nearly nothing.
// Invariant: every channel is created in this file and typed by its payload; a subscriber may therefore
// treat messages as that payload. Nobody outside this file calls diagnostics_channel.channel('svc:…').
import diagnosticsChannel from 'node:diagnostics_channel';

export const CHANNEL_NAMES = {
  httpRequest: 'svc:http:request',
  query: 'svc:query',
  importRows: 'svc:import',
  commit: 'svc:commit',
  catalog: 'svc:catalog',
  wal: 'svc:wal',
  reader: 'svc:reader',
  workerRestart: 'svc:worker:restart',
  unhandledError: 'svc:error:unhandled',
  ilp: 'svc:ilp',
  ilpConnection: 'svc:ilp:connection',
  ilpHeld: 'svc:ilp:held',
  sqlCompile: 'svc:sql:compile',
  pgConnection: 'svc:pg:connection',
  httpConnection: 'svc:http:connection',
  pgQuery: 'svc:pg:query',
  objectStoreRetry: 'svc:objectstore:retry',
  sqlParallel: 'svc:sql:parallel',
  coldChunk: 'svc:cold:chunk',
} as const;

export type ChannelName = (typeof CHANNEL_NAMES)[keyof typeof CHANNEL_NAMES];

/** Endpoint label values; a closed set so label cardinality stays bounded whatever paths clients send. */
export const HTTP_ENDPOINTS = ['execute', 'validate', 'export', 'import', 'check', 'write', 'other'] as const;
export type HttpEndpoint = (typeof HTTP_ENDPOINTS)[number];

/** The endpoints that run a statement or an upload; they also publish svc:query. */
export type QueryEndpoint = 'execute' | 'export' | 'import';
export const QUERY_OUTCOMES = ['ok', 'error', 'cancelled', 'timeout'] as const;
export type QueryOutcome = (typeof QUERY_OUTCOMES)[number];

/** Published by http/ once a response on :9000 has finished (or its socket closed). */
export interface HttpRequestEvent {
  readonly endpoint: HttpEndpoint;
  /** Status sent, or 499-style client-gone codes as the route decides. */
  readonly status: number;
  readonly durationMs: number;
}

/** Published once per statement run by execute / export, and once per upload by import. */
export interface QueryEvent {
  readonly endpoint: QueryEndpoint;
  readonly outcome: QueryOutcome;
  readonly durationMs: number;
}

export const ILP_TRANSPORTS = ['http', 'tcp'] as const;
export type IlpTransport = (typeof ILP_TRANSPORTS)[number];

/** Published once per ILP commit the primary acknowledged (an HTTP request, a TCP connection's batch). */
export interface IlpCommitEvent {
  readonly transport: IlpTransport;
  readonly rows: number;
  /** From the first byte parsed to the primary's acknowledgement. */
  readonly commitMs: number;
}

/** Published when an ILP TCP connection opens (+1) or closes (-1). */
export interface IlpConnectionEvent {
  readonly transport: IlpTransport;
  readonly delta: 1 | -1;
}

/** Published by the primary after each write turn that may change them: rows its TCP hold keeps (engine/tcp-row-hold.ts). */
export interface IlpHeldEvent {
  readonly rows: number;
}

/**
 * Published by a worker's connection shedder: its count of busy kept-alive connections on :9000 when it
 * changes, and each response it marked `Connection: close` to move a connection to a less busy worker.
 */
export type HttpConnectionEvent = { readonly kind: 'busy'; readonly busy: number } | { readonly kind: 'rebalanced' };

/** Published when a PostgreSQL wire protocol connection opens (+1) or closes (-1). */
export interface PgConnectionEvent {
  readonly delta: 1 | -1;
}

/** Published once per statement run over the PostgreSQL wire protocol (a simple Query's statements, an Execute). */
export interface PgQueryEvent {
  readonly outcome: QueryOutcome;
}

/** Published by the import route after the primary answered the import commit. */
export interface ImportRowsEvent {
  readonly table: string;
  readonly rowsImported: number;
  readonly rowsRejected: number;
}

/** Published by the writer side after `_txn` is published for a commit. */
export interface CommitEvent {
  readonly table: string;
  readonly rowsCommitted: number;
  readonly outOfOrder: boolean;
  /** Rows written into column files, out-of-order merges' copied and rewritten rows included. */
  readonly rowsPhysical: number;
  /** Row count of the table after this commit. */
  readonly tableRows: number;
}

/** Full catalog state (not a delta), so a lost or repeated message cannot leave a stale table behind. */
export interface CatalogEvent {
  readonly tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>;
}

export type WalEvent =
  | { readonly kind: 'append'; readonly bytes: number }
  | { readonly kind: 'replay'; readonly records: number };

/** Readers counted by delta; pins reported as this process's current total. */
export type ReaderEvent =
  | { readonly kind: 'open' }
  | { readonly kind: 'close' }
  | { readonly kind: 'pins'; readonly partitionVersionsPinned: number };

export interface WorkerRestartEvent {
  /** Worker slot (1..N), stable across restarts. */
  readonly workerId: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/**
 * A bug reached a top-level handler. `origin: 'local'` is published where it happened; the primary
 * republishes errors its workers reported over IPC with `origin: 'worker'`, so pessimistic health sees
 * them at once, while svc_unhandled_errors_total counts each error only in the process it happened in.
 */
export interface UnhandledErrorEvent {
  readonly source: string;
  readonly origin: 'local' | 'worker';
  readonly error: unknown;
}

/** Published by sql/codegen for every expression loop it is asked for: made with `new Function`, or reused from its cache. */
export interface SqlCompileEvent {
  readonly kind: 'compiled' | 'reused';
  /** Least recently used functions dropped to stay within query.compile.cache.capacity. */
  readonly evicted: number;
  /** Functions in the cache after this lookup. */
  readonly cacheEntries: number;
}

/** Published by sql/parallel when a query fragment starts on or comes back from a pool thread, or a thread dies. */
export interface SqlParallelEvent {
  readonly kind: 'started' | 'finished' | 'threadDied' | 'cancelStopped';
  /** finished only: how the fragment ended. */
  readonly outcome?: 'ok' | 'error' | 'cancelled';
  /** cancelStopped only: ms from the caller seeing the cancellation to the last fragment of the query stopping. */
  readonly stopMs?: number;
  /** Fragments running on this process's pool threads after the event. */
  readonly running: number;
}

/** Published by objectstore/ before each retry of a request that failed transiently (5xx, timeout, connection). */
export interface ObjectStoreRetryEvent {
  /** The store's description (kind, endpoint, bucket, root; never credentials). */
  readonly store: string;
  readonly operation: string;
  readonly key: string;
  readonly attemptIndex: number;
  readonly delayMs: number;
  readonly cause: string;
}

/**
 * Published by the cold read path (storage/cold/): one 'acquire' per read of a batch of chunks, one 'download'
 * per range request state change, 'evict' when chunks leave memory, and 'gauges' with the absolute levels after
 * every change (in flight, pending batches, leases, resident chunks and bytes).
 */
export type ColdChunkEvent =
  | { readonly kind: 'acquire'; readonly hitChunks: number; readonly missChunks: number; readonly coalescedReaders: number }
  | { readonly kind: 'download'; readonly phase: 'started' | 'finished' | 'failed'; readonly bytes: number }
  | { readonly kind: 'evict'; readonly chunks: number }
  | {
    readonly kind: 'gauges'; readonly inFlightDownloads: number; readonly pendingBatches: number;
    readonly busyLeases: number; readonly readyChunks: number; readonly pinnedBytes: number;
  };

/** A channel whose messages have one payload type. */
export interface TypedChannel<T> {
  readonly name: ChannelName;
  /** Check before building an expensive payload. */
  readonly hasSubscribers: boolean;
  publish(message: T): void;
  /** Returns the function that unsubscribes. */
  subscribe(onMessage: (message: T) => void): () => void;
}

function typedChannel<T>(name: ChannelName): TypedChannel<T> {
  const channel = diagnosticsChannel.channel(name);
  return {
    name,
    get hasSubscribers() {
      return channel.hasSubscribers;
    },
    publish(message: T): void {
      if (channel.hasSubscribers) channel.publish(message);
    },
    subscribe(onMessage: (message: T) => void): () => void {
      // The cast is the single place messages regain their type: only publish() above, typed by T,
      // sends on this channel (see the file header).
      const listener = (message: unknown): void => onMessage(message as T);
      diagnosticsChannel.subscribe(name, listener);
      return () => {
        diagnosticsChannel.unsubscribe(name, listener);
      };
    },
  };
}

export const httpRequestChannel = typedChannel<HttpRequestEvent>(CHANNEL_NAMES.httpRequest);
export const queryChannel = typedChannel<QueryEvent>(CHANNEL_NAMES.query);
export const importRowsChannel = typedChannel<ImportRowsEvent>(CHANNEL_NAMES.importRows);
export const commitChannel = typedChannel<CommitEvent>(CHANNEL_NAMES.commit);
export const catalogChannel = typedChannel<CatalogEvent>(CHANNEL_NAMES.catalog);
export const walChannel = typedChannel<WalEvent>(CHANNEL_NAMES.wal);
export const readerChannel = typedChannel<ReaderEvent>(CHANNEL_NAMES.reader);
export const workerRestartChannel = typedChannel<WorkerRestartEvent>(CHANNEL_NAMES.workerRestart);
export const unhandledErrorChannel = typedChannel<UnhandledErrorEvent>(CHANNEL_NAMES.unhandledError);
export const ilpChannel = typedChannel<IlpCommitEvent>(CHANNEL_NAMES.ilp);
export const ilpConnectionChannel = typedChannel<IlpConnectionEvent>(CHANNEL_NAMES.ilpConnection);
export const ilpHeldChannel = typedChannel<IlpHeldEvent>(CHANNEL_NAMES.ilpHeld);
export const sqlCompileChannel = typedChannel<SqlCompileEvent>(CHANNEL_NAMES.sqlCompile);
export const pgConnectionChannel = typedChannel<PgConnectionEvent>(CHANNEL_NAMES.pgConnection);
export const httpConnectionChannel = typedChannel<HttpConnectionEvent>(CHANNEL_NAMES.httpConnection);
export const pgQueryChannel = typedChannel<PgQueryEvent>(CHANNEL_NAMES.pgQuery);
export const sqlParallelChannel = typedChannel<SqlParallelEvent>(CHANNEL_NAMES.sqlParallel);
export const objectStoreRetryChannel = typedChannel<ObjectStoreRetryEvent>(CHANNEL_NAMES.objectStoreRetry);
export const coldChunkChannel = typedChannel<ColdChunkEvent>(CHANNEL_NAMES.coldChunk);

/** Map a request pathname on :9000 (no query string) to its endpoint label. */
export function httpEndpointOf(path: string): HttpEndpoint {
  switch (path) {
    case '/exec':
    case '/api/v1/sql/execute':
      return 'execute';
    case '/api/v1/sql/validate':
      return 'validate';
    case '/exp':
      return 'export';
    case '/imp':
      return 'import';
    case '/chk':
      return 'check';
    case '/write':
    case '/api/v2/write':
      return 'write';
    default:
      return 'other';
  }
}
