// Primary side of /metrics: take the primary's own snapshot, ask every worker for its snapshot through
// the transport cluster/ injects, and merge. A scrape never fails and never waits longer than its bound:
// a worker that does not answer in time is left out (its counters and histograms are taken from its last
// answer, so sums never go backwards), `svc_metrics_scrape_partial` is 1 and a comment names it.
// Owns: each worker slot's last snapshot and the counters retired by restarted workers, so that summed
// counters stay monotonic across worker restarts, as a single-process server's would.
import { performance } from 'node:perf_hooks';
import { isMonotonic, mergeContributions, renderPrometheusText, scrapeFamily, type Contribution } from './cluster-aggregate.js';
import { METRIC_DEFINITIONS, metricDefinitionOf } from './registry.js';
import { parseMetricsSnapshot, type MetricsSnapshot, type SnapshotFamily } from './snapshot.js';

/** Default bound on waiting for workers in one scrape (Prometheus' default scrape timeout is 10 s). */
export const scrapeTimeoutMsDefault = 2000;
/** Extra time granted to the transport past the bound before the collector stops waiting for it. */
const transportGraceMs = 250;

export interface WorkerSnapshotReply {
  /** Worker slot 1..N, stable across restarts (not cluster's ever-growing worker.id: label cardinality). */
  readonly workerId: number;
  /** What the worker sent, or undefined when it did not answer within the timeout. Parsed here. */
  readonly snapshot: unknown;
}

export interface ClusterMetricsCollectorOptions {
  readonly takeLocalSnapshot: () => Promise<MetricsSnapshot>;
  /** Ask every worker; resolve within about timeoutMs with one entry per worker slot. */
  readonly requestSnapshots: (timeoutMs: number) => Promise<readonly WorkerSnapshotReply[]>;
  readonly scrapeTimeoutMs?: number;
  readonly log?: (message: string) => void;
}

export interface ClusterMetricsCollector {
  /** Prometheus text for the whole cluster; resolves even when workers are slow or gone. */
  collect(): Promise<string>;
}

interface WorkerSlot {
  incarnation: string;
  /** Counter and histogram families of its last answer. */
  monotonic: readonly SnapshotFamily[];
}

export function createClusterMetricsCollector(options: ClusterMetricsCollectorOptions): ClusterMetricsCollector {
  const timeoutMs = options.scrapeTimeoutMs ?? scrapeTimeoutMsDefault;
  const log = options.log ?? (() => {});
  const slots = new Map<number, WorkerSlot>();
  let retired: readonly SnapshotFamily[] = [];
  // Concurrent scrapes share one round of IPC requests: bounded in-flight work whatever scrapes.
  let inFlight: Promise<string> | undefined;

  function rememberWorker(workerId: number, snapshot: MetricsSnapshot): void {
    const previous = slots.get(workerId);
    if (previous !== undefined && previous.incarnation !== snapshot.incarnation) {
      // The worker restarted: its new counters start from zero, so keep what the old life counted.
      retired = familiesOf(mergeContributions([retiredContribution(retired), retiredContribution(previous.monotonic)]));
    }
    slots.set(workerId, { incarnation: snapshot.incarnation, monotonic: monotonicFamilies(snapshot.families) });
  }

  async function scrape(): Promise<string> {
    const startedMs = performance.now();
    const [local, replies] = await Promise.all([
      options.takeLocalSnapshot(),
      requestWithinBound(options.requestSnapshots, timeoutMs, log),
    ]);
    const contributions: Contribution[] = [{ processName: 'primary', families: local.families, monotonicOnly: false }];
    const answered = new Set<number>();
    for (const reply of replies) {
      if (!Number.isSafeInteger(reply.workerId) || answered.has(reply.workerId)) continue;
      const snapshot = parseMetricsSnapshot(reply.snapshot);
      if (snapshot === undefined) {
        if (!slots.has(reply.workerId)) slots.set(reply.workerId, { incarnation: '', monotonic: [] });
        continue;
      }
      answered.add(reply.workerId);
      rememberWorker(reply.workerId, snapshot);
      contributions.push({ processName: workerName(reply.workerId), families: snapshot.families, monotonicOnly: false });
    }
    const missing: string[] = [];
    for (const [workerId, slot] of slots) {
      if (answered.has(workerId)) continue;
      missing.push(workerName(workerId));
      contributions.push({ processName: workerName(workerId), families: slot.monotonic, monotonicOnly: true });
    }
    if (retired.length > 0) contributions.push(retiredContribution(retired));
    const families = mergeContributions(contributions);
    families.push(scrapeFamily(METRIC_DEFINITIONS.scrapePartial, missing.length > 0 ? 1 : 0));
    const comments: string[] = [];
    if (missing.length > 0) {
      const waitedMs = Math.round(performance.now() - startedMs);
      comments.push(`svc: partial scrape after ${waitedMs} ms: no snapshot within ${timeoutMs} ms from ${missing.join(', ')}; their counters are from their last answer`);
      log(`metrics scrape partial, missing ${missing.join(', ')}`);
    }
    return renderPrometheusText(families, comments);
  }

  async function scrapeNeverFailing(): Promise<string> {
    try {
      return await scrape();
    } catch (error) {
      // A bug here must not turn into a failed scrape: answer with the partial marker and say why.
      const message = error instanceof Error ? error.message : String(error);
      log(`metrics scrape failed: ${message}`);
      return renderPrometheusText([scrapeFamily(METRIC_DEFINITIONS.scrapePartial, 1)], [`svc: scrape failed: ${message}`]);
    }
  }

  return {
    collect(): Promise<string> {
      if (inFlight === undefined) {
        inFlight = scrapeNeverFailing().finally(() => {
          inFlight = undefined;
        });
      }
      return inFlight;
    },
  };
}

/** The transport promises to resolve within its timeout; this makes sure of it even if it does not. */
async function requestWithinBound(
  request: ClusterMetricsCollectorOptions['requestSnapshots'],
  timeoutMs: number,
  log: (message: string) => void,
): Promise<readonly WorkerSnapshotReply[]> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<readonly WorkerSnapshotReply[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs + transportGraceMs);
  });
  const answer = request(timeoutMs).catch((error: unknown) => {
    log(`metrics snapshot request failed: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  try {
    return await Promise.race([answer, giveUp]);
  } finally {
    clearTimeout(timer);
  }
}

function workerName(workerId: number): string {
  return `worker-${workerId}`;
}

function retiredContribution(families: readonly SnapshotFamily[]): Contribution {
  return { processName: 'retired', families, monotonicOnly: true };
}

function monotonicFamilies(families: readonly SnapshotFamily[]): SnapshotFamily[] {
  return families.filter((family) => {
    const definition = metricDefinitionOf(family.name);
    return definition !== undefined && isMonotonic(definition);
  });
}

function familiesOf(merged: ReturnType<typeof mergeContributions>): SnapshotFamily[] {
  return merged.map((family) => ({ name: family.definition.name, samples: family.samples }));
}
