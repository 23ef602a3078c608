// loadServerConfig end to end over a temporary root: defaults, file creation, precedence, validation, masking.
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/core/errors.js';
import { SERVER_KEYS } from '../../../src/config/keys.js';
import { loadServerConfig, type LoadServerConfigOptions, type ServerConfig } from '../../../src/config/server-config.js';

/** A temporary root directory, optionally with conf/server.conf holding the given lines; removed after the test. */
function makeRoot(t: { teardown(fn: () => void): void }, confLines?: readonly string[]): string {
  const rootDir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  t.teardown(() => rmSync(rootDir, { recursive: true, force: true }));
  if (confLines !== undefined) {
    mkdirSync(join(rootDir, 'conf'));
    writeFileSync(join(rootDir, 'conf', 'server.conf'), confLines.join('\n') + '\n');
  }
  return rootDir;
}

function load(rootDir: string, extra: Partial<LoadServerConfigOptions> = {}): ServerConfig {
  return loadServerConfig({ rootDir, env: {}, cpuCount: 4, ...extra });
}

test('defaults: a fresh root gets the default server.conf and the documented values', (t) => {
  const rootDir = makeRoot(t);
  const config = load(rootDir);
  t.true(config.confFileCreated);
  t.true(existsSync(join(rootDir, 'conf', 'server.conf')));
  t.like(config, {
    httpEnabled: true, httpBindHost: '0.0.0.0', httpBindPort: 9000, httpWorkerCount: 4,
    httpMinEnabled: true, httpMinBindHost: '0.0.0.0', httpMinBindPort: 9003, httpMinWorkerCount: 1,
    httpUser: null, httpPassword: null, httpAuthEnabled: false, httpReadOnly: false, httpResponseRowsMax: null,
    httpRequestHeaderBytesMax: 65_536, queryTextLengthMax: 1_048_576, httpRequestBodyBytesMax: 1_048_576,
    httpConcurrentRequestsMax: 256, httpKeepAliveTimeoutMs: 5000, httpConnectionTimeoutMs: 300_000,
    httpExportTimeoutMs: 300_000, importAnalysisLinesMax: 1000, queryTimeoutMs: 60_000,
    metricsEnabled: false, pessimisticHealthCheckEnabled: false, commitMode: 'nosync',
    uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000, queryMemoryBytesMax: 4 * 1024 ** 3,
    walSegmentBytesMax: 64 * 1024 ** 2, shutdownDrainTimeoutMs: 10_000, configValidationStrict: false,
  });
  t.deepEqual(config.warnings, []);
  t.false(load(rootDir).confFileCreated, 'the second load finds the file');
});

test('createMissing=false leaves the root untouched and uses defaults', (t) => {
  const rootDir = makeRoot(t);
  const config = load(rootDir, { createMissing: false });
  t.false(config.confFileCreated);
  t.false(existsSync(join(rootDir, 'conf')));
  t.is(config.queryTimeoutMs, 60_000);
});

test('precedence: default < conf < env < cli, reported by entries()', (t) => {
  const rootDir = makeRoot(t, ['query.timeout=5s', 'http.net.bind.to=127.0.0.1:9100', 'cairo.commit.mode=async']);
  const config = load(rootDir, {
    env: { SVC_QUERY_TIMEOUT: '6s', SVC_CAIRO_COMMIT_MODE: 'SYNC', SVC_HTTP_KEEP_ALIVE_TIMEOUT: '0' },
    cliOverrides: { 'query.timeout': '7s' },
  });
  t.is(config.queryTimeoutMs, 7000);
  t.is(config.commitMode, 'sync');
  t.is(config.httpBindHost, '127.0.0.1');
  t.is(config.httpBindPort, 9100);
  t.is(config.httpKeepAliveTimeoutMs, 0);
  const sources = new Map(config.entries().map((entry) => [entry.key, entry.source]));
  t.is(sources.get('query.timeout'), 'cli');
  t.is(sources.get('cairo.commit.mode'), 'env');
  t.is(sources.get('http.net.bind.to'), 'conf');
  t.is(sources.get('metrics.enabled'), 'default');
});

test('entries() lists every key once with its env name, as configured', (t) => {
  const config = load(makeRoot(t, ['cairo.sql.max.memory=2g']));
  const entries = config.entries();
  t.deepEqual(entries.map((entry) => entry.key), SERVER_KEYS.map((key) => key.name));
  t.like(entries.find((entry) => entry.key === 'cairo.sql.max.memory'), { value: '2g', envName: 'SVC_CAIRO_SQL_MAX_MEMORY', source: 'conf' });
  t.like(entries.find((entry) => entry.key === 'http.user'), { value: '', source: 'default' });
});

