// The learned choice between the calling thread and the parallel threads: a new text goes to the threads, a
// quick one is tried locally twice next, then the faster way wins with the other way retried now and then; long runs
// never leave the threads; the memory of texts is bounded.
import test from 'ava';
import { LOCAL_PROBE_PARALLEL_MS_MAX, ParallelChoice } from '../../../../src/sql/parallel/parallel-choice.js';
import type { ExecutionWay } from '../../../../src/sql/parallel/parallel-choice.js';

/** Chooses, then records the time the chosen way takes; returns the ways taken in order. */
function runTimes(choice: ParallelChoice, text: string, runs: number, msOf: (way: ExecutionWay) => number): ExecutionWay[] {
  const ways: ExecutionWay[] = [];
  for (let k = 0; k < runs; k++) {
    const way = choice.choose(text);
    ways.push(way);
    choice.record(text, way, msOf(way));
  }
  return ways;
}

test('a new text runs on the threads; a quick one then tries the calling thread and keeps the faster way', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 16, (way) => (way === 'local' ? 5 : 12));
  t.deepEqual(ways.slice(0, 3), ['parallel', 'local', 'local']);
  // Run 16 (runs % 16 === 15 before it) retries the slower way once.
  t.is(ways.filter((way) => way === 'parallel').length, 2);
  t.is(ways[15], 'parallel');
});

test('a text the threads answer faster stays on the threads after two local tries', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 10, (way) => (way === 'local' ? 40 : 20));
  t.deepEqual(ways, ['parallel', 'local', 'local', 'parallel', 'parallel', 'parallel', 'parallel', 'parallel', 'parallel', 'parallel']);
});

test("a way's slow first runs (compiling its kernels) do not count against it once it runs faster", (t) => {
  const choice = new ParallelChoice();
  let localRuns = 0;
  const ways = runTimes(choice, 'q', 6, (way) => (way === 'parallel' ? 12 : localRuns++ === 0 ? 100 : 5));
  t.deepEqual(ways, ['parallel', 'local', 'local', 'local', 'local', 'local']);
});

test('a long run on the threads is never tried on the calling thread', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 20, () => LOCAL_PROBE_PARALLEL_MS_MAX + 1);
  t.true(ways.every((way) => way === 'parallel'));
});

test('the faster way follows a change in run times', (t) => {
  const choice = new ParallelChoice();
  t.deepEqual(runTimes(choice, 'q', 4, (way) => (way === 'local' ? 5 : 12)), ['parallel', 'local', 'local', 'local']);
  // The calling thread becomes slow (e.g. the table grew): each slow run raises its kept 5 ms by half, so the
  // threads' 12 ms wins after three of them.
  const later = runTimes(choice, 'q', 6, (way) => (way === 'local' ? 60 : 12));
  t.deepEqual(later, ['local', 'local', 'local', 'parallel', 'parallel', 'parallel']);
});

test('texts are learned separately and their number is bounded', (t) => {
  const choice = new ParallelChoice();
  choice.record('quick', 'parallel', 10);
  t.is(choice.choose('quick'), 'local');
  t.is(choice.choose('other'), 'parallel');
  for (let k = 0; k < 2000; k++) choice.record(`text ${k}`, 'parallel', 10);
  t.is(choice.size, 512);
  // The oldest texts were forgotten: 'quick' is new again.
  t.is(choice.choose('quick'), 'parallel');
});

test('the calling thread may run a share of a text only once it is known to be short on the threads', (t) => {
  const choice = new ParallelChoice();
  t.false(choice.isShortOnThreads('q'));
  choice.record('q', 'local', 3);
  t.false(choice.isShortOnThreads('q'));
  choice.record('q', 'parallel', 20);
  t.true(choice.isShortOnThreads('q'));
  choice.record('long', 'parallel', LOCAL_PROBE_PARALLEL_MS_MAX + 1);
  t.false(choice.isShortOnThreads('long'));
});
