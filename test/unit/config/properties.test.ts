// key=value file reading, default-file creation, and the default < conf < env < cli layering with sources.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/core/errors.js';
import { renderDefaultServerConf } from '../../../src/config/config-docs.js';
import {
  createDefaultServerConf,
  layerServerValues,
  parseProperties,
  readPropertiesFile,
  type LayerInput,
} from '../../../src/config/properties.js';

function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-properties-'));
}

/** Layering input with a conf file given as lines. */
function layerInput(confLines: readonly string[], env: NodeJS.ProcessEnv = {}, cli: Record<string, string> = {}): LayerInput {
  return { conf: parseProperties(confLines.join('\n'), 'server.conf'), env, cli };
}

test('parseProperties: comments, blanks, trimming, = in values, CRLF, duplicates', (t) => {
  const parsed = parseProperties(
    ['# comment', '! also a comment', '', '  http.user =  admin  ', 'http.password=a=b', 'query.timeout=5s\r', 'query.timeout=7s'].join('\n'),
    'server.conf',
  );
  t.deepEqual([...parsed.entries.keys()], ['http.user', 'http.password', 'query.timeout']);
  t.deepEqual(parsed.entries.get('http.user'), { value: 'admin', line: 4 });
  t.is(parsed.entries.get('http.password')?.value, 'a=b', 'only the first = separates');
  t.deepEqual(parsed.entries.get('query.timeout'), { value: '7s', line: 7 }, 'the last duplicate wins');
  t.is(parsed.warnings.length, 1);
  t.regex(parsed.warnings[0] ?? '', /server\.conf:7: query\.timeout is set more than once/);
});

test('parseProperties: a line without = is a ConfigError naming file and line', (t) => {
  const error = t.throws(() => parseProperties('http.enabled=true\nhttp.user admin\n', 'server.conf'), { instanceOf: ConfigError });
  t.regex(error?.message ?? '', /server\.conf:2: expected key=value/);
  t.throws(() => parseProperties('=value\n', 'server.conf'), { instanceOf: ConfigError });
});

test('readPropertiesFile returns null for a missing file', (t) => {
  const dir = makeTempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.is(readPropertiesFile(join(dir, 'absent.conf')), null);
});

test('createDefaultServerConf writes the generated file once and never overwrites', (t) => {
  const dir = makeTempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'nested', 'conf', 'server.conf');
  t.true(createDefaultServerConf(path));
  t.is(readFileSync(path, 'utf8'), renderDefaultServerConf());
  writeFileSync(path, 'http.enabled=false\n');
  t.false(createDefaultServerConf(path));
  t.is(readFileSync(path, 'utf8'), 'http.enabled=false\n');
  t.is(readPropertiesFile(path)?.entries.get('http.enabled')?.value, 'false');
});

test('the generated default file parses to no entries', (t) => {
  t.is(parseProperties(renderDefaultServerConf(), 'server.conf').entries.size, 0);
});

test('layering: default < conf < env < cli, with source and origin', (t) => {
  const layered = layerServerValues(
    layerInput(['query.timeout=5s', 'http.worker.count=2', 'http.enabled=false'], { SVC_QUERY_TIMEOUT: '6s', SVC_HTTP_WORKER_COUNT: '3' }, { 'query.timeout': '7s' }),
  );
  const pick = (name: string) => layered.values.get(name);
  t.like(pick('query.timeout'), { raw: '7s', source: 'cli', where: 'command line' });
  t.like(pick('http.worker.count'), { raw: '3', source: 'env', where: 'env SVC_HTTP_WORKER_COUNT' });
  t.like(pick('http.enabled'), { raw: 'false', source: 'conf', where: 'server.conf:3' });
  t.like(pick('metrics.enabled'), { raw: 'false', source: 'default', where: 'default' });
  t.like(pick('http.user'), { raw: null, source: 'default' });
});

test('layering: an empty env value still overrides (it unsets a key without default)', (t) => {
  const layered = layerServerValues(layerInput(['http.user=admin'], { SVC_HTTP_USER: '' }));
  t.like(layered.values.get('http.user'), { raw: '', source: 'env' });
});

test('layering: unknown conf keys and SVC_ variables are warnings, other services\' variables are not', (t) => {
  const layered = layerServerValues(
    layerInput(['http.enabled=true', 'http.wrker.count=4'], { SVC_HTTP_WORKERS: '2', SVC_LOG_W_STDOUT_LEVEL: 'ERROR', SVC_DEBUG: 'true', PATH: '/bin' }),
  );
  t.deepEqual(layered.unknownConfKeys, ['http.wrker.count']);
  t.true(layered.warnings.some((warning) => warning.includes('server.conf:2: unknown key http.wrker.count')));
  t.true(layered.warnings.some((warning) => warning.includes('SVC_HTTP_WORKERS')));
  t.false(layered.warnings.some((warning) => warning.includes('SVC_LOG_') || warning.includes('SVC_DEBUG') || warning.includes('PATH')));
});

test('layering: an unknown CLI key is fatal', (t) => {
  const error = t.throws(() => layerServerValues(layerInput([], {}, { 'http.wrker.count': '2' })), { instanceOf: ConfigError });
  t.is(error?.key, 'http.wrker.count');
});

test('layering: aliases are accepted; the canonical name wins with a warning', (t) => {
  const aliasOnly = layerServerValues(layerInput(['http.bind.to=127.0.0.1:9100'], { SVC_HTTP_MIN_BIND_TO: ':9103' }));
  t.like(aliasOnly.values.get('http.net.bind.to'), { raw: '127.0.0.1:9100', source: 'conf' });
  t.like(aliasOnly.values.get('http.min.net.bind.to'), { raw: ':9103', source: 'env', where: 'env SVC_HTTP_MIN_BIND_TO' });
  t.deepEqual(aliasOnly.unknownConfKeys, []);

  const both = layerServerValues(layerInput(['http.bind.to=127.0.0.1:9100', 'http.net.bind.to=127.0.0.1:9200']));
  t.like(both.values.get('http.net.bind.to'), { raw: '127.0.0.1:9200' });
  t.true(both.warnings.some((warning) => warning.includes('http.net.bind.to and http.bind.to are both set')));
});
