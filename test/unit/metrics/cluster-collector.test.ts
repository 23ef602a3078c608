// The primary's collector against fake workers: sums across processes, bounded wait with partial
// results when a worker is silent, counters kept monotonic across worker restarts and missed answers,
// and output that `promtool check metrics` accepts.
import test from 'ava';
import { createClusterMetricsCollector, type WorkerSnapshotReply } from '../../../src/metrics/cluster-collector.js';
import { createMetricsRegistry, type MetricsRegistry } from '../../../src/metrics/registry.js';
import { takeRegistrySnapshot } from '../../../src/metrics/snapshot.js';
import { overIpc, seriesValue } from '../../helpers/metrics-snapshots.js';
import { checkMetricsWithPromtool } from '../../helpers/prometheus.js';

const TIMEOUT_MS = 100;

/** A fake process: a real registry and an incarnation that changes on restart(). */
class FakeProcess {
  state: MetricsRegistry = createMetricsRegistry();
  incarnation = 'life-1';
  silent = false;
  malformed = false;
  restart(): void {
    this.state = createMetricsRegistry();
    this.incarnation = `life-${Number(this.incarnation.slice(5)) + 1}`;
  }
  async answer(): Promise<unknown> {
    if (this.silent) return new Promise<unknown>(() => {});
    if (this.malformed) return { format: 'garbage' };
    return overIpc(await takeRegistrySnapshot(this.state.registry, this.incarnation));
  }
}

/** What cluster/ is expected to inject: ask all, resolve at the timeout with undefined for the silent. */
function transportFor(workers: Map<number, FakeProcess>) {
  let requests = 0;
  const requestSnapshots = (timeoutMs: number): Promise<WorkerSnapshotReply[]> => {
    requests += 1;
    return Promise.all([...workers].map(async ([workerId, worker]) => {
      const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs));
      return { workerId, snapshot: await Promise.race([worker.answer(), timeout]) };
    }));
  };
  return { requestSnapshots, requestCount: () => requests };
}

function clusterOf(workerCount: number) {
  const primary = new FakeProcess();
  const workers = new Map<number, FakeProcess>();
  for (let id = 1; id <= workerCount; id++) workers.set(id, new FakeProcess());
  const transport = transportFor(workers);
  const logs: string[] = [];
  const collector = createClusterMetricsCollector({
    takeLocalSnapshot: () => takeRegistrySnapshot(primary.state.registry, 'primary'),
    requestSnapshots: transport.requestSnapshots,
    scrapeTimeoutMs: TIMEOUT_MS,
    log: (message) => logs.push(message),
  });
  const worker = (id: number): FakeProcess => {
    const found = workers.get(id);
    if (found === undefined) throw new Error(`no fake worker ${id}`);
    return found;
  };
  return { primary, worker, collector, transport, logs };
}

