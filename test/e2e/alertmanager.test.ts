// The alert writer against a real Prometheus Alertmanager (Debian prometheus-alertmanager), started here on loopback
// with a temporary storage directory and a free port, and stopped afterwards. Checks: a critical record arrives with
// every label and the message (through configureLogging, as the service runs it); failover from a dead target; and
// logging that stays fast with a bounded queue when every target is down. A missing binary fails the test.
import test from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureLogging, getAlertWriterStats, shutdownLogging } from '../../src/log/configure.js';
import { getLogger } from '../../src/log/logger.js';
import { AlertWriter } from '../../src/log/alert-writer.js';
import { parseAlertTemplate } from '../../src/log/alert-template.js';
import { parseAlertTargets } from '../../src/log/alert-targets.js';
import { bundledAlertTemplatePath } from '../../src/log/log-conf-file.js';
import { formatRecordLine } from '../../src/log/layout.js';

const BINARY_CANDIDATES = ['prometheus-alertmanager', 'alertmanager'];
const READY_TIMEOUT_MS = 20_000;

interface RunningAlertmanager {
  readonly port: number;
  readonly process: ChildProcess;
  readonly output: string[];
}

interface AmAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

let alertmanager: RunningAlertmanager | undefined;

test.before(async () => {
  alertmanager = await startAlertmanager();
});

test.after.always(async () => {
  if (alertmanager !== undefined) await stopAlertmanager(alertmanager);
});

