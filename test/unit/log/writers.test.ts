// io.svc.log.LogFileWriter and io.svc.log.LogConsoleWriter on their own: append vs truncate, buffering until the
// end of the turn, immediate flush of critical records, and shared ordering of writers on one stream.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FileWriter } from '../../../src/log/file-writer.js';
import { ConsoleWriter, type ConsoleStream } from '../../../src/log/console-writer.js';
import { compileLocation } from '../../../src/log/location-template.js';
import { formatRecordLine } from '../../../src/log/layout.js';
import type { LogWriter } from '../../../src/log/log-writer.js';
import type { LogLevelLetter } from '../../../src/log/levels.js';
import { makeRecord, makeTempDir, RECORD_LINE_PATTERN } from './log-test-helpers.js';

function emit(writer: LogWriter, level: LogLevelLetter, message: string): void {
  const record = makeRecord(level, 'test', message);
  writer.write(formatRecordLine(record), record);
}

function fileWriter(root: string, truncate: boolean): FileWriter {
  const location = compileLocation('${log.dir}/svc.log', { key: 'w.f.location', rootDir: root, logDir: join(root, 'log'), env: {} });
  return new FileWriter({ name: 'f', location, truncate, bufferBytesMax: 64 * 1024 });
}

test('LogFileWriter appends across restarts unless truncate=true', async (t) => {
  const root = makeTempDir('file');
  const path = join(root, 'log', 'svc.log');
  const first = fileWriter(root, false);
  emit(first, 'I', 'one');
  await first.close();
  const second = fileWriter(root, false);
  emit(second, 'E', 'two');
  await second.close();
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  t.is(lines.length, 2);
  for (const line of lines) t.regex(line, RECORD_LINE_PATTERN);
  const third = fileWriter(root, true);
  emit(third, 'I', 'three');
  await third.close();
  t.regex(readFileSync(path, 'utf8'), /^\S+ I test three\n$/);
});

test('LogFileWriter buffers until the end of the turn, but writes a critical record at once', async (t) => {
  const root = makeTempDir('file-flush');
  const path = join(root, 'log', 'svc.log');
  const writer = fileWriter(root, false);
  emit(writer, 'I', 'buffered');
  t.is(readFileSync(path, 'utf8'), '');
  emit(writer, 'C', 'critical');
  t.regex(readFileSync(path, 'utf8'), /buffered\n.*critical\n$/);
  emit(writer, 'I', 'later');
  await nextTurn();
  t.regex(readFileSync(path, 'utf8'), /later\n$/);
  await writer.close();
});

test('LogConsoleWriter writes whole lines once per turn; writers on one stream keep their order', async (t) => {
  const chunks: string[] = [];
  const stream: ConsoleStream = { write: (chunk: string) => chunks.push(chunk) };
  const stdout = new ConsoleWriter({ name: 'stdout', bufferBytesMax: 64 * 1024, stream });
  const min = new ConsoleWriter({ name: 'http.min', bufferBytesMax: 64 * 1024, stream });
  emit(stdout, 'I', 'first');
  emit(min, 'E', 'second');
  emit(stdout, 'I', 'third');
  t.is(chunks.length, 0);
  await nextTurn();
  t.is(chunks.length, 1);
  const lines = (chunks[0] ?? '').trimEnd().split('\n');
  t.deepEqual(lines.map((line) => line.split(' ').pop()), ['first', 'second', 'third']);
  emit(min, 'C', 'urgent');
  t.is(chunks.length, 2, 'critical records are not held back');
  await stdout.close();
  await min.close();
});
