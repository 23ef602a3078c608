// The learned choice between the calling thread and the parallel threads: a new text goes to the threads, which
// warm up over their first runs (not judged); a quick one then tries the calling thread, both ways take turns
// until each has a few judged runs, and the threads win when clearly faster in most pairings of their recent warm
// runs with the calling thread's (by a smaller margin when the split costs little more CPU in all), the other way
// retried now and then; a text that is very short on the calling thread stays there; long runs never leave the
// threads; the memory of texts is bounded.
import test from 'ava';
import { JUDGED_RUNS_MIN, LEARNING_RUNS, LOCAL_PROBE_PARALLEL_MS_MAX, LOCAL_SPLIT_MS_MIN, ParallelChoice, WARMUP_RUNS } from '../../../../src/sql/parallel/parallel-choice.js';
import type { ExecutionWay } from '../../../../src/sql/parallel/parallel-choice.js';

/** Chooses, then records the time the chosen way takes on its `n`th run (0-based); returns the ways taken in order. */
function runTimes(choice: ParallelChoice, text: string, runs: number, msOf: (way: ExecutionWay, n: number) => number): ExecutionWay[] {
  const ways: ExecutionWay[] = [];
  const counts = { local: 0, parallel: 0 };
  for (let k = 0; k < runs; k++) {
    const way = choice.choose(text);
    ways.push(way);
    choice.record(text, way, msOf(way, counts[way]++));
  }
  return ways;
}

/**
 * The ways of the learning phase: the threads' warm-up and one judged run, then the calling thread's likewise,
 * then one judged run of each in turn until both have JUDGED_RUNS_MIN.
 */
const LEARNING: readonly ExecutionWay[] = [
  ...Array.from({ length: WARMUP_RUNS.parallel + 1 }, (): ExecutionWay => 'parallel'),
  ...Array.from({ length: WARMUP_RUNS.local + 1 }, (): ExecutionWay => 'local'),
  ...Array.from({ length: JUDGED_RUNS_MIN - 1 }, (): ExecutionWay[] => ['parallel', 'local']).flat(),
];

test('the learning phase lasts LEARNING_RUNS runs', (t) => {
  t.is(LEARNING.length, LEARNING_RUNS);
});

test('a new text warms up on the threads, then tries the calling thread, and keeps the faster way', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 16, (way) => (way === 'local' ? 5 : 12));
  t.deepEqual(ways.slice(0, LEARNING.length), [...LEARNING]);
  t.true(ways.slice(LEARNING.length, 15).every((way) => way === 'local'));
  // Run 16 (runs % 16 === 15 before it) retries the slower way once.
  t.is(ways[15], 'parallel');
});

test('a text the threads answer faster stays on the threads after the learning runs', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 12, (way) => (way === 'local' ? 40 : 20));
  t.deepEqual(ways, [...LEARNING, ...Array.from({ length: 12 - LEARNING.length }, () => 'parallel')]);
});

test('the threads win only when clearly faster: a near tie runs on the calling thread', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 15, (way) => (way === 'local' ? 10 : 8.5));
  t.deepEqual(ways.slice(0, LEARNING.length), [...LEARNING]);
  t.true(ways.slice(LEARNING.length).every((way) => way === 'local'));
});

test('the threads faster in most of their runs keep the query despite a few slow ones', (t) => {
  const choice = new ParallelChoice();
  // The threads take 6 ms but every third warm run of theirs is held up (a busy core: 30 ms); the calling thread
  // takes 10 ms. Two of three threaded runs are faster, so they win most pairings and keep the query.
  const ways = runTimes(choice, 'q', 40, (way, n) => (way === 'local' ? 10 : n % 3 === 2 ? 30 : 6));
  const settled = ways.slice(LEARNING.length);
  t.true(settled.filter((way) => way === 'parallel').length >= settled.length * 0.8, settled.join(','));
});

test('one lucky run on the threads does not make them the choice: their typical run is judged', (t) => {
  const choice = new ParallelChoice();
  // Warm runs on the threads take 14 ms, save one lucky 4 ms run; the calling thread takes 10 ms.
  const ways = runTimes(choice, 'q', 15, (way, n) => (way === 'local' ? 10 : n === WARMUP_RUNS.parallel ? 4 : 14));
  t.deepEqual(ways.slice(0, LEARNING.length), [...LEARNING]);
  t.true(ways.slice(LEARNING.length).every((way) => way === 'local'));
});

test('a text the calling thread answers within LOCAL_SPLIT_MS_MIN stays there, never retried on the threads', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 40, (way) => (way === 'local' ? LOCAL_SPLIT_MS_MIN / 2 : LOCAL_SPLIT_MS_MIN / 4));
  const learning = WARMUP_RUNS.parallel + 1 + WARMUP_RUNS.local + 1;
  t.deepEqual(ways.slice(0, learning), LEARNING.slice(0, learning));
  t.true(ways.slice(learning).every((way) => way === 'local'));
});

