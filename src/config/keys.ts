// The one table of server.conf keys: name, type, default, bounds, description.
// It drives parsing and validation (server-config.ts), SVC_<KEY> environment names (properties.ts),
// the shipped conf/server.conf and the README table (config-docs.ts); tests fail if any of them disagree.
// Defaults are written as conf-file text, so the same parser validates them and the docs print them as typed.

export type KeyType = 'string' | 'int' | 'boolean' | 'duration' | 'size' | 'enum' | 'address' | 'double';

/** Headings of the generated server.conf and README table, in display order. */
export const KEY_GROUPS = ['HTTP server', 'HTTP security', 'Health and metrics server', 'Queries', 'Storage', 'Line protocol (ILP)', 'PostgreSQL wire protocol', 'Replication', 'Process'] as const;
export type KeyGroup = (typeof KEY_GROUPS)[number];

export interface ServerKey {
  readonly name: string;
  readonly type: KeyType;
  /** Conf-file text of the default; null means unset (the key has no value unless configured). */
  readonly default: string | null;
  readonly description: string;
  readonly group: KeyGroup;
  readonly enumValues?: readonly string[];
  /** Inclusive bounds, in the parsed unit: a count for int, milliseconds for duration, bytes for size. */
  readonly min?: number;
  readonly max?: number;
  /** Masked as **** wherever values are printed (advisory log, entries()). */
  readonly sensitive?: boolean;
  /** Other names accepted for the same key (QuestDB spells some keys two ways); the canonical name wins. */
  readonly aliases?: readonly string[];
}

export const COMMIT_MODES = ['nosync', 'async', 'sync'] as const;
export type CommitMode = (typeof COMMIT_MODES)[number];

