// Which way a large query runs, learned from how long its text took each way on this process. The row estimate
// (query.parallel.min.rows) cannot see what a run really costs: kernels answer repeated scans of immutable
// mapped ranges from cached facts, and on a machine whose cores are busy the threads add hand-off and a second
// JIT without adding a free core. So a query that the estimate sends to the threads runs there first, and a
// way is judged only once it is warm: its first runs compile and tier up its kernels (on every thread, each with
// its own JIT) and bind its fragment plans, so they say nothing of its steady cost and are not counted. Once both
// ways have warm runs, the query runs the way whose best recent run was faster (the threads only when clearly
// faster: they spend more CPU in all), trying the other way again now and then so a changed table or machine
// load is noticed. A best of a few recent runs, not their mean: a busy machine only ever adds time.
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
/** Warm runs kept per way; the best of them is the way's time. */
const RECENT_RUNS_KEPT = 4;
/** The threads win only below this share of the calling thread's time: a split spends more CPU in all. */
const PARALLEL_GAIN_FACTOR = 0.9;
/** Every this many runs of a text, the way not chosen is tried again. */
const RETRY_OTHER_WAY_EVERY_RUNS = 16;
/** Texts remembered per process; the least recently run is forgotten first. */
const TEXTS_REMEMBERED_MAX = 512;

interface WayRuns {
  /** Every run of this way, warm-up runs included. */
  count: number;
  /** Times of the latest warm runs, oldest first, at most RECENT_RUNS_KEPT. */
  readonly recentMs: number[];
  /** The latest run's time, warm-up runs included; undefined before the first run. */
  lastMs: number | undefined;
}

interface TextRuns {
  readonly local: WayRuns;
  readonly parallel: WayRuns;
}

export class ParallelChoice {
  private readonly byText = new Map<string, TextRuns>();

  /** The way to run a query the row estimate finds large enough for the threads. */
  choose(text: string): ExecutionWay {
    const runs = this.byText.get(text);
    if (runs === undefined || runs.parallel.recentMs.length === 0) return 'parallel';
    if (runs.local.count === 0 && (runs.parallel.lastMs ?? 0) > LOCAL_PROBE_PARALLEL_MS_MAX) return 'parallel';
    if (runs.local.recentMs.length === 0) return 'local';
    const faster: ExecutionWay = bestMs(runs.parallel) < bestMs(runs.local) * PARALLEL_GAIN_FACTOR ? 'parallel' : 'local';
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

  /** Records a finished run (from choosing the way to the last byte sent); failed runs are not recorded. */
  record(text: string, way: ExecutionWay, elapsedMs: number): void {
    assert(Number.isFinite(elapsedMs) && elapsedMs >= 0, 'a run lasts a finite, non-negative time');
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
    wayRuns.recentMs.push(elapsedMs);
    if (wayRuns.recentMs.length > RECENT_RUNS_KEPT) wayRuns.recentMs.shift();
    assert(wayRuns.recentMs.length <= RECENT_RUNS_KEPT, 'a way keeps a bounded number of recent runs');
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
  return { count: 0, recentMs: [], lastMs: undefined };
}

function bestMs(runs: WayRuns): number {
  assert(runs.recentMs.length > 0, 'a way is judged only once it has warm runs');
  return Math.min(...runs.recentMs);
}
