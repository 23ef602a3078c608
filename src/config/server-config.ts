// The typed, frozen ServerConfig built from keys.ts + properties.ts: the only way the rest of svc reads server.conf.
// Every key is parsed (a malformed value stops start-up with a ConfigError naming the key, the value and its origin)
// and every key is read into exactly one field; a test checks that no key is left unread.
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { assert } from '../core/assert.js';
import { COMMIT_MODES, envNameForKey, type CommitMode, type KeyType, type ServerKeyName } from './keys.js';
import { parseKeyValue, type BindAddress, type KeyValue } from './parse-key-value.js';
import { createDefaultServerConf, layerServerValues, readPropertiesFile, type RawValue, type ValueSource } from './properties.js';

/** server.conf location under the root directory given with -d. */
export const SERVER_CONF_RELATIVE_PATH = join('conf', 'server.conf');

export interface ConfigEntry {
  readonly key: string;
  readonly envName: string;
  /** Text as configured; `****` for a set sensitive key; empty for an unset key. */
  readonly value: string;
  readonly source: ValueSource;
}

export interface LoadServerConfigOptions {
  readonly rootDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Key → value from the command line; beats env and file. An unknown key is a ConfigError. */
  readonly cliOverrides?: Readonly<Record<string, string>>;
  /** Write the default conf/server.conf when it is missing (default true). */
  readonly createMissing?: boolean;
  /** CPU count that http.worker.count=-1 resolves to; defaults to os.availableParallelism(). Tests inject it. */
  readonly cpuCount?: number;
}

export interface ServerConfig {
  readonly rootDir: string;
  readonly confFilePath: string;
  /** True when this load wrote the default server.conf. */
  readonly confFileCreated: boolean;

  readonly httpEnabled: boolean;
  readonly httpBindHost: string;
  readonly httpBindPort: number;
  /** Resolved worker process count; 0 = single-process mode. */
  readonly httpWorkerCount: number;
  readonly httpConcurrentRequestsMax: number;
  readonly httpKeepAliveTimeoutMs: number;
  /** Workers move busy keep-alive connections off the busiest worker (cluster/connection-shedder.ts). */
  readonly httpConnectionRebalance: boolean;
  readonly httpConnectionTimeoutMs: number;
  readonly httpRequestHeaderBytesMax: number;
  readonly httpRequestHeadersTimeoutMs: number;
  readonly httpRequestBodyBytesMax: number;
  readonly queryTextLengthMax: number;
  readonly httpExportTimeoutMs: number;
  readonly importAnalysisLinesMax: number;
  /** Resolved http.text.parse.thread.count: 0 = no parse threads. */
  readonly importParseThreadCount: number;

  readonly httpUser: string | null;
  readonly httpPassword: string | null;
  /** Both http.user and http.password are set (setting only one fails at load). */
  readonly httpAuthEnabled: boolean;
  readonly httpReadOnly: boolean;
  /** null = unlimited. */
  readonly httpResponseRowsMax: number | null;

  readonly httpMinEnabled: boolean;
  readonly httpMinBindHost: string;
  readonly httpMinBindPort: number;
  readonly httpMinWorkerCount: number;
  readonly metricsEnabled: boolean;
  readonly pessimisticHealthCheckEnabled: boolean;

  readonly queryTimeoutMs: number;
  readonly queryMemoryBytesMax: number;
  /** Compiled expression functions kept per process (query.compile.cache.capacity). */
  readonly compileCacheEntriesMax: number;
  /** Parallel query threads per serving process (query.parallel.thread.count; -1 resolved to the core count). */
  readonly parallelThreadCount: number;
  /** Table rows from which a query is split over the parallel threads (query.parallel.min.rows). */
  readonly parallelRowsMin: number;
  /** Heap limit of one parallel query thread in bytes, 0 = Node's default (query.parallel.thread.heap.size). */
  readonly parallelThreadHeapBytesMax: number;

  readonly commitMode: CommitMode;
  readonly uncommittedRowsMax: number;
  readonly o3LagMaxMs: number;
  readonly walSegmentBytesMax: number;
  readonly parquetRowGroupRows: number;
  readonly parquetCodec: string;
  readonly parquetCompressionLevel: number;
  /** Absolute directory read_parquet() is confined to. */
  readonly sqlCopyRoot: string;

