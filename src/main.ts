#!/usr/bin/env node
// Entry point: parse the command line (-d <root>, --log-conf <path> / -Dout=<path>, -Debug), load the
// configuration, and start the primary (which forks the workers) or, in a forked process, a worker.
import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { loadServerConfig } from './config/server-config.js';
import { parseConnectionString } from './objectstore/connection-string.js';
import { ConfigError, SvcError } from './core/errors.js';
import { runPrimary } from './cluster/primary.js';
import { runWorker } from './cluster/worker.js';
import { configureLogging } from './log/configure.js';
import { getLogger } from './log/logger.js';
import { unhandledErrorChannel } from './core/diagnostics.js';
import { acquireRootLock } from './cluster/root-lock.js';
import { realFiles } from './core/files.js';
import { releaseVersion } from './core/release-version.js';
import { configureColdReads, configureCompileCache, configureParallel } from './sql/compiler.js';

interface CommandLine {
  readonly rootDir: string;
  readonly logConfPath?: string;
  readonly debug: boolean;
}

function parseCommandLine(args: readonly string[]): CommandLine {
  let rootDir = process.env['SVC_ROOT'] ?? './svcroot';
  let logConfPath: string | undefined;
  let debug = false;
  for (let k = 0; k < args.length; k++) {
    const arg = args[k];
    if (arg === '-d' && args[k + 1] !== undefined) rootDir = args[++k];
    else if (arg === '--log-conf' && args[k + 1] !== undefined) logConfPath = args[++k];
    else if (arg.startsWith('-Dout=')) logConfPath = arg.slice('-Dout='.length);
    else if (arg === '-Debug') debug = true;
  }
  return { rootDir: resolve(rootDir), debug, ...(logConfPath === undefined ? {} : { logConfPath: resolve(logConfPath) }) };
}

async function main(): Promise<void> {
  const commandLine = parseCommandLine(process.argv.slice(2));
  const version = releaseVersion();
  const config = loadServerConfig({ rootDir: commandLine.rootDir, env: process.env, createMissing: cluster.isPrimary });
  // Every process compiles expressions: workers for queries, the primary for INSERT, UPDATE and ALTER.
  configureCompileCache(config.compileCacheEntriesMax);
  // Processes that serve queries keep the parallel query threads: workers, or the primary in single-process mode.
  if (!cluster.isPrimary || config.httpWorkerCount === 0) configureParallel({ threadCount: config.parallelThreadCount, rowsMin: config.parallelRowsMin, heapBytesMax: config.parallelThreadHeapBytesMax });
  // A malformed connection string fails the start, naming the bad key, before anything touches the root.
  if (config.coldStorageObjectStore !== null) parseConnectionString(config.coldStorageObjectStore, 'cold.storage.object.store', process.env);
  configureColdReads({
    connection: config.coldStorageObjectStore, downloadsInFlightMax: config.coldDownloadsInFlightMax, pendingBatchesMax: config.coldPendingBatchesMax,
    coalesceGapBytesMax: config.coldCoalesceGapBytesMax, attemptsMax: 3, requestTimeoutMs: config.coldRequestTimeoutMs, queryMemoryBytesMax: config.queryMemoryBytesMax,
  });
  if (config.replicationRole !== 'none' && config.replicationObjectStore === null) {
    throw new ConfigError('replication.object.store', `replication.role=${config.replicationRole} needs a replication.object.store connection string`);
  }
  if (config.replicationObjectStore !== null) parseConnectionString(config.replicationObjectStore, 'replication.object.store', process.env);
  if (cluster.isPrimary) {
    // The lock comes first: a refused second start must not touch the root, not even its log directory.
    realFiles.mkdirs(config.rootDir);
    const lock = acquireRootLock(config.rootDir);
    process.on('exit', () => lock.release());
    await configureLogging({ rootDir: config.rootDir, env: process.env, version, role: config.httpWorkerCount > 0 ? 'primary' : 'single', debug: commandLine.debug, ...(commandLine.logConfPath === undefined ? {} : { logConfPath: commandLine.logConfPath }) });
    await runPrimary(config, version, lock);
  } else {
    await runWorker(config);
  }
}

// Anything thrown outside a request handler is a bug: a C record (which the alert writer forwards) and,
// in a worker, an exit so the primary restarts a clean process.
function onUncaught(error: unknown): void {
  unhandledErrorChannel.publish({ source: cluster.isPrimary ? 'primary' : 'worker', origin: 'local', error });
  if (!cluster.isPrimary) setTimeout(() => process.exit(1), 100);
}
process.on('uncaughtException', onUncaught);
process.on('unhandledRejection', onUncaught);

main().catch((error: unknown) => {
  const message = error instanceof SvcError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  getLogger('server-main').critical(`start-up failed: ${message}`);
  process.stderr.write(`svc: start-up failed: ${message}\n`);
  setTimeout(() => process.exit(1), 100);
});