test.serial('a critical record reaches Alertmanager with every label and the whole record as message', async (t) => {
  const am = requireAlertmanager();
  const root = makeRoot('deliver', [
    'writers=file,alert',
    'w.file.class=io.svc.log.LogFileWriter',
    'w.file.location=${log.dir}/svc.log',
    'w.alert.class=io.svc.log.LogAlertSocketWriter',
    'w.alert.level=CRITICAL',
    `w.alert.alertTargets=127.0.0.1:${am.port}`,
  ]);
  const env = { CLUSTER_NAME: 'e2e-cluster', ORGID: 'org-7', NAMESPACE: 'ns-test', INSTANCE_NAME: `db-${process.pid}` };
  await configureLogging({ rootDir: root, env, version: '9.8.7-e2e', role: 'primary' });
  const marker = `marker-${Date.now()}`;
  getLogger('engine').critical(`storage invariant broken ${marker} "quoted" $PATH`, new Error('inner detail'));
  const alert = await waitForAlert(am, (candidate) => (candidate.annotations['message'] ?? '').includes(marker));
  await waitForStats((stats) => stats.sent >= 1);
  await shutdownLogging();
  const { alertTimestamp, ...fixed } = alert.labels;
  t.deepEqual(fixed, {
    alertname: 'SvcInstanceLogs',
    service: 'svc',
    category: 'application-logs',
    severity: 'critical',
    version: '9.8.7-e2e',
    cluster: 'e2e-cluster',
    orgid: 'org-7',
    namespace: 'ns-test',
    instance: `db-${process.pid}`,
  });
  t.regex(alertTimestamp ?? '', /^\d{4}\/\d{2}\/\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  t.is(alert.annotations['description'], `ERROR/cl:e2e-cluster/org:org-7/ns:ns-test/db:db-${process.pid}`);
  const message = alert.annotations['message'] ?? '';
  t.regex(message, new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z C engine storage invariant broken ${marker} "quoted" \\$PATH\\nError: inner detail\\n`));
  const fileText = readFileSync(join(root, 'log', 'svc.log'), 'utf8');
  t.true(fileText.includes(message.split('\n')[0] ?? 'missing'), 'the alert carries the same line as the file');
  t.regex(fileText, new RegExp(`I alert-writer Received \\[0\\] 127\\.0\\.0\\.1:${am.port}: 200`));
});

test.serial('with a dead first target the alert fails over to the live Alertmanager', async (t) => {
  const am = requireAlertmanager();
  const dead = await findDeadPort();
  const template = parseAlertTemplate(readFileSync(bundledAlertTemplatePath(), 'utf8'), 'bundled', { env: {}, version: 'failover', key: 'w.alert.location' });
  const writer = new AlertWriter({
    name: 'alert', template, targets: parseAlertTargets(`127.0.0.1:${dead},127.0.0.1:${am.port}`, '127.0.0.1', 9093, 'w.alert.alertTargets'),
    reconnectDelayMs: 250, sendTimeoutMs: 2000, inBufferBytes: 2 << 20, outBufferBytes: 4 << 20, queueAlertsMax: 100,
    random: () => 0,
  });
  const marker = `failover-${Date.now()}`;
  const record = { timestampMicros: Date.now() * 1000, level: 'C' as const, logger: 'engine', message: marker, pid: process.pid };
  writer.write(formatRecordLine(record), record);
  const alert = await waitForAlert(am, (candidate) => (candidate.annotations['message'] ?? '').includes(marker));
  const stats = writer.stats();
  await writer.close();
  t.is(alert.labels['version'], 'failover');
  t.is(stats.failedAttempts, 1, 'the dead target was tried first and failed once');
  t.is(stats.sent, 1);
});

test.serial('with every target down, logging critical records stays fast and the alert queue stays bounded', async (t) => {
  const dead = await findDeadPort();
  // Accepts connections and never answers: the worst kind of dead Alertmanager.
  const hungSockets = new Set<net.Socket>();
  const hung = net.createServer((socket) => hungSockets.add(socket));
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const hungAddress = hung.address();
  const hungPort = hungAddress !== null && typeof hungAddress === 'object' ? hungAddress.port : 0;
  const root = makeRoot('down', [
    'writers=file,alert',
    'w.file.class=io.svc.log.LogRollingFileWriter',
    'w.file.location=${log.dir}/svc-${date:yyyyMMdd}.txt',
    'w.alert.class=io.svc.log.LogAlertSocketWriter',
    `w.alert.alertTargets=127.0.0.1:${dead},127.0.0.1:${hungPort}`,
    'w.alert.sendTimeoutMs=500',
    'w.alert.queueAlertsMax=100',
  ]);
  await configureLogging({ rootDir: root, env: {}, version: 'down', role: 'primary' });
  const log = getLogger('engine');
  const started = process.hrtime.bigint();
  for (let index = 0; index < 5000; index++) log.critical(`failure ${index}`);
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const stats = getAlertWriterStats();
  await shutdownLogging();
  hung.close();
  for (const socket of hungSockets) socket.destroy();
  t.true(elapsedMs < 3000, `5000 critical records logged in ${elapsedMs.toFixed(1)} ms`);
  t.truthy(stats);
  t.true((stats?.queued ?? Infinity) <= 100);
  t.true((stats?.droppedQueueFull ?? 0) >= 5000 - 101);
  const file = readdirSync(join(root, 'log')).find((name) => name.startsWith('svc-'));
  const lines = readFileSync(join(root, 'log', file ?? 'missing'), 'utf8').split('\n');
  t.is(lines.filter((line) => /^\S+Z C engine failure \d+$/.test(line)).length, 5000, 'the file got every record');
});

function requireAlertmanager(): RunningAlertmanager {
  if (alertmanager === undefined) throw new Error('Alertmanager did not start (see the before hook)');
  return alertmanager;
}

function findBinary(): string {
  for (const name of BINARY_CANDIDATES) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found.length > 0) return found;
  }
  throw new Error(
    `Prometheus Alertmanager not found (tried ${BINARY_CANDIDATES.join(', ')} on PATH). ` +
      'Install it with: apt-get install -y prometheus-alertmanager',
  );
}

async function startAlertmanager(): Promise<RunningAlertmanager> {
  const binary = findBinary();
  const dir = mkdtempSync(join(tmpdir(), 'svc-alertmanager-'));
  const configPath = join(dir, 'alertmanager.yml');
  writeFileSync(configPath, 'route:\n  receiver: discard\nreceivers:\n  - name: discard\n');
  let lastOutput: string[] = [];
  // The free port may be taken between probing and binding; a few tries make that race harmless.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await findDeadPort();
    const output: string[] = [];
    const child = spawn(binary, [
      `--config.file=${configPath}`, `--storage.path=${join(dir, `data-${attempt}`)}`,
      `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=', '--log.level=warn',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    if (await waitReady(port, child)) return { port, process: child, output };
    child.kill('SIGKILL');
    lastOutput = output;
  }
  throw new Error(`Alertmanager did not become ready: ${lastOutput.join('')}`);
}

async function waitReady(port: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/-/ready`);
      if (response.ok) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  return false;
}

async function stopAlertmanager(am: RunningAlertmanager): Promise<void> {
  if (am.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => am.process.once('exit', () => resolve()));
  am.process.kill('SIGTERM');
  const timer = setTimeout(() => am.process.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function waitForAlert(am: RunningAlertmanager, match: (alert: AmAlert) => boolean): Promise<AmAlert> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(`http://127.0.0.1:${am.port}/api/v2/alerts`);
    const alerts: unknown = await response.json();
    const found = Array.isArray(alerts) ? alerts.filter(isAmAlert).find(match) : undefined;
    if (found !== undefined) return found;
    await sleep(100);
  }
  throw new Error(`alert not found in Alertmanager; its output: ${am.output.join('')}`);
}

async function waitForStats(check: (stats: NonNullable<ReturnType<typeof getAlertWriterStats>>) => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (let stats = getAlertWriterStats(); stats === undefined || !check(stats); stats = getAlertWriterStats()) {
    if (Date.now() > deadline) throw new Error('alert writer counters did not reach the expected state');
    await sleep(25);
  }
}

function isAmAlert(value: unknown): value is AmAlert {
  if (typeof value !== 'object' || value === null) return false;
  const labels: unknown = Reflect.get(value, 'labels');
  const annotations: unknown = Reflect.get(value, 'annotations');
  return typeof labels === 'object' && labels !== null && typeof annotations === 'object' && annotations !== null;
}

function makeRoot(prefix: string, lines: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), `svc-am-${prefix}-`));
  mkdirSync(join(root, 'conf'));
  writeFileSync(join(root, 'conf', 'log.conf'), `${lines.join('\n')}\n`);
  if (!existsSync(join(root, 'conf', 'log.conf'))) throw new Error('log.conf not written');
  return root;
}

async function findDeadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
