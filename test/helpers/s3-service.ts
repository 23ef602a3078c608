// The real S3 store for tests: OpenStack Swift + s3api started by ../shared/services/s3/start.sh (beside the
// repository, as CI lays it out). sharedS3() reuses the instance .ci/run started (S3_* in the environment) or
// starts the default one (start.sh is idempotent); privateS3() starts a separate instance on free ports that
// a test may stop and restart without disturbing anyone else.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** SVC_S3_SERVICE_DIR (set by .ci/run), else shared/ beside the repository, else the workplace's /work/shared. */
const servicesDir = process.env['SVC_S3_SERVICE_DIR']
  ?? [resolve(import.meta.dirname, '..', '..', '..', 'shared', 'services', 's3'), '/work/shared/services/s3'].find((dir) => existsSync(resolve(dir, 'start.sh')))
  ?? resolve(import.meta.dirname, '..', '..', '..', 'shared', 'services', 's3');
const START_TIMEOUT_MS = 240_000;

export interface S3Service {
  readonly endpoint: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly region: string;
  /** Set for a private instance: its state directory and port, for stop/restart. */
  readonly stateDir: string | null;
  readonly port: number;
}

function script(name: 'start.sh' | 'stop.sh'): string {
  const path = resolve(servicesDir, name);
  if (!existsSync(path)) {
    throw new Error(`the S3 test store script is missing at ${path}: tests expect shared/services/s3 beside the repository (../shared from the repo root)`);
  }
  return path;
}

function parseStartOutput(stdout: string, stateDir: string | null): S3Service {
  const values = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0) values.set(line.slice(0, equals).trim(), line.slice(equals + 1).trim());
  }
  const endpoint = values.get('S3_ENDPOINT');
  if (endpoint === undefined) throw new Error(`start.sh printed no S3_ENDPOINT:\n${stdout}`);
  return {
    endpoint, accessKey: values.get('S3_ACCESS_KEY') ?? 'svc:test', secretKey: values.get('S3_SECRET_KEY') ?? 'testing',
    region: values.get('S3_REGION') ?? 'us-east-1', stateDir, port: Number(new URL(endpoint).port),
  };
}

/** The shared instance: from the environment when .ci/run (or the developer) started it, else started now. */
export async function sharedS3(): Promise<S3Service> {
  const endpoint = process.env['S3_ENDPOINT'];
  if (endpoint !== undefined && endpoint !== '' && process.env['S3_ACCESS_KEY'] !== undefined) {
    return parseStartOutput(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_REGION'].map((name) => `${name}=${process.env[name] ?? ''}`).join('\n'), null);
  }
  const { stdout } = await run('bash', [script('start.sh')], { timeout: START_TIMEOUT_MS });
  return parseStartOutput(stdout, null);
}

/** A separate instance in `stateDir` on free ports (PORT..PORT+4), for tests that stop the store. */
export async function privateS3(stateDir: string): Promise<S3Service> {
  const port = await freePortRange(5);
  const { stdout } = await run('bash', [script('start.sh'), stateDir, String(port)], { timeout: START_TIMEOUT_MS });
  return parseStartOutput(stdout, stateDir);
}

export async function restartS3(service: S3Service): Promise<void> {
  if (service.stateDir === null) throw new Error('only a private S3 instance may be restarted by a test');
  await run('bash', [script('start.sh'), service.stateDir, String(service.port)], { timeout: START_TIMEOUT_MS });
}

export async function stopS3(service: S3Service, purge = false): Promise<void> {
  if (service.stateDir === null) throw new Error('only a private S3 instance may be stopped by a test');
  await run('bash', [script('stop.sh'), ...(purge ? [service.stateDir, '--purge'] : [service.stateDir])], { timeout: 60_000 });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below the kernel's ephemeral range (32768 and up here): test servers take their ports from bind(0), which
    // hands out ephemeral ports, and a private store restarted on its old ports must never find one of them
    // there (a test's svc server and Swift on one port made /imp answer Swift's 405).
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    let free = true;
    for (let offset = 0; offset < count && free; offset++) free = await portFree(base + offset);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found for a private S3 instance`);
}
