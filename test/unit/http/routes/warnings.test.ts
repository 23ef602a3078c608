// The /warnings checks over given readings: QuestDB's thresholds and texts for the open-file limit and
// vm.max_map_count, svc's disk-space rule, nothing for what the platform does not report, and the cache period.
import test from 'ava';
import { SystemWarningsCache, warningsJson, warningsOf, type SystemReadings } from '../../../../src/http/routes/warnings.js';
import { systemWarningsCacheMs } from '../../../../src/core/limits.js';

const GiB = 1024 ** 3;
const healthy: SystemReadings = { openFilesLimit: 1_048_576, mapCountLimit: 1_048_576, disk: { freeBytes: 500 * GiB, totalBytes: 1000 * GiB } };

test('a healthy host has no warnings and answers []', (t) => {
  t.deepEqual(warningsOf(healthy), []);
  t.is(warningsJson(warningsOf(healthy)), '[]');
  t.deepEqual(warningsOf({ openFilesLimit: Infinity, mapCountLimit: undefined, disk: undefined }), []);
});

test('low limits give QuestDB tags and texts, open files first', (t) => {
  const body = warningsJson(warningsOf({ ...healthy, openFilesLimit: 1024, mapCountLimit: 65530 }));
  t.is(body, '[{"tag":"TOO MANY OPEN FILES","warning":"fs.file-max limit is too low [current=1024, recommended=1048576]"},'
    + '{"tag":"OUT OF MMAP AREAS","warning":"vm.max_map_count limit is too low [current=65530, recommended=1048576]"}]');
});

test('a zero limit means unknown, as QuestDB reads it on other platforms', (t) => {
  t.deepEqual(warningsOf({ ...healthy, openFilesLimit: 0, mapCountLimit: 0 }), []);
});

test('the disk warns below 1 GiB free or below 5% of its size, whichever asks for more', (t) => {
  const small = { freeBytes: GiB - 1, totalBytes: 10 * GiB };
  t.deepEqual(warningsOf({ ...healthy, disk: small }), [
    { tag: 'DISK FULL', warning: `database disk is nearly full [free=${GiB - 1}, total=${10 * GiB}, recommended=${GiB}]` },
  ]);
  t.deepEqual(warningsOf({ ...healthy, disk: { freeBytes: GiB, totalBytes: 10 * GiB } }), []);
  const large = { freeBytes: 49 * GiB, totalBytes: 1000 * GiB };
  t.is(warningsOf({ ...healthy, disk: large })[0]?.warning, `database disk is nearly full [free=${49 * GiB}, total=${1000 * GiB}, recommended=${50 * GiB}]`);
  t.deepEqual(warningsOf({ ...healthy, disk: { freeBytes: 50 * GiB, totalBytes: 1000 * GiB } }), []);
});

test('readings are reused for the cache period, then read again', (t) => {
  let now = 1_000_000;
  let reads = 0;
  let readings: SystemReadings = healthy;
  const cache = new SystemWarningsCache(() => { reads++; return readings; }, () => now);
  t.is(cache.current(), '[]');
  readings = { ...healthy, mapCountLimit: 65530 };
  now += systemWarningsCacheMs - 1;
  t.is(cache.current(), '[]');
  t.is(reads, 1);
  now += 1;
  t.regex(cache.current(), /OUT OF MMAP AREAS/);
  t.is(reads, 2);
});