  readonly ilpHttpEnabled: boolean;
  readonly ilpHttpLineBytesMax: number;
  readonly ilpAutoCreateTables: boolean;
  readonly ilpAutoCreateColumns: boolean;
  readonly ilpDefaultPartitionBy: string;
  /** line.timestamp.default.column.type: TIMESTAMP or TIMESTAMP_NS. */
  readonly ilpTimestampColumnType: string;
  /** line.http.commit.order.wait: longest a ready ILP request waits for an earlier one of its table; 0 = no ordering. */
  readonly ilpHttpCommitOrderWaitMs: number;
  readonly ilpTcpEnabled: boolean;
  readonly ilpTcpBindHost: string;
  readonly ilpTcpBindPort: number;
  readonly ilpTcpConnectionsMax: number;
  readonly ilpTcpLineBytesMax: number;
  readonly ilpTcpCommitIntervalMs: number;
  readonly ilpTcpUncommittedBytesMax: number;
  /** null = TCP connections need no authentication. */
  readonly ilpTcpAuthDbPath: string | null;

  readonly pgEnabled: boolean;
  readonly pgBindHost: string;
  readonly pgBindPort: number;
  readonly pgConnectionsMax: number;
  readonly pgUser: string;
  readonly pgPassword: string;
  readonly pgReadOnlyUserEnabled: boolean;
  readonly pgReadOnlyUser: string;
  readonly pgReadOnlyPassword: string;
  readonly pgReadOnly: boolean;
  readonly pgAuthMethod: string;
  readonly pgIdleTimeoutMs: number;
  readonly pgHandshakeTimeoutMs: number;
  readonly pgMessageBytesMax: number;
  readonly pgTlsCertPath: string | null;
  readonly pgTlsKeyPath: string | null;

  readonly shutdownDrainTimeoutMs: number;
  readonly snapshotPrepareTimeoutMs: number;
  /** Connection string of the cold-storage object store; null when unset or empty (cold storage off). */
  readonly coldStorageObjectStore: string | null;
  readonly coldDownloadsInFlightMax: number;
  readonly coldPendingBatchesMax: number;
  readonly coldCoalesceGapBytesMax: number;
  readonly coldRequestTimeoutMs: number;
  /** storage.policy.check.interval: time between storage-policy sweeps. */
  readonly storagePolicyCheckIntervalMs: number;
  /** Objects marked `deleting` stay this long before they are deleted. */
  readonly coldDeleteGraceMs: number;
  /** A remote copy invalidated by a late write is uploaded again only after this quiet time. */
  readonly coldReuploadSettleMs: number;
  readonly configValidationStrict: boolean;
  readonly replicationRole: 'none' | 'primary' | 'replica';
  /** Connection string of the replication store; null when unset or empty. */
  readonly replicationObjectStore: string | null;
  readonly replicationPollIntervalMs: number;
  readonly replicationMaxLagMs: number;
  readonly replicationPrimaryUrl: string | null;
  readonly replicationCheckpointIntervalMs: number;
  readonly replicationBacklogBytesMax: number;
  readonly replicationLeaseMs: number;
  /** The shipping thread's CPU priority (replication.primary.upload.priority). */
  readonly replicationUploadPriority: 'low' | 'normal';

  /** Non-fatal findings for the start-up log: unknown keys, duplicates, alias clashes. */
  readonly warnings: readonly string[];
  /** Every key with its effective value (sensitive ones masked) and source, for the start-up advisory log. */
  entries(): ConfigEntry[];
}

