// Starts a real svc process (primary + workers) on free loopback ports with a temporary root, waits until it
// answers, and stops it (SIGTERM, or SIGKILL for crash tests). Captures the process output for diagnostics.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { rawRequest } from './raw-http.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const mainScript = join(repoRoot, 'dist', 'main.js');

/**
 * Ports this test process has handed out. A port is free only until its server binds it, so two servers started
 * together (Promise.all) could be given the same one: one's HTTP port was the other's ILP port, and the start
 * failed. Each port goes out once per process.
 */
const portsHandedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await ephemeralPort();
    if (portsHandedOut.has(port)) continue;
    portsHandedOut.add(port);
    return port;
  }
}

function ephemeralPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface StartOptions {
  readonly workers?: number;
  readonly env?: Record<string, string>;
  readonly rootDir?: string;
  readonly httpPort?: number;
  readonly minPort?: number;
  /** ILP TCP port (line.tcp.net.bind.to); a free one by default, so concurrent test servers never share 9009. */
  readonly ilpTcpPort?: number;
  /** PostgreSQL wire protocol port (pg.net.bind.to); a free one by default. */
  readonly pgPort?: number;
  /** main.js to run instead of the checkout's dist/main.js (an installed release tree). */
  readonly entryScript?: string;
  readonly cwd?: string;
  /** Node options before the script (V8 flags reach every process and thread: cluster workers inherit them). */
  readonly nodeArgs?: readonly string[];
}

export interface TestServer {
  readonly rootDir: string;
  readonly httpPort: number;
  readonly minPort: number;
  readonly ilpTcpPort: number;
  readonly pgPort: number;
  readonly baseUrl: string;
  readonly adminUrl: string;
  readonly process: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
  kill9(): Promise<void>;
  cleanup(): void;
}

/**
 * Starts several servers at once. If any start fails, the ones that did start are stopped and removed before the
 * error is thrown: a destructuring `[a, b] = await Promise.all([...])` assigns neither on a failure, so a started
 * sibling would never be stopped by the after hook and would keep the test run from ending.
 */
export async function startServers<const T extends readonly StartOptions[]>(optionsList: T): Promise<{ -readonly [K in keyof T]: TestServer }> {
  const settled = await Promise.allSettled(optionsList.map((options) => startServer(options)));
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const started = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failure !== undefined) {
    await Promise.allSettled(started.map((server) => server.stop()));
    for (const server of started) server.cleanup();
    throw failure.reason;
  }
  return started as { -readonly [K in keyof T]: TestServer };
}

/**
 * A port found free can be taken before the server binds it: by a server of another test file (ava runs files in
 * separate processes), or as the local port of any outgoing connection, since both come from the same ephemeral
 * range. A start that failed on a port this helper chose is tried again on new ports (over the same root, which
 * the failed start left as a clean restart would find it).
 */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const rootDir = options.rootDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const choosesPorts = options.httpPort === undefined || options.minPort === undefined || options.ilpTcpPort === undefined || options.pgPort === undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options, rootDir);
    } catch (error) {
      const portTaken = error instanceof Error && error.message.includes('EADDRINUSE');
      if (!portTaken || !choosesPorts || attempt === 3) throw error;
    }
  }
}

