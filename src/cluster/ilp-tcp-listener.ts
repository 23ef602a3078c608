// ILP TCP from the server configuration: the listener of single-process mode, and the connections a worker serves
// (the primary accepts them, tcp-dispatcher.ts); only the catalog and the writer client differ. Neither when
// line.tcp.enabled is false or the server is read-only (http.security.readonly: /settings then lists no
// transport taking writes).
import { resolve } from 'node:path';
import type { ServerConfig } from '../config/server-config.js';
import type { Catalog } from '../storage/catalog.js';
import type { WriterClient } from '../engine/writer-client.js';
import { loadIlpAuthDb, type IlpAuthDb } from '../ilp/tcp-auth-db.js';
import { IlpTcpConnections, startIlpTcpServer, type RunningIlpTcpServer } from '../ilp/tcp-server.js';
import type { IlpTcpConnectionSettings } from '../ilp/tcp-connection.js';

export interface IlpTcpListenerParts {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
}

export function ilpTcpListening(config: ServerConfig): boolean {
  return config.ilpTcpEnabled && !config.httpReadOnly;
}

/** The keys of line.tcp.auth.db.path (a relative path is under the root, as in QuestDB); undefined when unset. Throws ConfigError. */
export function ilpTcpAuthDbOf(config: ServerConfig): IlpAuthDb | undefined {
  const path = config.ilpTcpAuthDbPath;
  return path === null ? undefined : loadIlpAuthDb(resolve(config.rootDir, path));
}

/** The settings every ILP TCP connection of this process is served with. */
function connectionSettingsOf(config: ServerConfig, parts: IlpTcpListenerParts): IlpTcpConnectionSettings {
  return {
    ingest: {
      dbDir: parts.dbDir, catalog: parts.catalog, lineBytesMax: config.ilpTcpLineBytesMax,
      autoCreateTables: config.ilpAutoCreateTables, autoCreateColumns: config.ilpAutoCreateColumns, partitionBy: config.ilpDefaultPartitionBy,
      nanosTimestamps: config.ilpTimestampColumnType === 'TIMESTAMP_NS',
      // A connection commits once it holds line.tcp.max.uncommitted.size, so its rows never need to spill.
      spillBytes: Number.MAX_SAFE_INTEGER,
    },
    writer: parts.writer,
    commitIntervalMs: config.ilpTcpCommitIntervalMs,
    uncommittedBytesMax: config.ilpTcpUncommittedBytesMax,
    authDb: ilpTcpAuthDbOf(config),
  };
}

/** Single-process mode: the primary listens and serves the connections itself. */
export async function startIlpTcpListener(config: ServerConfig, parts: IlpTcpListenerParts): Promise<RunningIlpTcpServer | undefined> {
  if (!ilpTcpListening(config)) return undefined;
  return startIlpTcpServer({
    host: config.ilpTcpBindHost, port: config.ilpTcpBindPort, connectionsMax: config.ilpTcpConnectionsMax,
    connection: connectionSettingsOf(config, parts),
  });
}

/** A worker: serves the connections the primary hands it (tcp-dispatcher.ts); undefined when TCP is off. */
export function ilpTcpConnectionsOf(config: ServerConfig, parts: IlpTcpListenerParts): IlpTcpConnections | undefined {
  if (!ilpTcpListening(config)) return undefined;
  return new IlpTcpConnections(config.ilpTcpConnectionsMax, connectionSettingsOf(config, parts));
}