test("the threads' slow first runs (binding plans, compiling kernels) do not count against them", (t) => {
  const choice = new ParallelChoice();
  // Cold threads take 50 ms for their warm-up runs and 6 ms once warm; the calling thread takes 10 ms.
  const ways = runTimes(choice, 'q', 12, (way, n) => (way === 'local' ? 10 : n < WARMUP_RUNS.parallel ? 50 : 6));
  t.deepEqual(ways, [...LEARNING, ...Array.from({ length: 12 - LEARNING.length }, () => 'parallel')]);
});

test('a long run on the threads is never tried on the calling thread', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimes(choice, 'q', 20, () => LOCAL_PROBE_PARALLEL_MS_MAX + 1);
  t.true(ways.every((way) => way === 'parallel'));
});

test('the faster way follows a lasting change in run times, not one slow run', (t) => {
  const choice = new ParallelChoice();
  runTimes(choice, 'q', LEARNING.length, (way) => (way === 'local' ? 5 : 12));
  // One slow run of the calling thread (a busy moment) changes nothing: the threads lose 9 of 12 pairings.
  choice.record('q', 'local', 60);
  t.is(choice.choose('q'), 'local');
  // The calling thread stays slow (e.g. the table grew): once most of its kept runs (4 of 7) are slow, the
  // threads win most pairings.
  const later = runTimes(choice, 'q', 4, (way) => (way === 'local' ? 60 : 12));
  t.deepEqual(later, ['local', 'local', 'local', 'parallel']);
});

test('texts are learned separately and their number is bounded', (t) => {
  const choice = new ParallelChoice();
  runTimes(choice, 'quick', WARMUP_RUNS.parallel + 1, () => 10);
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
  // A warm-up run counts here: it is what the threads took last.
  choice.record('q', 'parallel', 20);
  t.true(choice.isShortOnThreads('q'));
  choice.record('long', 'parallel', LOCAL_PROBE_PARALLEL_MS_MAX + 1);
  t.false(choice.isShortOnThreads('long'));
});

/** runTimes for a scan near the row threshold: the calling thread is tried first. */
function runTimesLocalFirst(choice: ParallelChoice, text: string, runs: number, msOf: (way: ExecutionWay) => number): ExecutionWay[] {
  const ways: ExecutionWay[] = [];
  for (let k = 0; k < runs; k++) {
    const way = choice.choose(text, true);
    ways.push(way);
    choice.record(text, way, msOf(way));
  }
  return ways;
}

test('a scan near the row threshold that the calling thread answers quickly never runs on the threads', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimesLocalFirst(choice, 'q', 40, (way) => (way === 'local' ? LOCAL_SPLIT_MS_MIN / 2 : 1));
  t.true(ways.every((way) => way === 'local'));
});

test('a scan near the row threshold that is slow on the calling thread then learns the threads as usual', (t) => {
  const choice = new ParallelChoice();
  const ways = runTimesLocalFirst(choice, 'q', 14, (way) => (way === 'local' ? 40 : 20));
  const localWarm = Array.from({ length: WARMUP_RUNS.local + 1 }, (): ExecutionWay => 'local');
  const threadsWarm = Array.from({ length: WARMUP_RUNS.parallel + 1 }, (): ExecutionWay => 'parallel');
  t.deepEqual(ways.slice(0, localWarm.length + threadsWarm.length), [...localWarm, ...threadsWarm]);
  t.is(ways.length, 14);
  t.true(ways.slice(LEARNING_RUNS).every((way) => way === 'parallel'));
});

/** runTimes with each run's process CPU too. */
function runTimesWithCpu(choice: ParallelChoice, text: string, runs: number, msOf: (way: ExecutionWay) => { ms: number; cpuMs: number }): ExecutionWay[] {
  const ways: ExecutionWay[] = [];
  for (let k = 0; k < runs; k++) {
    const way = choice.choose(text);
    ways.push(way);
    const { ms, cpuMs } = msOf(way);
    choice.record(text, way, ms, cpuMs);
  }
  return ways;
}

test('a split that costs little more CPU in all wins with a smaller gain; a CPU-hungry one needs the full gain', (t) => {
  // The threads take 0.85 of the calling thread's time: not clearly faster by PARALLEL_GAIN_FACTOR.
  const cheap = runTimesWithCpu(new ParallelChoice(), 'q', 15, (way) => (way === 'local' ? { ms: 10, cpuMs: 10 } : { ms: 8.5, cpuMs: 12 }));
  t.deepEqual(cheap.slice(0, LEARNING.length), [...LEARNING]);
  t.true(cheap.slice(LEARNING.length).every((way) => way === 'parallel'), cheap.join(','));
  const costly = runTimesWithCpu(new ParallelChoice(), 'q', 15, (way) => (way === 'local' ? { ms: 10, cpuMs: 10 } : { ms: 8.5, cpuMs: 16 }));
  t.true(costly.slice(LEARNING.length).every((way) => way === 'local'), costly.join(','));
  // Even a cheap split must be faster by CHEAP_SPLIT_GAIN_FACTOR: a near tie stays on the calling thread.
  const tie = runTimesWithCpu(new ParallelChoice(), 'q', 15, (way) => (way === 'local' ? { ms: 10, cpuMs: 10 } : { ms: 9.5, cpuMs: 10 }));
  t.true(tie.slice(LEARNING.length).every((way) => way === 'local'), tie.join(','));
});