const KEY_TABLE = [
  // HTTP server
  { name: 'http.enabled', type: 'boolean', default: 'true', group: 'HTTP server',
    description: 'Serve the REST API (/exec, /exp, /imp, /api/v1/sql/execute, /api/v1/sql/validate) on http.net.bind.to.' },
  { name: 'http.net.bind.to', type: 'address', default: '0.0.0.0:9000', group: 'HTTP server', aliases: ['http.bind.to'],
    description: 'Address of the main HTTP server, host:port ([addr]:port for IPv6). Port 0 picks a free port.' },
  { name: 'http.worker.count', type: 'int', default: '-1', min: -1, max: 1024, group: 'HTTP server',
    description: 'Worker processes serving the main HTTP server. -1 = one per CPU core; 0 = single-process mode (the primary serves HTTP itself).' },
  { name: 'http.max.concurrent.requests', type: 'int', default: '256', min: 1, max: 65536, group: 'HTTP server',
    description: 'Requests one worker process handles at once; requests beyond it are refused as overloaded (SVC_OVERLOADED).' },
  { name: 'http.keep-alive.timeout', type: 'duration', default: '5s', min: 0, group: 'HTTP server',
    description: 'Idle time after which a kept-alive connection between requests is closed; 0 disables keep-alive.' },
  { name: 'http.connection.rebalance.enabled', type: 'boolean', default: 'true', group: 'HTTP server',
    description: 'With two or more workers, a worker holding more than its share of busy kept-alive connections answers its surplus (each after a complete request, the one in flight first) with Connection: close, so those clients reconnect to a less busy worker.' },
  { name: 'http.net.connection.timeout', type: 'duration', default: '300s', min: 1, group: 'HTTP server',
    description: 'Time a connection may stay idle (nothing received or sent) before it is closed.' },
  { name: 'http.request.header.buffer.size', type: 'size', default: '64k', min: 1024, max: 16 * 1024 * 1024, group: 'HTTP server',
    description: 'Largest accepted request line plus headers; larger requests are refused with 431.' },
  { name: 'http.request.headers.timeout', type: 'duration', default: '30s', min: 100, group: 'HTTP server',
    description: 'Time a client has to send the request line and all headers; slower requests are answered 408 and closed.' },
  { name: 'http.request.body.limit', type: 'size', default: '1m', min: 1024, group: 'HTTP server',
    description: 'Largest accepted request body for every endpoint except /imp (uploads are streamed, not buffered).' },
  { name: 'http.query.max.length', type: 'int', default: '1048576', min: 1, group: 'HTTP server',
    description: 'Longest SQL text accepted by execute, validate and export, in characters (UTF-16 code units); longer statements fail with 400 SVC_SQL_LIMIT. The URL must also fit in http.request.header.buffer.size.' },
  { name: 'http.export.timeout', type: 'duration', default: '300s', min: 1, group: 'HTTP server',
    description: 'Time limit for a Parquet export from /exp (CSV exports use query.timeout); the timeout parameter of /exp (seconds) overrides either.' },
  { name: 'http.text.analysis.max.lines', type: 'int', default: '1000', min: 1, max: 1_000_000, group: 'HTTP server',
    description: 'Lines at the start of an /imp upload sampled to detect the delimiter, header and column types.' },
  { name: 'http.text.parse.thread.count', type: 'int', default: '-1', min: -1, max: 64, group: 'HTTP server',
    description: 'Threads per worker process that convert large /imp uploads in parallel (started on first use). -1 = one per CPU core, at most 4 (every worker process has its own); 0 = convert on the request\'s thread.' },

  // HTTP security
  { name: 'http.user', type: 'string', default: null, group: 'HTTP security',
    description: 'User for HTTP Basic authentication on the main server. Authentication is on when http.user and http.password are both set (setting only one is an error); then every :9000 path, static files included, needs these credentials or a service-account bearer token.' },
  { name: 'http.password', type: 'string', default: null, sensitive: true, group: 'HTTP security',
    description: 'Password for HTTP Basic authentication; masked in logs and in the configuration listing.' },
  { name: 'http.security.readonly', type: 'boolean', default: 'false', group: 'HTTP security',
    description: 'Refuse statements that change data or schema (INSERT, UPDATE, DDL, service accounts) and /imp uploads over HTTP with 403 Write permission denied (SVC_FORBIDDEN).' },
  { name: 'http.security.max.response.rows', type: 'int', default: null, min: 1, group: 'HTTP security',
    description: 'Most rows one /exec or /exp response returns; unset = unlimited.' },

  // Health and metrics server
  { name: 'http.min.enabled', type: 'boolean', default: 'true', group: 'Health and metrics server',
    description: 'Serve the health check (any path) and /metrics on http.min.net.bind.to.' },
  { name: 'http.min.net.bind.to', type: 'address', default: '0.0.0.0:9003', group: 'Health and metrics server', aliases: ['http.min.bind.to'],
    description: 'Address of the minimal health and metrics server, host:port.' },
  { name: 'http.min.worker.count', type: 'int', default: '1', min: 0, group: 'Health and metrics server',
    description: 'Accepted for QuestDB compatibility and has no effect: the primary process, not the query workers, always serves the minimal server.' },
  { name: 'metrics.enabled', type: 'boolean', default: 'false', group: 'Health and metrics server',
    description: 'Expose Prometheus metrics at /metrics on the minimal server.' },
  { name: 'http.pessimistic.health.check.enabled', type: 'boolean', default: 'false', group: 'Health and metrics server',
    description: 'With metrics.enabled, the health check answers 500 once any unhandled error has occurred since start (svc_unhandled_errors_total > 0).' },

  // Queries
  { name: 'query.timeout', type: 'duration', default: '60s', min: 1, group: 'Queries',
    description: 'Default time limit for a statement; the Statement-Timeout request header (milliseconds) overrides it per request.' },
  { name: 'cairo.sql.max.memory', type: 'size', default: '4g', min: 1024 * 1024, group: 'Queries',
    description: 'Memory one query may use for sorting, grouping and joins; a query needing more fails with SVC_SQL_LIMIT.' },
  { name: 'query.compile.cache.capacity', type: 'int', default: '1000', min: 1, max: 1_000_000, group: 'Queries',
    description: 'Compiled expression functions each process keeps for reuse (entries, least recently used evicted). Queries that differ only in their literals share one function.' },
  { name: 'query.parallel.thread.count', type: 'int', default: '0', min: -1, max: 256, group: 'Queries',
    description: 'Parallel query threads in each process that serves queries: large aggregations, GROUP BY, SAMPLE BY and ORDER BY ... LIMIT over one table run on row slices in these threads while the process keeps answering other connections. -1 = one per CPU core; 0 or 1 = off (every query runs on its connection\'s thread), the default until the per-query thread hop costs less (README "Parallel queries").' },
  { name: 'query.parallel.min.rows', type: 'int', default: '500000', min: 1, group: 'Queries',
    description: 'Rows a query\'s scans must read (after interval pruning) before it is split over the parallel query threads; smaller queries run on the calling thread (no thread hop for a short lookup).' },
  { name: 'query.parallel.thread.heap.size', type: 'size', default: '0', min: 0, group: 'Queries',
    description: 'Largest JavaScript heap of one parallel query thread; a fragment that outgrows it ends its thread (the query fails, the process goes on and the pool starts a new thread). 0 = the Node.js default.' },

  // Storage
  { name: 'cairo.commit.mode', type: 'enum', default: 'nosync', enumValues: COMMIT_MODES, group: 'Storage',
    description: 'When a commit reaches the disk: nosync = left to the OS, async = fsync started without waiting, sync = fsync before the commit returns.' },
  { name: 'cairo.max.uncommitted.rows', type: 'int', default: '500000', min: 1, group: 'Storage',
    description: 'Rows a table writer holds before committing on its own; also the default of /imp maxUncommittedRows.' },
  { name: 'cairo.o3.max.lag', type: 'duration', default: '600s', min: 0, group: 'Storage',
    description: 'Upper limit of the time window kept in memory to absorb out-of-order rows before merging them; /imp o3MaxLag overrides it per import.' },
  { name: 'cairo.wal.segment.size', type: 'size', default: '64m', min: 1024 * 1024, group: 'Storage',
    description: 'WAL segment size after which the writer starts a new segment once the current one is applied.' },
  { name: 'cold.storage.object.store', type: 'string', default: null, sensitive: true, group: 'Storage',
    description: 'Object store for cold partitions, as a connection string: s3::bucket=...;root=...;region=...;endpoint=...; or fs::root=...;atomic_write_dir=...; (README "Object stores"). Unset or empty: cold storage is off.' },
  { name: 'cold.storage.downloads.in.flight.max', type: 'int', default: '64', min: 1, max: 4096, group: 'Storage',
    description: 'Range requests for cold partition chunks each process runs at once; more wait for a slot (README "Cold reads").' },
  { name: 'cold.storage.pending.batches.max', type: 'int', default: '256', min: 1, max: 1_000_000, group: 'Storage',
    description: 'Cold chunk reads each process lets wait for downloads; past it a query needing cold data fails at once with SVC_COLD_BACKPRESSURE.' },
  { name: 'cold.storage.coalesce.gap.bytes', type: 'size', default: '256k', min: 0, max: 64 * 1024 * 1024, group: 'Storage',
    description: 'Bytes between two cold chunks one query reads that a single range request may fetch and discard (fewer round trips); a larger gap, such as another column in bulk, is never fetched. 0: only touching chunks share a request.' },
  { name: 'cold.storage.request.timeout', type: 'duration', default: '30s', min: 100, max: 3_600_000, group: 'Storage',
    description: 'Time one range request for cold partition chunks may take; each request is tried 3 times with back-off, and the query timeout ends the wait sooner.' },
  { name: 'storage.policy.check.interval', type: 'duration', default: '5m', min: 100, max: 86_400_000, group: 'Storage',
    description: 'Time between storage-policy sweeps of the primary (README "Storage policies and cold storage"): due partitions move to Parquet, to the object store, off local disk, out of the table.' },
  { name: 'cold.storage.delete.grace.period', type: 'duration', default: '30m', min: 0, group: 'Storage',
    description: 'How long an object of the cold store stays in state deleting (its partition dropped or rewritten) before it is deleted, so queries that pinned it finish.' },
  { name: 'cold.storage.reupload.settle.interval', type: 'duration', default: '5m', min: 0, group: 'Storage',
    description: 'A late write into a partition that has a remote copy invalidates the copy; the partition is uploaded again only after it stayed unchanged this long.' },
  { name: 'cairo.partition.encoder.parquet.row.group.size', type: 'int', default: '100000', min: 1, max: 1_048_576, group: 'Storage',
    description: 'Rows per row group of a partition converted to Parquet (ALTER TABLE ... CONVERT PARTITION TO PARQUET); readers decode and skip whole row groups.' },
  { name: 'cairo.partition.encoder.parquet.compression.codec', type: 'enum', default: 'LZ4_RAW', enumValues: ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'], group: 'Storage',
    description: 'Compression codec of partitions converted to Parquet.' },
  { name: 'cairo.partition.encoder.parquet.compression.level', type: 'int', default: '0', min: 0, max: 22, group: 'Storage',
    description: 'Compression level of partitions converted to Parquet (ZSTD 1-22, GZIP 1-9, BROTLI 0-11; 0 = the codec default; ignored by codecs without levels).' },
  { name: 'cairo.sql.copy.root', type: 'string', default: null, group: 'Storage',
    description: "Directory read_parquet() reads from; paths are resolved inside it and may not leave it. Unset = the 'import' directory under the server root." },
  { name: 'snapshot.prepare.timeout', type: 'duration', default: '5m', min: 1000, max: 3_600_000, group: 'Storage',
    description: 'How long SNAPSHOT PREPARE (or CHECKPOINT CREATE) holds writes back waiting for SNAPSHOT COMPLETE; after it writes resume and COMPLETE reports the copy as not consistent.' },

  // Line protocol (ILP)
  { name: 'line.http.enabled', type: 'boolean', default: 'true', group: 'Line protocol (ILP)',
    description: 'Accept InfluxDB line protocol over HTTP: POST /write and /api/v2/write on the main server (GET /ping and /settings answer either way).' },
  { name: 'line.http.max.line.size', type: 'size', default: '1m', min: 1024, max: 256 * 1024 * 1024, group: 'Line protocol (ILP)',
    description: 'Longest line accepted over HTTP; a longer one fails its request with 413 request too large. Request bodies themselves are streamed and have no size limit.' },
  { name: 'line.http.commit.order.wait', type: 'duration', default: '1000ms', min: 0, max: 60_000, group: 'Line protocol (ILP)',
    description: 'Longest an HTTP ILP request ready to commit waits for a request of one of its tables that starts earlier in time and is still being received, so commits land in time order instead of the earlier one becoming an out-of-order merge; an announcement that made a request wait this long holds nobody again. 0 turns the ordering off.' },
  { name: 'line.auto.create.new.tables', type: 'boolean', default: 'true', group: 'Line protocol (ILP)',
    description: 'Create a table a line names that does not exist (designated timestamp `timestamp`, partitioned by line.default.partition.by); false refuses such lines.' },
  { name: 'line.auto.create.new.columns', type: 'boolean', default: 'true', group: 'Line protocol (ILP)',
    description: 'Add a column a line names that its table lacks, typed by its first value; false refuses such lines.' },
  { name: 'line.default.partition.by', type: 'enum', default: 'DAY', enumValues: ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'], group: 'Line protocol (ILP)',
    description: 'Partitioning of tables the line protocol creates.' },
  { name: 'line.timestamp.default.column.type', type: 'enum', default: 'TIMESTAMP', enumValues: ['TIMESTAMP', 'TIMESTAMP_NS'], group: 'Line protocol (ILP)',
    description: 'Type of the timestamp columns the line protocol creates (the designated `timestamp` of a new table and `t`/`n` fields of new columns), as in QuestDB 9.1.0; TIMESTAMP_NS keeps nanoseconds.' },
  { name: 'line.tcp.enabled', type: 'boolean', default: 'true', group: 'Line protocol (ILP)',
    description: 'Accept InfluxDB line protocol over plain TCP on line.tcp.net.bind.to, accepted by the primary and served by the workers (no replies; a bad line closes the connection). A read-only server (http.security.readonly) does not listen.' },
  { name: 'line.tcp.net.bind.to', type: 'address', default: '0.0.0.0:9009', group: 'Line protocol (ILP)',
    description: 'Address of the ILP TCP listener, host:port. Port 0 picks a free port.' },
  { name: 'line.tcp.net.connection.limit', type: 'int', default: '256', min: 1, max: 65536, group: 'Line protocol (ILP)',
    description: 'ILP TCP connections each serving process (every worker, or the primary when http.worker.count=0) holds at once; more are closed at once and logged.' },
  { name: 'line.tcp.max.line.size', type: 'size', default: '32k', min: 256, max: 256 * 1024 * 1024, group: 'Line protocol (ILP)', aliases: ['line.tcp.max.measurement.size'],
    description: 'Longest line accepted over TCP; a longer one closes its connection (logged with the line number).' },
  { name: 'line.tcp.commit.interval.default', type: 'duration', default: '1000ms', min: 1, max: 3_600_000, group: 'Line protocol (ILP)',
    description: 'How long rows received over TCP may wait before they are committed: every connection commits at the next multiple of this interval on the clock, so the connections of every worker commit together; sooner when a connection has 2 MiB of them (or line.tcp.max.uncommitted.size, if smaller) and no commit in flight.' },
  { name: 'line.tcp.max.uncommitted.size', type: 'size', default: '4m', min: 64 * 1024, max: 1024 * 1024 * 1024, group: 'Line protocol (ILP)',
    description: 'Parsed bytes a TCP connection holds while its previous commit is in flight; past them it stops reading until that commit is answered. Bounds the memory of each connection.' },
  { name: 'line.tcp.auth.db.path', type: 'string', default: null, group: 'Line protocol (ILP)',
    description: 'File of ECDSA P-256 public keys (`<key id> ec-p-256-sha256 <x> <y>` per line, x and y base64url; a relative path is under the root directory); when set, every TCP connection must authenticate with one of them before sending lines.' },

  // PostgreSQL wire protocol
  { name: 'pg.enabled', type: 'boolean', default: 'true', group: 'PostgreSQL wire protocol',
    description: 'Serve the PostgreSQL wire protocol (v3: simple and extended query) on pg.net.bind.to, accepted by the primary and served by the workers.' },
  { name: 'pg.net.bind.to', type: 'address', default: '0.0.0.0:8812', group: 'PostgreSQL wire protocol',
    description: 'Address of the PostgreSQL wire protocol listener, host:port. Port 0 picks a free port.' },
  { name: 'pg.net.connection.limit', type: 'int', default: '64', min: 1, max: 65536, group: 'PostgreSQL wire protocol',
    description: 'PostgreSQL connections each serving process (every worker, or the primary when http.worker.count=0) holds at once; more are refused with SQLSTATE 53300.' },
  { name: 'pg.user', type: 'string', default: 'admin', group: 'PostgreSQL wire protocol',
    description: 'User of PostgreSQL connections, with read and write access.' },
  { name: 'pg.password', type: 'string', default: 'quest', sensitive: true, group: 'PostgreSQL wire protocol',
    description: 'Password of pg.user.' },
  { name: 'pg.readonly.user.enabled', type: 'boolean', default: 'false', group: 'PostgreSQL wire protocol',
    description: 'Also accept pg.readonly.user, whose connections may only read (writes fail with SQLSTATE 42501).' },
  { name: 'pg.readonly.user', type: 'string', default: 'user', group: 'PostgreSQL wire protocol',
    description: 'Name of the read-only PostgreSQL user.' },
  { name: 'pg.readonly.password', type: 'string', default: 'quest', sensitive: true, group: 'PostgreSQL wire protocol',
    description: 'Password of pg.readonly.user.' },
  { name: 'pg.security.readonly', type: 'boolean', default: 'false', group: 'PostgreSQL wire protocol',
    description: 'Refuse writes (DDL, INSERT, UPDATE) from every PostgreSQL connection; http.security.readonly does the same.' },
  { name: 'pg.auth.method', type: 'enum', default: 'scram-sha-256', enumValues: ['cleartext', 'md5', 'scram-sha-256'], group: 'PostgreSQL wire protocol',
    description: 'How clients prove the password: scram-sha-256 (the password never crosses the network; psql, node-postgres, postgres.js, psycopg and lib/pq all speak it), md5 (salted per connection) or cleartext (QuestDB\'s only method, for clients that know nothing else).' },
  { name: 'pg.tls.cert.path', type: 'string', default: null, group: 'PostgreSQL wire protocol',
    description: 'PEM certificate (chain) for TLS on PostgreSQL connections (a relative path is under the root directory); with pg.tls.key.path, a client\'s SSLRequest is answered S and the connection is encrypted. Unset: SSLRequest is answered N (sslmode=prefer falls back to plain text).' },
  { name: 'pg.tls.key.path', type: 'string', default: null, sensitive: true, group: 'PostgreSQL wire protocol',
    description: 'PEM private key of pg.tls.cert.path (a relative path is under the root directory).' },
  { name: 'pg.net.idle.timeout', type: 'duration', default: '300s', min: 1, group: 'PostgreSQL wire protocol',
    description: 'A connection with nothing received or sent for this long, and no statement running, is closed.' },
  { name: 'pg.net.handshake.timeout', type: 'duration', default: '10s', min: 1, group: 'PostgreSQL wire protocol',
    description: 'Time a new connection has to send its start-up packet and authenticate.' },
  { name: 'pg.recv.buffer.size', type: 'size', default: '1m', min: 1024, max: 256 * 1024 * 1024, group: 'PostgreSQL wire protocol',
    description: 'Largest message a client may send (a Query text, a Bind with its values); a larger one closes the connection with SQLSTATE 08P01. Also the input a connection queues before the server stops reading from it.' },

  // Process
  // Replication
  { name: 'replication.role', type: 'enum', default: 'none', enumValues: ['none', 'primary', 'replica'], group: 'Replication',
    description: 'none: no replication. primary: ship every commit to replication.object.store (holding its writer lease). replica: follow the primary through the store, serve reads and refuse writes with 403.' },
  { name: 'replication.object.store', type: 'string', default: null, sensitive: true, group: 'Replication',
    description: 'Object store shared by the primary and its replicas, as a connection string (s3::... or fs::..., README "Object stores"). Required unless replication.role=none.' },
  { name: 'replication.replica.poll.interval', type: 'duration', default: '1s', min: 10, max: 600_000, group: 'Replication',
    description: 'How often a replica lists the store for new segments.' },
  { name: 'replication.replica.max.lag', type: 'duration', default: '30s', min: 100, group: 'Replication',
    description: 'A replica whose lag exceeds this answers health checks on http.min with 503, so a load balancer takes it out.' },
  { name: 'replication.primary.url', type: 'string', default: null, group: 'Replication',
    description: "Address of the primary, named in the 403 a replica answers writes with (e.g. http://db-primary:9000)." },
  { name: 'replication.checkpoint.interval', type: 'duration', default: '10m', min: 1000, group: 'Replication',
    description: 'How often the primary uploads a checkpoint (a copy of every table) so new replicas start from it and older segments can be deleted.' },
  { name: 'replication.primary.backlog.max', type: 'size', default: '1g', min: 1024 * 1024, group: 'Replication',
    description: 'Bytes of committed changes the primary holds for upload; beyond it queued segments are dropped and replicas re-sync from the next checkpoint.' },
  { name: 'replication.primary.upload.priority', type: 'enum', default: 'low', enumValues: ['low', 'normal'], group: 'Replication',
    description: "CPU priority of the primary's shipping thread (reading captured bytes, compression, checksums, uploads). low: the lowest (Linux), so commits keep the CPU on saturated cores and the backlog grows until load drops; normal: shipping competes with commits for fresher replicas." },
  { name: 'replication.primary.lease', type: 'duration', default: '15s', min: 500, max: 600_000, group: 'Replication',
    description: "The primary's writer lease on the store: renewed every third of it; a promoted replica may take over only after the old primary stopped renewing for this long." },

  { name: 'shutdown.drain.timeout', type: 'duration', default: '10s', min: 0, group: 'Process',
    description: 'On SIGTERM or SIGINT, how long in-flight requests may finish before connections are closed (imports still uploading are rolled back at once); queued writes then finish, files are flushed and the process exits 0.' },
  { name: 'config.validation.strict', type: 'boolean', default: 'false', group: 'Process',
    description: 'Stop start-up on unknown keys in server.conf instead of logging a warning.' },
] as const satisfies readonly ServerKey[];

