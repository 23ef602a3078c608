// The record line format, the microsecond clock, error text, level sets and QuestDB date patterns.
import test from 'ava';
import { appendErrorText, formatIsoMicros, formatRecordLine, truncateMessage } from '../../../src/log/layout.js';
import { nowMicros, parseLogRecordPayload } from '../../../src/log/log-record.js';
import { describeLevelMask, parseLevelList } from '../../../src/log/levels.js';
import { compileDatePattern } from '../../../src/log/date-pattern.js';
import { SvcError } from '../../../src/core/errors.js';
import { makeRecord, RECORD_LINE_PATTERN } from './log-test-helpers.js';

test('a record line is <ISO UTC µs>Z <letter> <logger> <message>', (t) => {
  const line = formatRecordLine(makeRecord('I', 'server-main', 'listening on 0.0.0.0:9000', 1_767_607_872_123_456));
  t.is(line, '2026-01-05T10:11:12.123456Z I server-main listening on 0.0.0.0:9000');
  t.regex(line, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z [ACEID] \S+ .*$/);
});

test('microseconds are zero-padded and every letter is printed as given', (t) => {
  t.is(formatIsoMicros(1_000_007), '1970-01-01T00:00:01.000007Z');
  for (const level of ['A', 'C', 'E', 'I', 'D'] as const) {
    t.regex(formatRecordLine(makeRecord(level, 'x', 'm')), new RegExp(`^\\S+Z ${level} x m$`));
  }
});

test('the clock follows the wall clock, never goes backwards, and has real microsecond digits', (t) => {
  const samples: number[] = [];
  for (let index = 0; index < 2000; index++) samples.push(nowMicros());
  for (let index = 1; index < samples.length; index++) t.true((samples[index] ?? 0) >= (samples[index - 1] ?? 0));
  t.true(Math.abs((samples[0] ?? 0) / 1000 - Date.now()) < 1000);
  // Padded milliseconds would end every sample in 000.
  t.true(samples.some((micros) => micros % 1000 !== 0));
});

test('multi-line messages keep their following lines; errors add stack, code and causes', (t) => {
  const error = new SvcError('SVC_STORAGE', 'disk full', 500);
  const text = appendErrorText('commit failed', new Error('outer', { cause: error }));
  const lines = text.split('\n');
  t.is(lines[0], 'commit failed');
  t.is(lines[1], 'Error: outer');
  t.true(lines.some((line) => line.startsWith('Caused by: SvcError: disk full [code=SVC_STORAGE]')));
  t.true(lines.some((line) => line.trimStart().startsWith('at ')));
  const record = formatRecordLine(makeRecord('C', 'engine', text));
  t.regex(record, RECORD_LINE_PATTERN);
  t.true(record.includes('\nError: outer'));
  t.is(appendErrorText('', 'a string'), 'a string');
});

test('long messages are cut and marked', (t) => {
  t.is(truncateMessage('short', 100), 'short');
  const cut = truncateMessage('x'.repeat(1000), 300);
  t.is(cut.length, 300);
  t.true(cut.endsWith('…[truncated]'));
});

test('level lists follow QuestDB: every level above the highest listed one is on', (t) => {
  t.is(describeLevelMask(parseLevelList('INFO', 'k')), 'I,E,C,A');
  t.is(describeLevelMask(parseLevelList('info,error', 'k')), 'I,E,C,A');
  t.is(describeLevelMask(parseLevelList('ERROR', 'k')), 'E,C,A');
  t.is(describeLevelMask(parseLevelList('CRITICAL', 'k')), 'C,A');
  t.is(describeLevelMask(parseLevelList('DEBUG,ERROR', 'k')), 'D,E,C,A');
  // Deliberate difference from QuestDB's quirk (DEBUG alone = DEBUG only).
  t.is(describeLevelMask(parseLevelList('DEBUG', 'k')), 'D,I,E,C,A');
  const error = t.throws(() => parseLevelList('INFO,LOUD', 'w.file.level'));
  t.regex(error?.message ?? '', /Unknown level: LOUD.*\[key=w\.file\.level\]/);
  t.throws(() => parseLevelList(' , ', 'w.file.level'));
});

test('date patterns use QuestDB letters in UTC; T, - and other characters are literal', (t) => {
  const micros = Date.UTC(2024, 0, 15, 9, 5, 3, 42) * 1000 + 7;
  const format = (pattern: string): string => compileDatePattern(pattern)?.(micros) ?? 'none';
  t.is(format('yyyyMMdd'), '20240115');
  t.is(format('yyyy-MM-ddTHH-mm-ss'), '2024-01-15T09-05-03');
  t.is(format('yyyy/MM/ddTHH:mm:ss.SSS'), '2024/01/15T09:05:03.042');
  t.is(format('yy.M.d H:m:s.SSSUUU'), '24.1.15 9:5:3.042007');
  t.is(format("'at' HH'h'"), 'at 09h');
  t.is(compileDatePattern(''), undefined);
});

test('records from IPC are narrowed; malformed ones are refused', (t) => {
  const record = makeRecord('E', 'worker', 'boom');
  t.deepEqual(parseLogRecordPayload(JSON.parse(JSON.stringify(record))), record);
  t.is(parseLogRecordPayload({ ...record, level: 'X' }), undefined);
  t.is(parseLogRecordPayload({ ...record, timestampMicros: '1' }), undefined);
  t.is(parseLogRecordPayload(null), undefined);
  t.is(parseLogRecordPayload({ ...record, message: 3 }), undefined);
});