test('counters, histograms and gauges combine across the primary and every worker', async (t) => {
  const { primary, worker, collector } = clusterOf(3);
  primary.state.metrics.commits.inc(2);
  primary.state.metrics.tables.set(4);
  for (const id of [1, 2, 3]) {
    const metrics = worker(id).state.metrics;
    metrics.httpRequests.inc({ endpoint: 'execute', status: '200' }, id);
    metrics.queryDuration.observe({ endpoint: 'execute' }, 0.002 * id);
    metrics.readersOpen.set(id);
    metrics.tables.set(id === 3 ? 4 : 3);
    metrics.heapUsed.set(1000 * id);
  }
  const text = await collector.collect();
  t.is(seriesValue(text, 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 6);
  t.is(seriesValue(text, 'svc_commits_total'), 2);
  t.is(seriesValue(text, 'svc_query_duration_seconds_count', { endpoint: 'execute' }), 3);
  t.is(seriesValue(text, 'svc_query_duration_seconds_bucket', { endpoint: 'execute', le: '0.005' }), 2);
  t.is(seriesValue(text, 'svc_readers_open'), 6);
  t.is(seriesValue(text, 'svc_tables'), 4);
  t.is(seriesValue(text, 'svc_process_heap_used_bytes', { process: 'worker-2' }), 2000);
  t.is(seriesValue(text, 'svc_process_heap_used_bytes', { process: 'primary' }), 0);
  t.is(seriesValue(text, 'svc_metrics_scrape_partial'), 0);
  t.false(text.includes('# svc:'));
});

test('a silent worker gives a partial result within the bound, with its last counters', async (t) => {
  const { worker, collector, logs } = clusterOf(2);
  worker(1).state.metrics.commits.inc(5);
  worker(2).state.metrics.commits.inc(7);
  worker(2).state.metrics.readersOpen.set(3);
  t.is(seriesValue(await collector.collect(), 'svc_commits_total'), 12);
  worker(2).state.metrics.commits.inc(1);
  worker(2).silent = true;
  const text = await collector.collect();
  t.is(seriesValue(text, 'svc_metrics_scrape_partial'), 1);
  t.regex(text, /^# svc: partial scrape .*no snapshot within 100 ms from worker-2/m);
  t.is(seriesValue(text, 'svc_commits_total'), 12, 'worker-2 counted from its last answer: never goes backwards');
  t.is(seriesValue(text, 'svc_readers_open'), 0, 'a silent worker\'s gauges are left out, not guessed');
  t.is(seriesValue(text, 'svc_process_heap_used_bytes', { process: 'worker-2' }), undefined);
  t.true(logs.some((line) => line.includes('worker-2')));
});

test('a transport that never resolves still gives a scrape shortly after the bound', async (t) => {
  const primary = new FakeProcess();
  primary.state.metrics.commits.inc(1);
  let calls = 0;
  const collector = createClusterMetricsCollector({
    takeLocalSnapshot: () => takeRegistrySnapshot(primary.state.registry, 'primary'),
    requestSnapshots: async () => {
      calls += 1;
      if (calls === 1) return [{ workerId: 1, snapshot: undefined }];
      return new Promise<WorkerSnapshotReply[]>(() => {});
    },
    scrapeTimeoutMs: TIMEOUT_MS,
  });
  t.is(seriesValue(await collector.collect(), 'svc_metrics_scrape_partial'), 1, 'a worker that never answered is missing');
  const text = await collector.collect();
  t.is(seriesValue(text, 'svc_commits_total'), 1);
  t.regex(text, /from worker-1/);
});

test('a transport that rejects or a malformed snapshot never fails the scrape', async (t) => {
  const { worker, collector } = clusterOf(1);
  worker(1).malformed = true;
  const text = await collector.collect();
  t.is(seriesValue(text, 'svc_metrics_scrape_partial'), 1);
  const rejecting = createClusterMetricsCollector({
    takeLocalSnapshot: () => takeRegistrySnapshot(createMetricsRegistry().registry, 'p'),
    requestSnapshots: () => Promise.reject(new Error('IPC channel closed')),
    scrapeTimeoutMs: TIMEOUT_MS,
  });
  t.is(seriesValue(await rejecting.collect(), 'svc_metrics_scrape_partial'), 0, 'no worker known, nothing missing');
  const broken = createClusterMetricsCollector({
    takeLocalSnapshot: () => Promise.reject(new Error('registry bug')),
    requestSnapshots: async () => [],
    scrapeTimeoutMs: TIMEOUT_MS,
  });
  const brokenText = await broken.collect();
  t.is(seriesValue(brokenText, 'svc_metrics_scrape_partial'), 1);
  t.regex(brokenText, /# svc: scrape failed: registry bug/);
});

test('a restarted worker does not make summed counters go backwards', async (t) => {
  const { worker, collector } = clusterOf(2);
  worker(1).state.metrics.httpRequests.inc({ endpoint: 'execute', status: '200' }, 10);
  worker(1).state.metrics.queryDuration.observe({ endpoint: 'execute' }, 0.5);
  worker(2).state.metrics.httpRequests.inc({ endpoint: 'execute', status: '200' }, 1);
  t.is(seriesValue(await collector.collect(), 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 11);
  worker(1).restart();
  worker(1).state.metrics.httpRequests.inc({ endpoint: 'execute', status: '200' }, 2);
  const text = await collector.collect();
  t.is(seriesValue(text, 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 13);
  t.is(seriesValue(text, 'svc_query_duration_seconds_count', { endpoint: 'execute' }), 1);
  t.is(seriesValue(text, 'svc_metrics_scrape_partial'), 0);
  worker(1).restart();
  const again = await collector.collect();
  t.is(seriesValue(again, 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 13, 'retired counters accumulate');
});

test('concurrent scrapes share one round of snapshot requests', async (t) => {
  const { collector, transport } = clusterOf(2);
  const [first, second] = await Promise.all([collector.collect(), collector.collect()]);
  t.is(first, second);
  t.is(transport.requestCount(), 1);
  await collector.collect();
  t.is(transport.requestCount(), 2);
});

test('promtool check metrics accepts the output, partial comment included', async (t) => {
  const { primary, worker, collector } = clusterOf(2);
  primary.state.metrics.tableRows.set({ table: 'trades "quoted"' }, 3);
  worker(1).state.metrics.httpRequestDuration.observe({ endpoint: 'export' }, 1.5);
  worker(1).state.metrics.queries.inc({ endpoint: 'export', outcome: 'ok' });
  await collector.collect();
  worker(2).silent = true;
  const text = await collector.collect();
  t.regex(text, /^# svc: partial scrape/m);
  const result = checkMetricsWithPromtool(text);
  t.true(result.ok, `promtool check metrics:\n${result.output}`);
});
