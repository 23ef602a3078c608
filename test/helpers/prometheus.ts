// Test helpers around the real Prometheus tools (Debian package `prometheus`, installed in CI):
// `promtool check metrics` on an exposition text, and a real `prometheus` server on loopback with a
// temporary config that scrapes one target every second, queried through /api/v1/query.
// Missing binaries fail with a message that says how to install them, never a silent skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const INSTALL_HINT = 'install the Debian package: apt-get update && apt-get install -y prometheus';

/** Absolute path of a Prometheus tool, or an Error naming what to install. */
export function requirePrometheusTool(tool: 'prometheus' | 'promtool'): string {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  const location = found.stdout.trim();
  if (found.status !== 0 || location === '') throw new Error(`${tool} is not on PATH; ${INSTALL_HINT}`);
  return location;
}

export interface PromtoolResult {
  readonly ok: boolean;
  /** promtool's own words: lint problems or parse errors, empty when clean. */
  readonly output: string;
}

/** Run `promtool check metrics` with the text on stdin; ok means exit code 0 (no lint problems). */
export function checkMetricsWithPromtool(text: string): PromtoolResult {
  const promtool = requirePrometheusTool('promtool');
  const result = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

export interface PrometheusSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface PrometheusServer {
  readonly url: string;
  /** Instant query; resolves the vector result (scalar results become one unlabelled sample). */
  query(expression: string): Promise<PrometheusSample[]>;
  /** Poll `expression` until `accept` holds, or reject after timeoutMs with the last result. */
  waitFor(expression: string, accept: (samples: PrometheusSample[]) => boolean, timeoutMs?: number): Promise<PrometheusSample[]>;
  /** What Prometheus wrote to stdout and stderr, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartPrometheusOptions {
  readonly targetPort: number;
  readonly targetHost?: string;
  readonly scrapeIntervalSeconds?: number;
  readonly readyTimeoutMs?: number;
}

export async function startPrometheus(options: StartPrometheusOptions): Promise<PrometheusServer> {
  const binary = requirePrometheusTool('prometheus');
  const directory = await mkdtemp(path.join(tmpdir(), 'svc-prometheus-'));
  const interval = `${options.scrapeIntervalSeconds ?? 1}s`;
  const target = `${options.targetHost ?? '127.0.0.1'}:${options.targetPort}`;
  const config = [
    'global:',
    `  scrape_interval: ${interval}`,
    `  scrape_timeout: ${interval}`,
    'scrape_configs:',
    '  - job_name: svc',
    '    static_configs:',
    `      - targets: ['${target}']`,
    '',
  ].join('\n');
  const configFile = path.join(directory, 'prometheus.yml');
  await writeFile(configFile, config);
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(binary, [
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${path.join(directory, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const server: PrometheusServer = {
    url,
    query: (expression) => queryPrometheus(url, expression),
    waitFor: (expression, accept, timeoutMs = 20_000) => pollPrometheus(url, expression, accept, timeoutMs),
    output: () => output,
    stop: async () => {
      await stopChild(child);
      await rm(directory, { recursive: true, force: true });
    },
  };
  try {
    await waitReady(url, child, options.readyTimeoutMs ?? 20_000);
  } catch (error) {
    await server.stop();
    throw new Error(`prometheus did not become ready: ${error instanceof Error ? error.message : String(error)}\n${output}`);
  }
  return server;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/-/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
  throw new Error(`not ready after ${timeoutMs} ms`);
}

async function queryPrometheus(url: string, expression: string): Promise<PrometheusSample[]> {
  const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body: unknown = await response.json();
  return parseQueryResponse(body, expression);
}

async function pollPrometheus(
  url: string,
  expression: string,
  accept: (samples: PrometheusSample[]) => boolean,
  timeoutMs: number,
): Promise<PrometheusSample[]> {
  const deadline = Date.now() + timeoutMs;
  let last: PrometheusSample[] = [];
  while (Date.now() < deadline) {
    last = await queryPrometheus(url, expression);
    if (accept(last)) return last;
    await delay(250);
  }
  throw new Error(`prometheus query ${expression} not accepted after ${timeoutMs} ms; last result ${JSON.stringify(last)}`);
}

/** Narrow the /api/v1/query JSON (`{status, data: {resultType, result}}`). */
export function parseQueryResponse(body: unknown, expression: string): PrometheusSample[] {
  if (!isRecord(body) || body.status !== 'success' || !isRecord(body.data)) {
    throw new Error(`prometheus query ${expression} failed: ${JSON.stringify(body)}`);
  }
  const { resultType, result } = body.data;
  if (resultType === 'scalar' && Array.isArray(result)) return [{ labels: {}, value: Number(result[1]) }];
  if (resultType !== 'vector' || !Array.isArray(result)) throw new Error(`unexpected result type ${String(resultType)}`);
  return result.map((entry: unknown) => {
    if (!isRecord(entry) || !isRecord(entry.metric) || !Array.isArray(entry.value)) throw new Error(`bad sample ${JSON.stringify(entry)}`);
    const labels: Record<string, string> = {};
    for (const [key, value] of Object.entries(entry.metric)) labels[key] = String(value);
    return { labels, value: Number(entry.value[1]) };
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A port free right now on 127.0.0.1 (tiny race before Prometheus binds it; acceptable in tests). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
