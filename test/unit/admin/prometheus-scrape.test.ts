// Self-test of test/helpers/prometheus.ts: a real Prometheus binary on loopback scrapes the in-process
// admin server, and /api/v1/query returns the request count the test produced. The cross-process
// version (real cluster, real workers) lives in test/e2e/ and uses the same helper.
import test from 'ava';
import { startAdminServer } from '../../../src/admin/admin-server.js';
import { httpRequestChannel } from '../../../src/core/diagnostics.js';
import { createClusterMetricsCollector } from '../../../src/metrics/cluster-collector.js';
import { startMetricsRuntime } from '../../../src/metrics/metrics-runtime.js';
import { checkMetricsWithPromtool, parseQueryResponse, startPrometheus } from '../../helpers/prometheus.js';

test('a real Prometheus scrapes /metrics and its query API returns the request count', async (t) => {
  const runtime = startMetricsRuntime();
  const collector = createClusterMetricsCollector({ takeLocalSnapshot: () => runtime.takeSnapshot(), requestSnapshots: async () => [] });
  const admin = await startAdminServer({
    host: '127.0.0.1', port: 0, metricsEnabled: true, pessimisticHealth: false,
    collect: () => collector.collect(), unhandledErrors: () => runtime.unhandledErrorsSeen(),
  });
  const prometheus = await startPrometheus({ targetPort: admin.port });
  try {
    const requestCount = 17;
    for (let i = 0; i < requestCount; i++) httpRequestChannel.publish({ endpoint: 'export', status: 200, durationMs: 5 });
    await prometheus.waitFor('up{job="svc"}', (samples) => samples.some((s) => s.value === 1));
    const samples = await prometheus.waitFor(
      'sum(svc_http_requests_total{endpoint="export"})',
      (result) => result.length === 1 && result[0]?.value === requestCount,
    );
    t.is(samples[0]?.value, requestCount);
    const partial = await prometheus.query('svc_metrics_scrape_partial');
    t.deepEqual(partial.map((s) => s.value), [0]);
  } catch (error) {
    t.log(prometheus.output());
    throw error;
  } finally {
    await prometheus.stop();
    await admin.close();
    runtime.close();
  }
});

test('the promtool helper reports lint problems instead of passing them', (t) => {
  const result = checkMetricsWithPromtool('# TYPE foo counter\nfoo 1\n');
  t.false(result.ok);
  t.regex(result.output, /_total/);
});

test('the query-response parser narrows vectors and scalars and rejects errors', (t) => {
  const vector = { status: 'success', data: { resultType: 'vector', result: [{ metric: { job: 'svc' }, value: [1, '3'] }] } };
  t.deepEqual(parseQueryResponse(vector, 'x'), [{ labels: { job: 'svc' }, value: 3 }]);
  t.deepEqual(parseQueryResponse({ status: 'success', data: { resultType: 'scalar', result: [1, '2'] } }, 'x'), [{ labels: {}, value: 2 }]);
  t.throws(() => parseQueryResponse({ status: 'error', error: 'bad' }, 'x'), { message: /failed/ });
});