async function startServerOnce(options: StartOptions, rootDir: string): Promise<TestServer> {
  const httpPort = options.httpPort ?? (await freePort());
  const minPort = options.minPort ?? (await freePort());
  const ilpTcpPort = options.ilpTcpPort ?? (await freePort());
  const pgPort = options.pgPort ?? (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    SVC_HTTP_NET_BIND_TO: `127.0.0.1:${httpPort}`,
    SVC_HTTP_MIN_NET_BIND_TO: `127.0.0.1:${minPort}`,
    SVC_LINE_TCP_NET_BIND_TO: `127.0.0.1:${ilpTcpPort}`,
    SVC_PG_NET_BIND_TO: `127.0.0.1:${pgPort}`,
    SVC_HTTP_WORKER_COUNT: String(options.workers ?? 2),
    SVC_LOG_W_STDOUT_LEVEL: 'ERROR',
    // Clients (undici's fetch) drop idle pooled sockets after ~4 s; with the server's 5 s default a loaded
    // machine can let a POST go out on a socket the server is just closing, which no client retries. Tests
    // that are about keep-alive set their own value.
    SVC_HTTP_KEEP_ALIVE_TIMEOUT: '60s',
    ...options.env,
  };
  const logsBefore = logFileNames(rootDir);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entryScript ?? mainScript, '-d', rootDir], { env, stdio: ['ignore', 'pipe', 'pipe'], ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const server: TestServer = {
    rootDir, httpPort, minPort, ilpTcpPort, pgPort, process: child,
    baseUrl: `http://127.0.0.1:${httpPort}`,
    adminUrl: `http://127.0.0.1:${minPort}`,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
    cleanup() {
      rmSync(rootDir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilReady(server, exited);
  } catch (error) {
    // A server that never became ready would otherwise outlive the test run (and load the machine).
    await server.kill9();
    throw error;
  }
  await waitForWorkers(rootDir, Number(env['SVC_HTTP_WORKER_COUNT']), logsBefore);
  return server;
}

/**
 * The first answer comes from the first worker that listens; tests that kill a worker need every worker
 * listening, or the primary closes the shared socket with the last listener. Each worker logs `serving` once
 * it listens; best effort, for roots whose logging writes no file.
 */
async function waitForWorkers(rootDir: string, workers: number, logsBefore: ReadonlySet<string>): Promise<void> {
  if (!(workers > 0)) return;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (countServingRecords(join(rootDir, 'log'), logsBefore) >= workers) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 25));
  }
}

/**
 * `serving` records in the log files this start wrote: a root reused from an earlier start (the SQL bench
 * starts twice over one root) holds that start's records too, which would end the wait at once.
 */
function countServingRecords(logDir: string, logsBefore: ReadonlySet<string>): number {
  try {
    return readdirSync(logDir).filter((name) => !logsBefore.has(name))
      .reduce((sum, name) => sum + (readFileSync(join(logDir, name), 'utf8').match(/ I worker worker \d+ serving/g)?.length ?? 0), 0);
  } catch {
    return 0;
  }
}

function logFileNames(rootDir: string): ReadonlySet<string> {
  try {
    return new Set(readdirSync(join(rootDir, 'log')));
  } catch {
    return new Set();
  }
}

/** Everything in the root's log/ directory (I records go to the files, not to the test's stdout capture). */
export function readLogFiles(rootDir: string): string {
  const dir = join(rootDir, 'log');
  return existsSync(dir) ? readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('') : '';
}

/** The root's last `count` error, critical and advisory records (E, C, A), for a failed test's message. */
export function errorRecords(rootDir: string, count: number): string {
  return readLogFiles(rootDir).split('\n').filter((line) => / [ECA] /.test(line)).slice(-count).join('\n');
}

async function waitUntilReady(server: TestServer, exited: Promise<number | null>): Promise<void> {
  let dead = false;
  void exited.then(() => { dead = true; });
  // 60 s: with ava's concurrent files on 2 cores (load over 14) a cold start has taken more than 30 s.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (dead) throw new Error(`svc exited during start-up:\n${server.output()}`);
    try {
      // A fresh connection closed after the answer: a kept-alive fetch socket would sit in the test process's pool
      // while waitForWorkers polls, and the test's first request could reuse it as the server's keep-alive timeout
      // closes it ('fetch failed' on a loaded machine).
      const response = await rawRequest(server.httpPort, 'GET /exec?query=select%201 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      // 401: authentication is on, and the server is answering. The primary announces that it listens once
      // every worker is ready: until then an answer may come from whoever else holds the port (a start that
      // lost the port exits instead, and is tried again on new ports).
      if ((response.status === 200 || response.status === 401) && server.output().includes('listening: http')) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  throw new Error(`svc did not become ready:\n${server.output()}`);
}
