// The PostgreSQL wire protocol from the server configuration: the listener of single-process mode, and the
// connections a worker serves (the primary accepts them, tcp-dispatcher.ts); only the catalog and the writer
// client differ.
import type { ServerConfig } from '../config/server-config.js';
import type { Catalog } from '../storage/catalog.js';
import type { WriterClient } from '../engine/writer-client.js';
import { PgConnections, startPgServer, type PgConnectionOptions, type RunningPgServer } from '../pgwire/pg-server.js';
import { AUTH_METHODS, type AuthMethod, type PgUser } from '../pgwire/authentication.js';
import { CancelRegistry } from '../pgwire/cancel-registry.js';
import { ConfigError } from '../core/errors.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';

export interface PgListenerParts {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  readonly dbDir: string;
  /** A CancelRequest for a connection this process does not hold (another worker may). */
  readonly onForeignCancel?: (processId: number, secretKey: number) => void;
}

export interface PgListener {
  readonly server: RunningPgServer;
  readonly cancels: CancelRegistry;
}

function authMethodOf(name: string): AuthMethod {
  const method = AUTH_METHODS.find((candidate) => candidate === name);
  if (method === undefined) throw new ConfigError('pg.auth.method', `unknown method ${name}`);
  return method;
}

export function pgUsersOf(config: ServerConfig): PgUser[] {
  const users: PgUser[] = [{ name: config.pgUser, password: config.pgPassword, readOnly: false }];
  if (config.pgReadOnlyUserEnabled) users.push({ name: config.pgReadOnlyUser, password: config.pgReadOnlyPassword, readOnly: true });
  return users;
}

/** The TLS context from pg.tls.cert.path and pg.tls.key.path (relative paths under the root); both or neither. Throws ConfigError. */
export function pgTlsContextOf(config: ServerConfig): SecureContext | undefined {
  const certPath = config.pgTlsCertPath;
  const keyPath = config.pgTlsKeyPath;
  if (certPath === null && keyPath === null) return undefined;
  if (certPath === null || keyPath === null) throw new ConfigError(certPath === null ? 'pg.tls.cert.path' : 'pg.tls.key.path', 'pg.tls.cert.path and pg.tls.key.path are set together');
  try {
    return createSecureContext({ cert: readFileSync(resolve(config.rootDir, certPath)), key: readFileSync(resolve(config.rootDir, keyPath)) });
  } catch (error) {
    throw new ConfigError('pg.tls.cert.path', `cannot load the TLS certificate and key: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** How this process serves PostgreSQL connections, from the configuration. */
function connectionOptionsOf(config: ServerConfig, parts: PgListenerParts, cancels: CancelRegistry): PgConnectionOptions {
  const tls = pgTlsContextOf(config);
  return {
    ...(tls === undefined ? {} : { tls }),
    connectionsMax: config.pgConnectionsMax,
    connection: {
      catalog: parts.catalog,
      writer: parts.writer,
      readOnly: config.pgReadOnly || config.httpReadOnly,
      users: pgUsersOf(config),
      authMethod: authMethodOf(config.pgAuthMethod),
      statementTimeoutMs: config.queryTimeoutMs,
      messageBytesMax: config.pgMessageBytesMax,
      idleTimeoutMs: config.pgIdleTimeoutMs,
      handshakeTimeoutMs: config.pgHandshakeTimeoutMs,
      cancels,
      copy: { dbDir: parts.dbDir, analysisMaxLines: config.importAnalysisLinesMax },
      ...(parts.onForeignCancel === undefined ? {} : { onForeignCancel: parts.onForeignCancel }),
    },
  };
}

/** Single-process mode: the primary listens and serves the connections itself. */
export async function startPgListener(config: ServerConfig, parts: PgListenerParts): Promise<PgListener | undefined> {
  if (!config.pgEnabled) return undefined;
  const cancels = new CancelRegistry();
  const server = await startPgServer({ host: config.pgBindHost, port: config.pgBindPort, ...connectionOptionsOf(config, parts, cancels) });
  return { server, cancels };
}

/** A worker: serves the connections the primary hands it (tcp-dispatcher.ts); undefined when PG is off. */
export function pgConnectionsOf(config: ServerConfig, parts: PgListenerParts): { readonly connections: PgConnections; readonly cancels: CancelRegistry } | undefined {
  if (!config.pgEnabled) return undefined;
  const cancels = new CancelRegistry();
  return { connections: new PgConnections(connectionOptionsOf(config, parts, cancels)), cancels };
}