/** Loads conf/server.conf under rootDir (creating it if asked), applies env and CLI overrides, validates, freezes. */
export function loadServerConfig(options: LoadServerConfigOptions): ServerConfig {
  const confFilePath = join(options.rootDir, SERVER_CONF_RELATIVE_PATH);
  const confFileCreated = options.createMissing !== false && createDefaultServerConf(confFilePath);
  const layered = layerServerValues({
    conf: readPropertiesFile(confFilePath),
    env: options.env,
    cli: options.cliOverrides ?? {},
  });
  const reader = createKeyReader(layered.values);
  const config = buildServerConfig(reader, options.cpuCount ?? availableParallelism(), options.rootDir);
  assert(reader.unreadKeys().length === 0, `every server key is read into ServerConfig; unread: ${reader.unreadKeys().join(', ')}`);

  const firstUnknown = layered.unknownConfKeys[0];
  if (config.configValidationStrict && firstUnknown !== undefined) {
    throw new ConfigError(firstUnknown, `unknown key ${firstUnknown} in ${confFilePath} (config.validation.strict=true)`);
  }
  if ((config.httpUser === null) !== (config.httpPassword === null)) {
    const missing = config.httpUser === null ? 'http.user' : 'http.password';
    throw new ConfigError(missing, `${missing} must be set too: HTTP authentication needs both http.user and http.password`);
  }

  const entries = Object.freeze([...layered.values.values()].map(toEntry));
  return Object.freeze({
    ...config,
    rootDir: options.rootDir,
    confFilePath,
    confFileCreated,
    warnings: Object.freeze([...layered.warnings]),
    entries: () => [...entries],
  });
}

type BuiltFields = Omit<ServerConfig, 'rootDir' | 'confFilePath' | 'confFileCreated' | 'warnings' | 'entries'>;

/** Key → field. Plain straight-line reads; the reader has already validated types and bounds. */
function buildServerConfig(read: KeyReader, cpuCount: number, rootDir: string): BuiltFields {
  const httpBind = read.address('http.net.bind.to');
  const minBind = read.address('http.min.net.bind.to');
  const workerCount = read.int('http.worker.count');
  const httpUser = read.stringOrNull('http.user');
  const httpPassword = read.stringOrNull('http.password');
  return {
    httpEnabled: read.boolean('http.enabled'),
    httpBindHost: httpBind.host,
    httpBindPort: httpBind.port,
    // -1 means "one per core"; the key's min bound rules out other negatives.
    httpWorkerCount: workerCount === -1 ? Math.max(1, cpuCount) : workerCount,
    httpConcurrentRequestsMax: read.int('http.max.concurrent.requests'),
    httpKeepAliveTimeoutMs: read.ms('http.keep-alive.timeout'),
    httpConnectionRebalance: read.boolean('http.connection.rebalance.enabled'),
    httpConnectionTimeoutMs: read.ms('http.net.connection.timeout'),
    httpRequestHeaderBytesMax: read.bytes('http.request.header.buffer.size'),
    httpRequestHeadersTimeoutMs: read.ms('http.request.headers.timeout'),
    httpRequestBodyBytesMax: read.bytes('http.request.body.limit'),
    queryTextLengthMax: read.int('http.query.max.length'),
    httpExportTimeoutMs: read.ms('http.export.timeout'),
    importAnalysisLinesMax: read.int('http.text.analysis.max.lines'),
    importParseThreadCount: parseThreadCount(read.int('http.text.parse.thread.count'), cpuCount),
    httpUser,
    httpPassword,
    httpAuthEnabled: httpUser !== null && httpPassword !== null,
    httpReadOnly: read.boolean('http.security.readonly'),
    httpResponseRowsMax: read.intOrNull('http.security.max.response.rows'),
    httpMinEnabled: read.boolean('http.min.enabled'),
    httpMinBindHost: minBind.host,
    httpMinBindPort: minBind.port,
    httpMinWorkerCount: read.int('http.min.worker.count'),
    metricsEnabled: read.boolean('metrics.enabled'),
    pessimisticHealthCheckEnabled: read.boolean('http.pessimistic.health.check.enabled'),
    queryTimeoutMs: read.ms('query.timeout'),
    queryMemoryBytesMax: read.bytes('cairo.sql.max.memory'),
    compileCacheEntriesMax: read.int('query.compile.cache.capacity'),
    parallelThreadCount: resolveParallelThreads(read.int('query.parallel.thread.count')),
    parallelRowsMin: read.int('query.parallel.min.rows'),
    parallelThreadHeapBytesMax: read.bytes('query.parallel.thread.heap.size'),
    commitMode: read.commitMode('cairo.commit.mode'),
    uncommittedRowsMax: read.int('cairo.max.uncommitted.rows'),
    o3LagMaxMs: read.ms('cairo.o3.max.lag'),
    walSegmentBytesMax: read.bytes('cairo.wal.segment.size'),
    parquetRowGroupRows: read.int('cairo.partition.encoder.parquet.row.group.size'),
    parquetCodec: read.enumValue('cairo.partition.encoder.parquet.compression.codec'),
    parquetCompressionLevel: read.int('cairo.partition.encoder.parquet.compression.level'),
    sqlCopyRoot: resolve(rootDir, read.stringOrNull('cairo.sql.copy.root') ?? 'import'),
    ...ilpFields(read),
    ...pgFields(read),
    shutdownDrainTimeoutMs: read.ms('shutdown.drain.timeout'),
    snapshotPrepareTimeoutMs: read.ms('snapshot.prepare.timeout'),
    coldStorageObjectStore: read.stringOrNull('cold.storage.object.store') || null,
    coldDownloadsInFlightMax: read.int('cold.storage.downloads.in.flight.max'),
    coldPendingBatchesMax: read.int('cold.storage.pending.batches.max'),
    coldCoalesceGapBytesMax: read.bytes('cold.storage.coalesce.gap.bytes'),
    coldRequestTimeoutMs: read.ms('cold.storage.request.timeout'),
    storagePolicyCheckIntervalMs: read.ms('storage.policy.check.interval'),
    coldDeleteGraceMs: read.ms('cold.storage.delete.grace.period'),
    coldReuploadSettleMs: read.ms('cold.storage.reupload.settle.interval'),
    configValidationStrict: read.boolean('config.validation.strict'),
    ...replicationFields(read),
  };
}

