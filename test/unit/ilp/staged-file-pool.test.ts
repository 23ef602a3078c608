// A process's pool of ILP staged files: a committed request's file is the next request's (its old bytes
// overwritten, not cut), files of another directory are not handed out, the pool keeps at most its bound and
// deletes the rest, every kept file goes after the idle time, and the primary deletes an exited worker's files.
// A manual clock and scheduler stand in for the process's timers.
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StagedFilePool, removeStagedFilesOf, stagedFilePrefix } from '../../../src/ilp/staged-file-pool.js';
import { manualClock } from '../../helpers/manual-clock.js';

const IDLE_MS = 10_000;
const PID = 4242;

function manualPool(filesMax = 2): { pool: StagedFilePool; advance: (ms: number) => void; dir: string } {
  const clock = manualClock();
  const dir = mkdtempSync(join(tmpdir(), 'svc-staged-pool-'));
  return { pool: new StagedFilePool({ filesMax, idleMs: IDLE_MS, nowMs: clock.nowMs, schedule: clock.schedule }, PID), advance: clock.advance, dir };
}

/** Takes a name and writes the file, as a request staging its rows does. */
function staged(pool: StagedFilePool, dir: string): string {
  const path = pool.take(dir);
  writeFileSync(path, 'rows');
  return path;
}

test('a file given back is the next take, and new names carry the process id', (t) => {
  const { pool, dir } = manualPool();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = staged(pool, dir);
  t.true(first.startsWith(join(dir, stagedFilePrefix(PID))));
  const second = staged(pool, dir);
  t.not(second, first, 'a file in a request\'s hands is not handed out again');
  pool.give(first);
  t.is(pool.take(dir), first);
  t.true(existsSync(first));
});

test('a kept file of another directory is not handed out', (t) => {
  const { pool, dir } = manualPool();
  const other = mkdtempSync(join(tmpdir(), 'svc-staged-pool-'));
  t.teardown(() => [dir, other].forEach((path) => rmSync(path, { recursive: true, force: true })));
  pool.give(staged(pool, other));
  t.is(dirname(pool.take(dir)), dir);
  t.is(pool.keptCount, 1);
});

test('past the bound a file given back is deleted', (t) => {
  const { pool, dir } = manualPool(1);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = staged(pool, dir);
  const second = staged(pool, dir);
  pool.give(first);
  pool.give(second);
  t.true(existsSync(first));
  t.false(existsSync(second));
  t.is(pool.keptCount, 1);
});

test('every kept file is deleted after the idle time without a take', (t) => {
  const { pool, advance, dir } = manualPool();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = staged(pool, dir);
  const second = staged(pool, dir);
  pool.give(first);
  pool.give(second);
  advance(IDLE_MS - 1);
  t.is(pool.keptCount, 2);
  advance(1);
  t.is(pool.keptCount, 0);
  t.deepEqual(readdirSync(dir), []);
});

test('an exited process\'s files are deleted and other processes\' stay', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-staged-pool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of [`${stagedFilePrefix(PID)}1.chunks`, `${stagedFilePrefix(PID)}2.chunks`, `${stagedFilePrefix(PID + 1)}1.chunks`, 'segment-x']) writeFileSync(join(dir, name), '');
  removeStagedFilesOf(dir, PID);
  t.deepEqual(readdirSync(dir).sort(), [`${stagedFilePrefix(PID + 1)}1.chunks`, 'segment-x']);
  removeStagedFilesOf(join(dir, 'missing'), PID);
});
