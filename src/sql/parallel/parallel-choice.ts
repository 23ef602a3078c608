// Which way a large query runs, learned from how long its text took each way on this process. The row estimate
// (query.parallel.min.rows) cannot see what a run really costs: kernels answer repeated scans of immutable
// mapped ranges from cached facts, and on a machine whose cores are busy the threads add hand-off and a second
// JIT without adding a free core. So a query that the estimate sends to the threads runs there first (a scan
// near the threshold runs on the calling thread first, and stays there if it is short), and a way is judged only
// once it is warm: its first runs compile and tier up its kernels (on every thread, each with
// its own JIT) and bind its fragment plans, so they say nothing of its steady cost and are not counted. Both
// ways then take turns until each has a few judged runs, and from then on the query runs the way whose median
// recent run was faster (the threads only when clearly faster, as they spend more CPU in all, or when measured to
// spend about as much), trying the other way again now and then so a changed table or machine load is noticed. The threads win when they are faster in
// most pairings of one of their recent warm runs with one of the calling thread's: every kept run counts, so one
// slow or lucky run on either side moves the verdict by a single pairing, where a median of three noisy runs
// moved with it (on a busy machine that median settled queries on the calling thread that the threads answered
// faster in most runs). Not a best run either: the threads' times spread wider (a hop, two schedulings), and the
// way run more often would collect more chances of luck.
// Long runs stay on the threads: there the hand-off is small beside the run, and the event loop stays free.
import { assert } from '../../core/assert.js';

export type ExecutionWay = 'local' | 'parallel';

/** Runs on the threads that took longer than this never try the calling thread: the hand-off (5-10 ms) is a
 * small part of them, and the event loop stays free. */
export const LOCAL_PROBE_PARALLEL_MS_MAX = 500;
/**
 * A way's first runs of a text that are not judged: the threads bind a fragment plan per slice and compile and
 * tier up their own copies of the kernels over their first runs; the calling thread's plan is bound already.
 */
export const WARMUP_RUNS: Readonly<Record<ExecutionWay, number>> = { parallel: 3, local: 1 };
/** Judged runs each way takes before the choice settles (the ways alternate until then). */
export const JUDGED_RUNS_MIN = 3;
/** Runs of a new text until its choice has settled: every warm-up run, then the judged runs of both ways. */
export const LEARNING_RUNS = WARMUP_RUNS.parallel + WARMUP_RUNS.local + 2 * JUDGED_RUNS_MIN;
/**
 * A text whose median run on the calling thread is this short stays there, not even retried on the threads:
 * two threads can at best halve it, and the hop, the merge and the threads' own scheduling add to the half. With
 * the calling thread running a share, a split of a run of L ms takes about L / 2 + 0.6 ms at best on the 2-core
 * host (the SQL bench's sum over 10M doubles, timed from the choice to the last byte: 4.1 ms alone; split, 2.6 ms
 * at the first quartile, 3.2 ms median), which beats L by PARALLEL_GAIN_FACTOR from L = 2 ms on, and at the
 * median overhead from L = 4 ms on. Runs between are judged by their times, not turned away unseen: at 5 ms, the
 * former bound, that sum never tried the split, which in undisturbed runs takes 2.2-2.7 ms against 3.6-3.9 ms.
 */
export const LOCAL_SPLIT_MS_MIN = 3;
/** Warm runs kept per way, which the verdict pairs with each other (7 x 7 pairings at most). */
const RECENT_RUNS_KEPT = 7;
/**
 * The threads win only below this share of the calling thread's time: a split spends more CPU in all (a second
 * JIT per thread, the hand-off, the merge), which a server whose cores also serve other connections pays for.
 */
const PARALLEL_GAIN_FACTOR = 0.8;
/**
 * A split whose process CPU in all (median of its kept runs, every thread counted) is at most this factor of the
 * calling thread's alone costs the server little more than running there, and needs only CHEAP_SPLIT_GAIN_FACTOR.
 * A scan bound by memory bandwidth, such as a sum over one DOUBLE column, is such a split: each half costs about
 * half the CPU and the hop adds a fraction of a millisecond (1.1-1.2 times the CPU, measured on the 2-core host),
 * and its 20-35% gain in time sat at PARALLEL_GAIN_FACTOR, so the stricter verdict flipped with the noise of the day.
 */
const CHEAP_SPLIT_CPU_FACTOR_MAX = 1.3;
const CHEAP_SPLIT_GAIN_FACTOR = 0.9;
/** Every this many runs of a text, the way not chosen is tried again. */
const RETRY_OTHER_WAY_EVERY_RUNS = 16;
/** Texts remembered per process; the least recently run is forgotten first. */
const TEXTS_REMEMBERED_MAX = 512;

interface WayRuns {
  /** Every run of this way, warm-up runs included. */
  count: number;
  /** Times of the latest warm runs, oldest first, at most RECENT_RUNS_KEPT. */
  readonly recentMs: number[];
  /** Process CPU (all threads) of the latest warm runs whose CPU was measured, oldest first, at most RECENT_RUNS_KEPT. */
  readonly recentCpuMs: number[];
  /** The latest run's time, warm-up runs included; undefined before the first run. */
  lastMs: number | undefined;
}

interface TextRuns {
  readonly local: WayRuns;
  readonly parallel: WayRuns;
}

export class ParallelChoice {
  private readonly byText = new Map<string, TextRuns>();

