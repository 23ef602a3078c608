// The whole in-process path: configureLogging → getLogger → files, with scopes, lazy messages, records logged before
// configuration, the debug switch, start-up advisories, unhandled errors, and worker records forwarded through the
// bridge functions (the cross-process version belongs to the cluster tests). Serial: logging state is per process.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configureLogging, getLogRoutingTable, shutdownLogging } from '../../../src/log/configure.js';
import { getLogger } from '../../../src/log/logger.js';
import { logStartupAdvisory } from '../../../src/log/startup-advisory.js';
import { configureWorkerLogging, parseLogRecordPayload, writeForwardedRecord, type LogRecordPayload } from '../../../src/log/worker-bridge.js';
import { unhandledErrorChannel } from '../../../src/core/diagnostics.js';
import { makeRootWithLogConf, RECORD_LINE_PATTERN } from './log-test-helpers.js';

const TWO_WRITERS = [
  'writers=file,min',
  'w.file.class=io.svc.log.LogRollingFileWriter',
  'w.file.location=${log.dir}/main-${date:yyyyMMdd}.txt',
  'w.file.level=INFO',
  'w.min.class=io.svc.log.LogFileWriter',
  'w.min.location=${log.dir}/min.log',
  'w.min.level=ERROR',
  'w.min.scope=http-min-server',
];

function readMain(root: string): string[] {
  const name = readdirSync(join(root, 'log')).find((file) => file.startsWith('main-'));
  if (name === undefined) throw new Error('no main log file');
  return readFileSync(join(root, 'log', name), 'utf8').trimEnd().split('\n');
}

async function configure(root: string, env: NodeJS.ProcessEnv = {}, debug = false): Promise<void> {
  await configureLogging({ rootDir: root, env, debug, version: '1.2.3', role: 'primary' });
}

test.serial('records reach the writers of their scope, at the writers\' levels, in the exact format', async (t) => {
  const root = makeRootWithLogConf('scopes', TWO_WRITERS);
  await configure(root);
  let built = 0;
  getLogger('server-main').info('listening on 0.0.0.0:9000');
  getLogger('server-main').debug(() => `expensive ${++built}`);
  getLogger('http-min-server').info('health check');
  getLogger('http-min-server').error('min server failed');
  getLogger('engine').critical('invariant broken', new Error('boom'));
  await shutdownLogging();
  t.is(built, 0, 'a debug message is not built when no writer takes DEBUG');
  const main = readMain(root);
  const records = main.filter((line) => RECORD_LINE_PATTERN.test(line));
  t.true(records.some((line) => / A log-conf writer file: rolling file /.test(line)));
  t.true(records.some((line) => / I server-main listening on 0\.0\.0\.0:9000$/.test(line)));
  t.false(main.some((line) => /Z [ACEID] http-min-server /.test(line)), 'the http.min scope replaces the other writers');
  t.true(records.some((line) => / C engine invariant broken$/.test(line)));
  t.true(main.includes('Error: boom'));
  const min = readFileSync(join(root, 'log', 'min.log'), 'utf8').trimEnd().split('\n');
  t.is(min.length, 1);
  t.regex(min[0] ?? '', /^\S+Z E http-min-server min server failed$/);
});

test.serial('records logged before configuration are kept and written once configured', async (t) => {
  const root = makeRootWithLogConf('early', TWO_WRITERS);
  getLogger('server-main').info('reading server.conf');
  await configure(root);
  await shutdownLogging();
  const main = readMain(root);
  const early = main.findIndex((line) => line.endsWith('I server-main reading server.conf'));
  const config = main.findIndex((line) => line.includes('A log-conf log configuration'));
  t.true(early >= 0 && early < config, 'replayed with its original timestamp, before later records');
});

