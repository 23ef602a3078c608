// Which way a large query runs, learned from how long its text took each way on this process. The row estimate
// (query.parallel.min.rows) cannot see what a run really costs: kernels answer repeated scans of immutable
// mapped ranges from cached facts, and on a machine whose cores are busy the threads add hand-off and a second
// JIT without adding a free core. So a query that the estimate sends to the threads runs there first; when it
// came back quickly its next two runs are tried on the calling thread, and from then on it runs the way that was
// faster lately, trying the other way again now and then so a changed table or machine load is noticed. A way's
// time is the least it took lately: warm-up (a way's first runs compile and tier up its kernels) and a busy
// machine only ever add time, so a smaller figure replaces the kept one at once and a larger one raises it
// only by a bounded step per run.
// Long runs stay on the threads: there the hand-off is small beside the run, and the event loop stays free.
import { assert } from '../../core/assert.js';

export type ExecutionWay = 'local' | 'parallel';

/** Runs on the threads that took longer than this never try the calling thread: the hand-off (5-10 ms) is a
 * small part of them, and the event loop stays free. */
export const LOCAL_PROBE_PARALLEL_MS_MAX = 500;
/** Every this many runs of a text, the way not chosen is tried again. */
const RETRY_OTHER_WAY_EVERY_RUNS = 16;
/** How much one slower run can raise a way's kept time (a factor): a lasting slowdown shows within a few runs. */
const SLOWER_RUN_RAISE_FACTOR_MAX = 1.5;
/** Texts remembered per process; the least recently run is forgotten first. */
const TEXTS_REMEMBERED_MAX = 512;

interface WayTimes {
  localMs: number | undefined;
  parallelMs: number | undefined;
  localRuns: number;
  parallelRuns: number;
}

export class ParallelChoice {
  private readonly byText = new Map<string, WayTimes>();

  /** The way to run a query the row estimate finds large enough for the threads. */
  choose(text: string): ExecutionWay {
    const times = this.byText.get(text);
    if (times === undefined || times.parallelMs === undefined) return 'parallel';
    if (times.localMs === undefined && times.parallelMs > LOCAL_PROBE_PARALLEL_MS_MAX) return 'parallel';
    if (times.localMs === undefined || times.localRuns < 2) return 'local';
    const faster: ExecutionWay = times.localMs <= times.parallelMs ? 'local' : 'parallel';
    const runs = times.localRuns + times.parallelRuns;
    if (runs % RETRY_OTHER_WAY_EVERY_RUNS === RETRY_OTHER_WAY_EVERY_RUNS - 1) return faster === 'local' ? 'parallel' : 'local';
    return faster;
  }

  /**
   * Whether the text ran on the threads lately in at most LOCAL_PROBE_PARALLEL_MS_MAX: then the calling thread
   * may run a share itself (blocking its event loop about as long as a local run would). A text never timed
   * on the threads is not known to be short: its first run leaves the calling thread free.
   */
  isShortOnThreads(text: string): boolean {
    const parallelMs = this.byText.get(text)?.parallelMs;
    return parallelMs !== undefined && parallelMs <= LOCAL_PROBE_PARALLEL_MS_MAX;
  }

  /** Records a finished run (from choosing the way to the last byte sent); failed runs are not recorded. */
  record(text: string, way: ExecutionWay, elapsedMs: number): void {
    assert(Number.isFinite(elapsedMs) && elapsedMs >= 0, 'a run lasts a finite, non-negative time');
    let times = this.byText.get(text);
    if (times === undefined) {
      times = { localMs: undefined, parallelMs: undefined, localRuns: 0, parallelRuns: 0 };
      if (this.byText.size >= TEXTS_REMEMBERED_MAX) this.forgetOldest();
    }
    // Re-inserting keeps the map in order of last use, so the oldest entry is the first one.
    this.byText.delete(text);
    this.byText.set(text, times);
    if (way === 'local') {
      times.localMs = kept(times.localMs, elapsedMs);
      times.localRuns += 1;
    } else {
      times.parallelMs = kept(times.parallelMs, elapsedMs);
      times.parallelRuns += 1;
    }
  }

  get size(): number {
    return this.byText.size;
  }

  private forgetOldest(): void {
    const oldest = this.byText.keys().next();
    if (oldest.done !== true) this.byText.delete(oldest.value);
  }
}

function kept(previous: number | undefined, newest: number): number {
  return previous === undefined ? newest : Math.min(newest, previous * SLOWER_RUN_RAISE_FACTOR_MAX);
}