test('sensitive values are masked in entries() but available to the server', (t) => {
  const config = load(makeRoot(t, ['http.user=admin', 'http.password=s3cret']));
  t.is(config.httpUser, 'admin');
  t.is(config.httpPassword, 's3cret');
  t.true(config.httpAuthEnabled);
  t.is(config.entries().find((entry) => entry.key === 'http.password')?.value, '****');
  t.is(config.entries().find((entry) => entry.key === 'http.user')?.value, 'admin');
  t.false(JSON.stringify(config.entries()).includes('s3cret'));
});

test('http.user without http.password (or the reverse) stops start-up', (t) => {
  const userOnly = t.throws(() => load(makeRoot(t, ['http.user=admin'])), { instanceOf: ConfigError });
  t.is(userOnly?.key, 'http.password');
  const passwordOnly = t.throws(() => load(makeRoot(t), { env: { SVC_HTTP_PASSWORD: 'x' } }), { instanceOf: ConfigError });
  t.is(passwordOnly?.key, 'http.user');
});

const MALFORMED: ReadonlyArray<readonly [key: string, value: string, fragment: string]> = [
  ['http.worker.count', 'many', 'expected an integer'],
  ['http.worker.count', '-2', 'at least -1'],
  ['http.enabled', 'yes', 'expected true or false'],
  ['query.timeout', '10 minutes', 'expected a duration'],
  ['query.timeout', '0', 'at least 1ms'],
  ['http.request.body.limit', 'lots', 'expected a size'],
  ['cairo.commit.mode', 'fsync', 'expected one of nosync, async, sync'],
  ['http.net.bind.to', '0.0.0.0:70000', 'out of range'],
  ['http.min.net.bind.to', 'localhost', 'expected host:port'],
  ['metrics.enabled', '', 'empty value'],
];

for (const [key, value, fragment] of MALFORMED) {
  test(`malformed ${key}=${value} is a ConfigError naming the key, value and file line`, (t) => {
    const error = t.throws(() => load(makeRoot(t, ['# comment', `${key}=${value}`])), { instanceOf: ConfigError });
    t.is(error?.key, key);
    t.true(error?.message.includes(`'${value}'`), error?.message);
    t.true(error?.message.includes('server.conf:2'), error?.message);
    t.true(error?.message.includes(fragment), error?.message);
  });
}

test('a malformed env value names the variable', (t) => {
  const error = t.throws(() => load(makeRoot(t), { env: { SVC_HTTP_KEEP_ALIVE_TIMEOUT: 'soon' } }), { instanceOf: ConfigError });
  t.is(error?.key, 'http.keep-alive.timeout');
  t.true(error?.message.includes('env SVC_HTTP_KEEP_ALIVE_TIMEOUT'));
});

test('a malformed value loses to a valid override from a higher source', (t) => {
  t.is(load(makeRoot(t, ['query.timeout=bad']), { env: { SVC_QUERY_TIMEOUT: '2s' } }).queryTimeoutMs, 2000);
});

test('http.worker.count: -1 resolves to the CPU count, 0 is single-process, n is n', (t) => {
  t.is(load(makeRoot(t), { cpuCount: 12 }).httpWorkerCount, 12);
  t.is(load(makeRoot(t, ['http.worker.count=0'])).httpWorkerCount, 0);
  t.is(load(makeRoot(t, ['http.worker.count=3'])).httpWorkerCount, 3);
});

test('unknown keys warn by default and stop start-up under config.validation.strict', (t) => {
  const relaxed = load(makeRoot(t, ['htpp.enabled=false']));
  t.true(relaxed.warnings.some((warning) => warning.includes('unknown key htpp.enabled')));
  const error = t.throws(() => load(makeRoot(t, ['htpp.enabled=false']), { env: { SVC_CONFIG_VALIDATION_STRICT: 'true' } }), {
    instanceOf: ConfigError,
  });
  t.is(error?.key, 'htpp.enabled');
});

test('the config object is frozen', (t) => {
  const config = load(makeRoot(t));
  t.true(Object.isFrozen(config));
  t.true(Object.isFrozen(config.warnings));
  t.throws(() => {
    (config as { queryTimeoutMs: number }).queryTimeoutMs = 1;
  }, { instanceOf: TypeError });
});
