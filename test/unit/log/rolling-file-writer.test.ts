// io.svc.log.LogRollingFileWriter with an injected clock: rolling by minute and by size, collision counters that
// never touch old files, ${log.dir} / ${date:} / ${ENV} locations, and retention (age, then oldest-first size).
import test from 'ava';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RollingFileWriter, type RollingFileWriterOptions } from '../../../src/log/rolling-file-writer.js';
import { compileLocation, type LocationTemplate } from '../../../src/log/location-template.js';
import { formatRecordLine } from '../../../src/log/layout.js';
import { makeRecord, makeTempDir } from './log-test-helpers.js';

const DEFAULT_LOCATION = '${log.dir}/stdout-${date:yyyy-MM-ddTHH-mm-ss}.txt';

function location(root: string, text = DEFAULT_LOCATION, env: NodeJS.ProcessEnv = {}): LocationTemplate {
  return compileLocation(text, { key: 'w.file.location', rootDir: root, logDir: join(root, 'log'), env });
}

function makeWriter(root: string, clock: { now: number }, overrides: Partial<RollingFileWriterOptions> = {}): RollingFileWriter {
  return new RollingFileWriter({
    name: 'file', location: location(root), rollEvery: undefined, rollSizeBytes: 0, lifeDurationMs: 0, sizeLimitBytes: 0,
    bufferBytesMax: 64 * 1024, nowMillis: () => clock.now, ...overrides,
  });
}

function writeLine(writer: RollingFileWriter, message: string, clock: { now: number }): void {
  const record = makeRecord('I', 'test', message, clock.now * 1000);
  writer.write(formatRecordLine(record), record);
}

function logFiles(root: string): string[] {
  return readdirSync(join(root, 'log')).sort();
}

test('${log.dir}, ${date:…} and ${ENV} expand; an undefined variable is a start-up error', (t) => {
  const root = makeTempDir('location');
  const micros = Date.UTC(2026, 0, 5, 10, 11, 12) * 1000;
  t.is(location(root).pathAt(micros, 0), join(root, 'log', 'stdout-2026-01-05T10-11-12.txt'));
  t.is(location(root).pathAt(micros, 2), join(root, 'log', 'stdout-2026-01-05T10-11-12.2.txt'));
  const rolling = location(root, '${log.dir}/${HOST_TAG}/svc-rolling.log.${date:yyyyMMdd}', { HOST_TAG: 'node7' });
  t.is(rolling.pathAt(micros, 0), join(root, 'log', 'node7', 'svc-rolling.log.20260105'));
  t.is(rolling.pathAt(micros, 1), join(root, 'log', 'node7', 'svc-rolling.log.20260105.1'));
  t.is(location(root, '/var/tmp/x.log').pathAt(micros, 0), '/var/tmp/x.log');
  t.is(location(root, 'logs/x.log').pathAt(micros, 0), join(root, 'logs', 'x.log'));
  const error = t.throws(() => location(root, '${log.dir}/${NOPE_NOT_SET}.log'));
  t.regex(error?.message ?? '', /Undefined property: NOPE_NOT_SET/);
  t.throws(() => location(root, '${log.dir/x.log'), { message: /Missing '}'/ });
  t.regex('stdout-2026-01-05T10-11-12.3.txt', location(root).familyPattern);
  t.notRegex('other.txt', location(root).familyPattern);
});

test('rollEvery=minute starts a new file at the next UTC minute, named by its opening time', async (t) => {
  const root = makeTempDir('minute');
  const clock = { now: Date.UTC(2026, 0, 5, 10, 11, 50, 250) };
  const writer = makeWriter(root, clock, { rollEvery: 'minute' });
  writeLine(writer, 'first minute a', clock);
  clock.now += 9_000;
  writeLine(writer, 'first minute b', clock);
  clock.now = Date.UTC(2026, 0, 5, 10, 12, 0, 1);
  writeLine(writer, 'second minute', clock);
  clock.now = Date.UTC(2026, 0, 5, 10, 14, 30);
  writeLine(writer, 'third file', clock);
  await writer.close();
  t.deepEqual(logFiles(root), ['stdout-2026-01-05T10-11-50.txt', 'stdout-2026-01-05T10-12-00.txt', 'stdout-2026-01-05T10-14-30.txt']);
  const first = readFileSync(join(root, 'log', 'stdout-2026-01-05T10-11-50.txt'), 'utf8');
  t.regex(first, /^2026-01-05T10:11:50\.250000Z I test first minute a\n.*first minute b\n$/);
  t.regex(readFileSync(join(root, 'log', 'stdout-2026-01-05T10-12-00.txt'), 'utf8'), /second minute\n$/);
});