/** The replication keys (README "Replication"). */
function replicationFields(read: KeyReader) {
  const role = read.enumValue('replication.role');
  return {
    replicationRole: role === 'primary' || role === 'replica' ? role : 'none',
    replicationObjectStore: read.stringOrNull('replication.object.store') || null,
    replicationPollIntervalMs: read.ms('replication.replica.poll.interval'),
    replicationMaxLagMs: read.ms('replication.replica.max.lag'),
    replicationPrimaryUrl: read.stringOrNull('replication.primary.url') || null,
    replicationCheckpointIntervalMs: read.ms('replication.checkpoint.interval'),
    replicationBacklogBytesMax: read.bytes('replication.primary.backlog.max'),
    replicationLeaseMs: read.ms('replication.primary.lease'),
    replicationUploadPriority: read.enumValue('replication.primary.upload.priority') === 'normal' ? 'normal' : 'low',
  } as const;
}

/** The line protocol's keys (HTTP /write and TCP). */
function ilpFields(read: KeyReader) {
  const tcpBind = read.address('line.tcp.net.bind.to');
  return {
    ilpHttpEnabled: read.boolean('line.http.enabled'),
    ilpHttpLineBytesMax: read.bytes('line.http.max.line.size'),
    ilpHttpCommitOrderWaitMs: read.ms('line.http.commit.order.wait'),
    ilpAutoCreateTables: read.boolean('line.auto.create.new.tables'),
    ilpAutoCreateColumns: read.boolean('line.auto.create.new.columns'),
    ilpDefaultPartitionBy: read.enumValue('line.default.partition.by'),
    ilpTimestampColumnType: read.enumValue('line.timestamp.default.column.type'),
    ilpTcpEnabled: read.boolean('line.tcp.enabled'),
    ilpTcpBindHost: tcpBind.host,
    ilpTcpBindPort: tcpBind.port,
    ilpTcpConnectionsMax: read.int('line.tcp.net.connection.limit'),
    ilpTcpLineBytesMax: read.bytes('line.tcp.max.line.size'),
    ilpTcpCommitIntervalMs: read.ms('line.tcp.commit.interval.default'),
    ilpTcpUncommittedBytesMax: read.bytes('line.tcp.max.uncommitted.size'),
    ilpTcpAuthDbPath: read.stringOrNull('line.tcp.auth.db.path'),
  };
}