test.serial('SVC_DEBUG=true and the debug flag turn DEBUG on; env overrides apply and are advised', async (t) => {
  const root = makeRootWithLogConf('debug', TWO_WRITERS);
  await configure(root, { SVC_DEBUG: 'true', SVC_LOG_W_FILE_LEVEL: 'ERROR' });
  getLogger('engine').debug(() => 'debug detail');
  getLogger('engine').info('info detail');
  await shutdownLogging();
  const main = readMain(root);
  t.true(main.some((line) => / D engine debug detail$/.test(line)));
  t.false(main.some((line) => line.endsWith('info detail')), 'SVC_LOG_W_FILE_LEVEL=ERROR turned INFO off');
  t.true(main.some((line) => line.endsWith('A log-conf Using env: SVC_LOG_W_FILE_LEVEL=ERROR')));
  const flagRoot = makeRootWithLogConf('debug-flag', TWO_WRITERS);
  await configure(flagRoot, {}, true);
  getLogger('engine').debug('flag debug');
  await shutdownLogging();
  t.true(readMain(flagRoot).some((line) => line.endsWith('D engine flag debug')));
});

test.serial('start-up advisories are A records; unhandled errors published on the channel become C records', async (t) => {
  const root = makeRootWithLogConf('advisory', TWO_WRITERS);
  await configure(root);
  logStartupAdvisory(['svc 1.2.3', `root ${root}`, 'http.user=****']);
  unhandledErrorChannel.publish({ source: 'uncaughtException', origin: 'local', error: new TypeError('x is undefined') });
  unhandledErrorChannel.publish({ source: 'worker 3', origin: 'worker', error: new Error('logged by the worker itself') });
  await shutdownLogging();
  const main = readMain(root);
  t.true(main.some((line) => /Z A server-main svc 1\.2\.3$/.test(line)));
  t.true(main.some((line) => /Z A server-main http\.user=\*\*\*\*$/.test(line)));
  t.true(main.some((line) => /Z C unhandled-error unhandled error \[source=uncaughtException\]$/.test(line)));
  t.true(main.includes('TypeError: x is undefined'));
  t.false(main.some((line) => line.includes('logged by the worker itself')), 'worker errors are logged by the worker');
});

test.serial('a worker\'s records travel through the bridge and land in the primary\'s file unchanged', async (t) => {
  const root = makeRootWithLogConf('bridge', TWO_WRITERS);
  // The primary configures first so the worker can be given its routing table, as cluster/ will do at fork.
  await configure(root);
  const routing = getLogRoutingTable();
  t.truthy(routing);
  const primarySink = await captureWorker(routing, () => {
    getLogger('http-server').info('GET /exec 200');
    getLogger('http-server').debug(() => {
      throw new Error('a worker must not build DEBUG messages no writer takes');
    });
    getLogger('http-min-server').error('worker min error');
  });
  t.is(primarySink.length, 2);
  await configure(root);
  for (const message of primarySink) {
    const record = parseLogRecordPayload(JSON.parse(message));
    if (record === undefined) throw new Error(`malformed forwarded record ${message}`);
    writeForwardedRecord(record);
  }
  writeForwardedRecord({ timestampMicros: 1, level: 'D', logger: 'http-server', message: 'filtered by the primary', pid: 1 });
  await shutdownLogging();
  const main = readMain(root);
  const sent = parseLogRecordPayload(JSON.parse(primarySink[0] ?? '{}'));
  const iso = new Date(Math.floor((sent?.timestampMicros ?? 0) / 1000)).toISOString().slice(0, -1);
  t.true(main.some((line) => line.startsWith(iso) && line.endsWith('I http-server GET /exec 200')), 'original timestamp kept');
  t.false(main.some((line) => line.includes('filtered by the primary')));
  t.regex(readFileSync(join(root, 'log', 'min.log'), 'utf8'), /E http-min-server worker min error\n$/);
});

/** Plays a worker in this process: forwards records as IPC would (JSON text), then hands the sink back. */
async function captureWorker(routing: ReturnType<typeof getLogRoutingTable>, body: () => void): Promise<string[]> {
  await shutdownLogging();
  const sent: string[] = [];
  configureWorkerLogging((record: LogRecordPayload) => sent.push(JSON.stringify(record)), routing);
  body();
  return sent;
}
