// Builds the :9000 handler's dependencies from the server configuration, the same way for a worker and for
// the primary in single-process mode; only the catalog, the writer client and the token registry differ.
import { join } from 'node:path';
import type { ServerConfig } from '../config/server-config.js';
import type { Catalog } from '../storage/catalog.js';
import type { WriterClient } from '../engine/writer-client.js';
import type { HttpDeps } from '../http/app.js';
import { createAuthenticator } from '../http/auth/authenticator.js';
import type { TokenRegistry } from '../http/auth/token-registry.js';
import type { ActiveImports } from '../http/active-imports.js';
import { replicaRefusal } from '../replication/replica-refusal.js';

export interface HttpDepsParts {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
  readonly tokens: TokenRegistry;
  /** Uploads in progress, aborted (and rolled back) when the process shuts down. */
  readonly activeImports?: ActiveImports;
}

export function buildHttpDeps(config: ServerConfig, parts: HttpDepsParts): HttpDeps {
  const credentials = config.httpUser !== null && config.httpPassword !== null ? { user: config.httpUser, password: config.httpPassword } : null;
  return {
    ...(parts.activeImports === undefined ? {} : { activeImports: parts.activeImports }),
    catalog: parts.catalog,
    writer: parts.writer,
    dbDir: parts.dbDir,
    queryTimeoutMs: config.queryTimeoutMs,
    exportTimeoutMs: config.httpExportTimeoutMs,
    readOnly: config.httpReadOnly,
    ...(config.replicationRole === 'replica' ? { replicaRefusal: replicaRefusal(config.replicationPrimaryUrl) } : {}),
    analysisMaxLines: config.importAnalysisLinesMax,
    importParseThreadCount: config.importParseThreadCount,
    queryTextLengthMax: config.queryTextLengthMax,
    authenticate: createAuthenticator({ credentials, tokens: parts.tokens }),
    limits: { concurrentRequestsMax: config.httpConcurrentRequestsMax, bodyBytesMax: config.httpRequestBodyBytesMax },
    publicDir: join(config.rootDir, 'public'),
    ilp: {
      httpEnabled: config.ilpHttpEnabled, tcpEnabled: config.ilpTcpEnabled, lineBytesMax: config.ilpHttpLineBytesMax,
      autoCreateTables: config.ilpAutoCreateTables, autoCreateColumns: config.ilpAutoCreateColumns, partitionBy: config.ilpDefaultPartitionBy,
      nanosTimestamps: config.ilpTimestampColumnType === 'TIMESTAMP_NS',
      commitOrderWaitMs: config.ilpHttpCommitOrderWaitMs,
    },
  };
}