/** The PostgreSQL wire protocol's keys. */
function pgFields(read: KeyReader) {
  const pgBind = read.address('pg.net.bind.to');
  return {
    pgEnabled: read.boolean('pg.enabled'),
    pgBindHost: pgBind.host,
    pgBindPort: pgBind.port,
    pgConnectionsMax: read.int('pg.net.connection.limit'),
    pgUser: read.stringOrNull('pg.user') ?? '',
    pgPassword: read.stringOrNull('pg.password') ?? '',
    pgReadOnlyUserEnabled: read.boolean('pg.readonly.user.enabled'),
    pgReadOnlyUser: read.stringOrNull('pg.readonly.user') ?? '',
    pgReadOnlyPassword: read.stringOrNull('pg.readonly.password') ?? '',
    pgReadOnly: read.boolean('pg.security.readonly'),
    pgAuthMethod: read.enumValue('pg.auth.method'),
    pgIdleTimeoutMs: read.ms('pg.net.idle.timeout'),
    pgHandshakeTimeoutMs: read.ms('pg.net.handshake.timeout'),
    pgMessageBytesMax: read.bytes('pg.recv.buffer.size'),
    pgTlsCertPath: read.stringOrNull('pg.tls.cert.path'),
    pgTlsKeyPath: read.stringOrNull('pg.tls.key.path'),
  };
}

interface KeyReader {
  boolean(name: ServerKeyName): boolean;
  int(name: ServerKeyName): number;
  intOrNull(name: ServerKeyName): number | null;
  ms(name: ServerKeyName): number;
  bytes(name: ServerKeyName): number;
  stringOrNull(name: ServerKeyName): string | null;
  address(name: ServerKeyName): BindAddress;
  commitMode(name: ServerKeyName): CommitMode;
  enumValue(name: ServerKeyName): string;
  unreadKeys(): string[];
}

/** Parses every layered value up front (so a bad value fails even if unread) and hands them out by type. */
function createKeyReader(values: ReadonlyMap<string, RawValue>): KeyReader {
  const parsed = new Map<string, KeyValue>();
  for (const [name, value] of values) parsed.set(name, parseKeyValue(value.key, value.raw, value.where));
  const unread = new Set(parsed.keys());

  const take = (name: ServerKeyName, type: KeyType): KeyValue => {
    const key = values.get(name)?.key;
    assert(key !== undefined && key.type === type, `${name} is a ${type} key in keys.ts`);
    unread.delete(name);
    return parsed.get(name) ?? null;
  };
  const takeNumber = (name: ServerKeyName, type: KeyType): number => {
    const value = take(name, type);
    assert(typeof value === 'number', `${name} parses to a number`);
    return value;
  };

  return {
    boolean(name) {
      const value = take(name, 'boolean');
      assert(typeof value === 'boolean', `${name} parses to a boolean`);
      return value;
    },
    int: (name) => takeNumber(name, 'int'),
    intOrNull(name) {
      const value = take(name, 'int');
      assert(value === null || typeof value === 'number', `${name} parses to a number or null`);
      return value;
    },
    ms: (name) => takeNumber(name, 'duration'),
    bytes: (name) => takeNumber(name, 'size'),
    stringOrNull(name) {
      const value = take(name, 'string');
      assert(value === null || typeof value === 'string', `${name} parses to a string or null`);
      return value;
    },
    address(name) {
      const value = take(name, 'address');
      assert(typeof value === 'object' && value !== null, `${name} parses to an address`);
      return value;
    },
    commitMode(name) {
      const value = take(name, 'enum');
      const mode = COMMIT_MODES.find((candidate) => candidate === value);
      assert(mode !== undefined, `${name} parses to one of its enum values`);
      return mode;
    },
    enumValue(name) {
      const value = take(name, 'enum');
      assert(typeof value === 'string', `${name} parses to one of its enum values`);
      return value;
    },
    unreadKeys: () => [...unread],
  };
}

function toEntry(value: RawValue): ConfigEntry {
  const text = value.raw ?? '';
  const masked = value.key.sensitive === true && text.length > 0 ? '****' : text;
  return Object.freeze({ key: value.key.name, envName: envNameForKey(value.key.name), value: masked, source: value.source });
}

/** Default parse threads per worker process: enough for one upload to use the cores of a small machine. */
const PARSE_THREADS_DEFAULT_MAX = 4;

function parseThreadCount(configured: number, cpuCount: number): number {
  return configured === -1 ? Math.max(1, Math.min(PARSE_THREADS_DEFAULT_MAX, cpuCount)) : configured;
}

/** query.parallel.thread.count: -1 means one thread per core the process may use. */
function resolveParallelThreads(configured: number): number {
  return configured < 0 ? availableParallelism() : configured;
}