  /**
   * The way to run a query the row estimate finds large enough for the threads. `localFirst`: the scan is near
   * that estimate's threshold, so the calling thread is tried before the threads: a query it answers within
   * LOCAL_SPLIT_MS_MIN then never hops at all.
   */
  choose(text: string, localFirst = false): ExecutionWay {
    const runs = this.byText.get(text);
    if (runs === undefined) return localFirst ? 'local' : 'parallel';
    if (localFirst && runs.local.recentMs.length === 0) return 'local';
    if (runs.local.recentMs.length > 0 && medianMs(runs.local) < LOCAL_SPLIT_MS_MIN) return 'local';
    if (runs.parallel.recentMs.length === 0) return 'parallel';
    if (runs.local.count === 0 && (runs.parallel.lastMs ?? 0) > LOCAL_PROBE_PARALLEL_MS_MAX) return 'parallel';
    if (runs.local.recentMs.length === 0) return 'local';
    // Learning: the way with fewer judged runs goes next, the threads first on a tie.
    if (runs.parallel.recentMs.length < JUDGED_RUNS_MIN || runs.local.recentMs.length < JUDGED_RUNS_MIN) {
      return runs.parallel.recentMs.length <= runs.local.recentMs.length ? 'parallel' : 'local';
    }
    const faster: ExecutionWay = threadsWinMostPairings(runs.parallel, runs.local) ? 'parallel' : 'local';
    const count = runs.local.count + runs.parallel.count;
    if (count % RETRY_OTHER_WAY_EVERY_RUNS === RETRY_OTHER_WAY_EVERY_RUNS - 1) return faster === 'local' ? 'parallel' : 'local';
    return faster;
  }

  /**
   * Whether the text's latest run on the threads took at most LOCAL_PROBE_PARALLEL_MS_MAX: then the calling
   * thread may run a share itself (blocking its event loop about as long as a local run would). A text never
   * timed on the threads is not known to be short: its first run leaves the calling thread free.
   */
  isShortOnThreads(text: string): boolean {
    const lastMs = this.byText.get(text)?.parallel.lastMs;
    return lastMs !== undefined && lastMs <= LOCAL_PROBE_PARALLEL_MS_MAX;
  }

  /**
   * Records a finished run (from choosing the way to the last byte sent); failed runs are not recorded. `cpuMs`:
   * the process CPU time (every thread) spent meanwhile, when measured.
   */
  record(text: string, way: ExecutionWay, elapsedMs: number, cpuMs?: number): void {
    assert(Number.isFinite(elapsedMs) && elapsedMs >= 0, 'a run lasts a finite, non-negative time');
    assert(cpuMs === undefined || (Number.isFinite(cpuMs) && cpuMs >= 0), 'a run spends a finite, non-negative CPU time');
    let runs = this.byText.get(text);
    if (runs === undefined) {
      runs = { local: newWayRuns(), parallel: newWayRuns() };
      if (this.byText.size >= TEXTS_REMEMBERED_MAX) this.forgetOldest();
    }
    // Re-inserting keeps the map in order of last use, so the oldest entry is the first one.
    this.byText.delete(text);
    this.byText.set(text, runs);
    const wayRuns = runs[way];
    wayRuns.count += 1;
    wayRuns.lastMs = elapsedMs;
    if (wayRuns.count <= WARMUP_RUNS[way]) return;
    keepRecent(wayRuns.recentMs, elapsedMs);
    if (cpuMs !== undefined) keepRecent(wayRuns.recentCpuMs, cpuMs);
  }

  get size(): number {
    return this.byText.size;
  }

  private forgetOldest(): void {
    const oldest = this.byText.keys().next();
    if (oldest.done !== true) this.byText.delete(oldest.value);
  }
}

function newWayRuns(): WayRuns {
  return { count: 0, recentMs: [], recentCpuMs: [], lastMs: undefined };
}

function keepRecent(values: number[], value: number): void {
  values.push(value);
  if (values.length > RECENT_RUNS_KEPT) values.shift();
  assert(values.length <= RECENT_RUNS_KEPT, 'a way keeps a bounded number of recent runs');
}

/**
 * Whether the threads' recent warm runs beat the calling thread's in more than half of all pairings, a run on the
 * threads counting as faster only below the gain factor (gainFactorOf) of the local run it is paired with.
 */
function threadsWinMostPairings(parallel: WayRuns, local: WayRuns): boolean {
  assert(parallel.recentMs.length > 0 && local.recentMs.length > 0, 'both ways are judged only once each has warm runs');
  const factor = gainFactorOf(parallel, local);
  let wins = 0;
  for (const parallelMs of parallel.recentMs) {
    for (const localMs of local.recentMs) if (parallelMs < localMs * factor) wins += 1;
  }
  return 2 * wins > parallel.recentMs.length * local.recentMs.length;
}

/** CHEAP_SPLIT_GAIN_FACTOR when both ways' CPU was measured and the split's is within bounds; PARALLEL_GAIN_FACTOR otherwise. */
function gainFactorOf(parallel: WayRuns, local: WayRuns): number {
  if (parallel.recentCpuMs.length === 0 || local.recentCpuMs.length === 0) return PARALLEL_GAIN_FACTOR;
  return median(parallel.recentCpuMs) <= median(local.recentCpuMs) * CHEAP_SPLIT_CPU_FACTOR_MAX ? CHEAP_SPLIT_GAIN_FACTOR : PARALLEL_GAIN_FACTOR;
}

/** The median of a way's recent warm runs. */
function medianMs(runs: WayRuns): number {
  assert(runs.recentMs.length > 0, 'a way is judged only once it has warm runs');
  return median(runs.recentMs);
}

/** The lower middle value of an even count (the kept runs are few). */
function median(values: readonly number[]): number {
  assert(values.length > 0, 'a median is taken of at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1];
}