test('rollSize starts a new file before the current one would pass it; no line is lost', async (t) => {
  const root = makeTempDir('size');
  const clock = { now: Date.UTC(2026, 0, 5, 10, 11, 12) };
  const writer = makeWriter(root, clock, { rollSizeBytes: 1024, bufferBytesMax: 300 });
  for (let index = 0; index < 40; index++) writeLine(writer, `line ${String(index).padStart(2, '0')} ${'x'.repeat(40)}`, clock);
  await writer.close();
  const files = logFiles(root);
  t.true(files.length >= 3);
  t.true(files.includes('stdout-2026-01-05T10-11-12.txt'));
  t.true(files.every((name) => /^stdout-2026-01-05T10-11-12(\.\d+)?\.txt$/.test(name)));
  let lines: string[] = [];
  for (const name of files) {
    const text = readFileSync(join(root, 'log', name), 'utf8');
    t.true(Buffer.byteLength(text) <= 1024, `${name} is within rollSize`);
    lines = lines.concat(text.trimEnd().split('\n'));
  }
  t.is(lines.length, 40);
});

test('a restart never appends to or overwrites an existing file of the same name', async (t) => {
  const root = makeTempDir('collision');
  const clock = { now: Date.UTC(2026, 0, 5, 10, 11, 12) };
  const first = makeWriter(root, clock);
  writeLine(first, 'from the first run', clock);
  await first.close();
  const second = makeWriter(root, clock);
  writeLine(second, 'from the second run', clock);
  await second.close();
  t.deepEqual(logFiles(root), ['stdout-2026-01-05T10-11-12.1.txt', 'stdout-2026-01-05T10-11-12.txt']);
  t.regex(readFileSync(join(root, 'log', 'stdout-2026-01-05T10-11-12.txt'), 'utf8'), /first run\n$/);
  t.regex(readFileSync(join(root, 'log', 'stdout-2026-01-05T10-11-12.1.txt'), 'utf8'), /second run\n$/);
});

test('retention deletes files past lifeDuration, then the oldest until sizeLimit holds, and only its own files', async (t) => {
  const root = makeTempDir('retention');
  const logDir = join(root, 'log');
  const nowMillis = Date.now();
  const makeOld = (name: string, ageHours: number, bytes: number): void => {
    writeFileSync(join(logDir, name), 'x'.repeat(bytes));
    const seconds = (nowMillis - ageHours * 3_600_000) / 1000;
    utimesSync(join(logDir, name), seconds, seconds);
  };
  new RollingFileWriter({ name: 'setup', location: location(root, '${log.dir}/setup.txt'), rollEvery: undefined, rollSizeBytes: 0, lifeDurationMs: 0, sizeLimitBytes: 0, bufferBytesMax: 1024 }).close();
  makeOld('stdout-2026-01-01T00-00-00.txt', 24 * 10, 100); // past lifeDuration
  makeOld('stdout-2026-01-02T00-00-00.txt', 24 * 3, 400); // oldest within lifeDuration
  makeOld('stdout-2026-01-03T00-00-00.txt', 24 * 2, 400);
  makeOld('stdout-2026-01-04T00-00-00.1.txt', 24, 400);
  makeOld('unrelated.txt', 24 * 30, 5000);
  const clock = { now: nowMillis };
  const writer = makeWriter(root, clock, { lifeDurationMs: 7 * 86_400_000, sizeLimitBytes: 1000 });
  await writer.close();
  const files = logFiles(root);
  t.false(files.includes('stdout-2026-01-01T00-00-00.txt'), 'too old');
  t.false(files.includes('stdout-2026-01-02T00-00-00.txt'), 'oldest goes first for the size limit');
  t.true(files.includes('stdout-2026-01-03T00-00-00.txt'));
  t.true(files.includes('stdout-2026-01-04T00-00-00.1.txt'));
  t.true(files.includes('unrelated.txt'), 'files the location cannot produce are never deleted');
  t.true(existsSync(writer.currentPath));
});

test('reopen continues at the same path after the file was moved away (logrotate)', async (t) => {
  const root = makeTempDir('reopen');
  const clock = { now: Date.UTC(2026, 0, 5, 10, 11, 12) };
  const writer = makeWriter(root, clock);
  writeLine(writer, 'before rotation', clock);
  writer.flushSync();
  const path = writer.currentPath;
  const { renameSync } = await import('node:fs');
  renameSync(path, `${path}.rotated`);
  writer.reopen();
  writeLine(writer, 'after rotation', clock);
  await writer.close();
  t.regex(readFileSync(path, 'utf8'), /^\S+ I test after rotation\n$/);
  t.regex(readFileSync(`${path}.rotated`, 'utf8'), /before rotation\n$/);
});
