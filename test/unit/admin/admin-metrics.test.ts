// The pieces wired as the primary wires them, in one process: a metrics runtime fed by svc:* events,
// the cluster collector with one fake worker, and the admin server. Checks /metrics counts, promtool,
// and the pessimistic flip after an unhandled error published on svc:error:unhandled.
import test from 'ava';
import { startAdminServer } from '../../../src/admin/admin-server.js';
import { httpRequestChannel, unhandledErrorChannel } from '../../../src/core/diagnostics.js';
import { createClusterMetricsCollector } from '../../../src/metrics/cluster-collector.js';
import { startMetricsRuntime } from '../../../src/metrics/metrics-runtime.js';
import { createMetricsRegistry } from '../../../src/metrics/registry.js';
import { takeRegistrySnapshot } from '../../../src/metrics/snapshot.js';
import { overIpc, seriesValue } from '../../helpers/metrics-snapshots.js';
import { checkMetricsWithPromtool } from '../../helpers/prometheus.js';

async function startWiredPrimary() {
  const runtime = startMetricsRuntime({ mappedBytes: () => 4096 });
  const worker = createMetricsRegistry();
  const collector = createClusterMetricsCollector({
    takeLocalSnapshot: () => runtime.takeSnapshot(),
    requestSnapshots: async () => [{ workerId: 1, snapshot: overIpc(await takeRegistrySnapshot(worker.registry, 'worker-life')) }],
  });
  const server = await startAdminServer({
    host: '127.0.0.1',
    port: 0,
    metricsEnabled: true,
    pessimisticHealth: true,
    collect: () => collector.collect(),
    unhandledErrors: () => runtime.unhandledErrorsSeen(),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    worker,
    url,
    async close() {
      await server.close();
      runtime.close();
    },
  };
}

test.serial('/metrics sums the primary\'s events with the worker\'s and passes promtool', async (t) => {
  const primary = await startWiredPrimary();
  try {
    for (let i = 0; i < 3; i++) httpRequestChannel.publish({ endpoint: 'execute', status: 200, durationMs: 2 });
    primary.worker.metrics.httpRequests.inc({ endpoint: 'execute', status: '200' }, 4);
    const response = await fetch(`${primary.url}/metrics`);
    const text = await response.text();
    t.is(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    t.is(seriesValue(text, 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 7);
    t.is(seriesValue(text, 'svc_process_mapped_bytes', { process: 'primary' }), 4096);
    t.is(seriesValue(text, 'svc_process_mapped_bytes', { process: 'worker-1' }), 0);
    const result = checkMetricsWithPromtool(text);
    t.true(result.ok, `promtool check metrics:\n${result.output}`);
  } finally {
    await primary.close();
  }
});

test.serial('pessimistic health turns 500 after an injected unhandled error', async (t) => {
  const primary = await startWiredPrimary();
  try {
    t.is((await fetch(`${primary.url}/`)).status, 200);
    unhandledErrorChannel.publish({ source: 'test', origin: 'local', error: new Error('injected') });
    const response = await fetch(`${primary.url}/status`);
    t.is(response.status, 500);
    t.is(await response.text(), 'Status: Unhealthy\nUnhandled errors: 1');
    unhandledErrorChannel.publish({ source: 'worker-1', origin: 'worker', error: undefined });
    t.is(await (await fetch(`${primary.url}/`)).text(), 'Status: Unhealthy\nUnhandled errors: 2');
    const metrics = await (await fetch(`${primary.url}/metrics`)).text();
    t.is(seriesValue(metrics, 'svc_unhandled_errors_total'), 1, 'the worker error is counted by the worker itself');
  } finally {
    await primary.close();
  }
});