/** A key name known at compile time, so code reading the table cannot misspell one. */
export type ServerKeyName = (typeof KEY_TABLE)[number]['name'];

export const SERVER_KEYS: readonly ServerKey[] = KEY_TABLE;

/** Prefix of every server.conf environment override. */
export const SERVER_ENV_PREFIX = 'SVC_';

/**
 * `SVC_` + the key upper-cased, with `.` and `-` both replaced by `_`.
 * Unlike QuestDB (which keeps `-`, giving names such as QDB_HTTP_KEEP-ALIVE_TIMEOUT), every name here can be exported from a shell.
 */
export function envNameForKey(name: string): string {
  return SERVER_ENV_PREFIX + name.toUpperCase().replace(/[.-]/g, '_');
}

const KEYS_BY_NAME: ReadonlyMap<string, ServerKey> = new Map(
  SERVER_KEYS.flatMap((key) => [key.name, ...(key.aliases ?? [])].map((name) => [name, key] as const)),
);

const KEYS_BY_ENV_NAME: ReadonlyMap<string, ServerKey> = new Map(
  SERVER_KEYS.flatMap((key) => [key.name, ...(key.aliases ?? [])].map((name) => [envNameForKey(name), key] as const)),
);

/** The key for a canonical name or an alias, or undefined. */
export function findServerKey(name: string): ServerKey | undefined {
  return KEYS_BY_NAME.get(name);
}

/** The key whose canonical or alias environment name this is, or undefined. */
export function findServerKeyByEnvName(envName: string): ServerKey | undefined {
  return KEYS_BY_ENV_NAME.get(envName);
}
