// log.conf resolution: creation of the default, -Dout paths, SVC_LOG_<KEY> overrides (also for keys absent from the
// file), the debug switch, strict errors naming the key, and the key table agreeing with the shipped conf/log.conf.
import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLogConf, type WriterConf } from '../../../src/log/log-conf.js';
import { bundledLogConfPath } from '../../../src/log/log-conf-file.js';
import { describeLevelMask } from '../../../src/log/levels.js';
import { LOG_GLOBAL_KEYS, LOG_WRITER_FIELDS, logEnvName } from '../../../src/config/log-keys.js';
import { makeRootWithLogConf, makeTempDir } from './log-test-helpers.js';

function writer(writers: readonly WriterConf[], name: string): WriterConf {
  const found = writers.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no writer ${name}`);
  return found;
}

test('a missing conf/log.conf is created from the bundled default, which rolls, bounds and prints', (t) => {
  const root = makeTempDir('create');
  const conf = loadLogConf({ rootDir: root, env: {} });
  const path = join(root, 'conf', 'log.conf');
  t.is(conf.source.origin, 'created');
  t.true(existsSync(path));
  t.is(readFileSync(path, 'utf8'), readFileSync(bundledLogConfPath(), 'utf8'));
  t.deepEqual(conf.writers.map((entry) => `${entry.name}:${entry.kind}`), ['file:rolling', 'stdout:console', 'http.min:console']);
  const file = writer(conf.writers, 'file');
  if (file.kind !== 'rolling') throw new Error('file is a rolling writer');
  t.is(file.rollEvery, 'day');
  t.is(file.rollSizeBytes, 128 * 1024 ** 2);
  t.is(file.lifeDurationMs, 7 * 86_400_000);
  t.is(file.sizeLimitBytes, 1024 ** 3);
  t.is(file.location.pathAt(Date.UTC(2026, 0, 5, 10, 11, 12) * 1000, 0), join(root, 'log', 'stdout-2026-01-05T10-11-12.txt'));
  t.is(describeLevelMask(writer(conf.writers, 'stdout').levelMask), 'I,E,C,A');
  t.is(writer(conf.writers, 'http.min').scope, 'http-min-server');
  t.is(describeLevelMask(writer(conf.writers, 'http.min').levelMask), 'E,C,A');
  // A second start reads the file it created.
  t.is(loadLogConf({ rootDir: root, env: {} }).source.origin, 'conf');
});

test('-Dout / --log-conf names the file; a missing one is an error, not a silent default', (t) => {
  const root = makeTempDir('explicit');
  const path = join(makeTempDir('elsewhere'), 'custom.conf');
  writeFileSync(path, 'writers=only\nw.only.class=io.svc.log.LogConsoleWriter\n');
  const conf = loadLogConf({ rootDir: root, env: {}, logConfPath: path });
  t.is(conf.source.origin, 'explicit');
  t.deepEqual(conf.writers.map((entry) => entry.name), ['only']);
  t.false(existsSync(join(root, 'conf', 'log.conf')));
  t.throws(() => loadLogConf({ rootDir: root, env: {}, logConfPath: join(root, 'nope.conf') }), { message: /does not exist/ });
});

test('SVC_LOG_<KEY> overrides any key, including keys and writers the file does not mention', (t) => {
  const root = makeRootWithLogConf('env', ['writers=stdout', 'w.stdout.class=io.svc.log.LogConsoleWriter', 'w.stdout.level=INFO']);
  const env = {
    SVC_LOG_W_STDOUT_LEVEL: 'ERROR',
    SVC_LOG_WRITERS: 'stdout,roll',
    SVC_LOG_W_ROLL_CLASS: 'io.svc.log.LogRollingFileWriter',
    SVC_LOG_W_ROLL_ROLLSIZE: '2m',
    SVC_LOG_W_ROLL_LOCATION: '${log.dir}/r.log',
    SVC_LOG_LOG_DIR: 'elsewhere',
  };
  const conf = loadLogConf({ rootDir: root, env });
  t.is(describeLevelMask(writer(conf.writers, 'stdout').levelMask), 'E,C,A');
  const roll = writer(conf.writers, 'roll');
  if (roll.kind !== 'rolling') throw new Error('roll is a rolling writer');
  t.is(roll.rollSizeBytes, 2 * 1024 ** 2);
  t.is(conf.logDir, join(root, 'elsewhere'));
  t.is(roll.location.pathAt(0, 0), join(root, 'elsewhere', 'r.log'));
  t.true(conf.envOverrides.includes('SVC_LOG_W_STDOUT_LEVEL=ERROR'));
  t.is(conf.envOverrides.length, Object.keys(env).length);
  t.is(logEnvName('w.http.min.level'), 'SVC_LOG_W_HTTP_MIN_LEVEL');
});

test('SVC_DEBUG=true and the -Debug flag add DEBUG to every writer except the alert writer', (t) => {
  const lines = [
    'writers=stdout,alert',
    'w.stdout.class=io.svc.log.LogConsoleWriter',
    'w.stdout.level=ERROR',
    'w.alert.class=io.svc.log.LogAlertSocketWriter',
    'w.alert.level=CRITICAL',
  ];
  const root = makeRootWithLogConf('debug', lines);
  const plain = loadLogConf({ rootDir: root, env: {} });
  t.false(plain.debug);
  t.is(describeLevelMask(writer(plain.writers, 'stdout').levelMask), 'E,C,A');
  t.is(describeLevelMask(writer(plain.writers, 'alert').levelMask), 'C', 'advisories never become alerts');
  for (const options of [{ env: { SVC_DEBUG: 'true' } }, { env: {}, debug: true }]) {
    const conf = loadLogConf({ rootDir: root, ...options });
    t.true(conf.debug);
    t.is(describeLevelMask(writer(conf.writers, 'stdout').levelMask), 'D,E,C,A');
    t.is(describeLevelMask(writer(conf.writers, 'alert').levelMask), 'C');
  }
  t.false(loadLogConf({ rootDir: root, env: { SVC_DEBUG: 'false' } }).debug);
});

test('configuration mistakes stop the start-up with the key named', (t) => {
  const cases: Array<[string[], RegExp]> = [
    [['writers=x'], /writer x is listed in writers but has no class \[key=w\.x\.class\]/],
    [['writers=x', 'w.x.class=io.svc.log.LogNope'], /Unknown writer class/],
    [['writers=x', 'w.x.class=io.svc.log.LogConsoleWriter', 'w.x.rollSize=1m'], /Unknown property: w\.x\.rollSize/],
    [['writers=x', 'w.x.class=io.svc.log.LogConsoleWriter', 'w.x.level=LOUD'], /Unknown level: LOUD/],
    [['writers=x', 'w.x.class=io.svc.log.LogRollingFileWriter', 'w.x.rollEvery=fortnight'], /Invalid rollEvery/],
    [['writers=x', 'w.x.class=io.svc.log.LogRollingFileWriter', 'w.x.rollSize=lots'], /Invalid size/],
    [['writers=x', 'w.x.class=io.svc.log.LogRollingFileWriter', 'w.x.location=${UNSET_VAR_FOR_TEST}/a'], /Undefined property/],
    [['writers=x,x'], /listed twice/],
    [['writer=stdout'], /Unknown property: writer/],
    [['writers=a', 'w.a.class=io.svc.log.LogAlertSocketWriter', `w.a.alertTargets=${Array.from({ length: 13 }, (_, i) => `h${i}:9093`).join(',')}`], /13 alert targets configured; at most 12/],
    [['writers=a', 'w.a.class=io.svc.log.LogAlertSocketWriter', 'w.a.alertTargets=host:99999'], /Invalid port/],
    [['writers=a', 'w.a.class=io.svc.log.LogAlertSocketWriter', 'w.a.level=ADVISORY'], /needs a level other than/],
  ];
  for (const [lines, message] of cases) {
    const root = makeRootWithLogConf('errors', lines);
    t.throws(() => loadLogConf({ rootDir: root, env: {} }), { message }, lines.join(' | '));
  }
});

test('alert targets: host[:port], [v6]:port, defaults for missing parts, QuestDB class names accepted', (t) => {
  const root = makeRootWithLogConf('targets', [
    'writers=alert',
    'w.alert.class=io.questdb.log.LogAlertSocketWriter',
    'w.alert.alertTargets="am1:9094", am2 ,:9095,[::1]:9096',
    'w.alert.defaultAlertHost=10.0.0.1',
  ]);
  const alert = writer(loadLogConf({ rootDir: root, env: {} }).writers, 'alert');
  if (alert.kind !== 'alert') throw new Error('alert writer expected');
  t.deepEqual(alert.targets.map((target) => target.label), ['am1:9094', 'am2:9093', '10.0.0.1:9095', '[::1]:9096']);
  t.is(alert.reconnectDelayMs, 250);
  t.is(alert.outBufferBytes, 4 * 1024 ** 2);
  t.true(alert.templatePath.endsWith('default-alert-template.json'));
  const empty = makeRootWithLogConf('targets-empty', ['writers=alert', 'w.alert.class=io.svc.log.LogAlertSocketWriter']);
  const single = writer(loadLogConf({ rootDir: empty, env: {} }).writers, 'alert');
  t.deepEqual(single.kind === 'alert' ? single.targets.map((target) => target.label) : [], ['127.0.0.1:9093']);
});

test('the shipped conf/log.conf documents every key of the table, and only those', (t) => {
  const text = readFileSync(bundledLogConfPath(), 'utf8');
  for (const key of LOG_GLOBAL_KEYS) t.regex(text, new RegExp(`^#?${key.name.replace('.', '\\.')}=`, 'm'), key.name);
  for (const field of LOG_WRITER_FIELDS) t.regex(text, new RegExp(`^#?w\\.[a-z.]+\\.${field.field}=`, 'm'), field.field);
  const keys = [...text.matchAll(/^#?([A-Za-z][\w.]*)=/gm)].map((match) => match[1] ?? '');
  for (const key of keys) {
    const known = LOG_GLOBAL_KEYS.some((global) => global.name === key) || LOG_WRITER_FIELDS.some((field) => key.startsWith('w.') && key.endsWith(`.${field.field}`));
    t.true(known, `${key} is in the key table`);
  }
});
