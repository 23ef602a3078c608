// The :9003 minimal server against a real 2-worker cluster: health on any path (also while both workers are
// busy), /metrics aggregated over all processes and accepted by promtool and a real Prometheus, pessimistic health.
import test from 'ava';
import { startServer } from '../helpers/server.js';
import { exec } from '../helpers/http.js';
import { checkMetricsWithPromtool, startPrometheus } from '../helpers/prometheus.js';
import { seriesValue } from '../helpers/metrics-snapshots.js';

async function scrape(adminUrl: string): Promise<string> {
  const response = await fetch(`${adminUrl}/metrics`);
  return response.text();
}

test('health answers on any path, chunked text/plain; /metrics is health when metrics are off', async (t) => {
  const server = await startServer({ workers: 2 });
  try {
    for (const path of ['/', '/status', '/any/deep/path?x=1', '/metrics']) {
      const response = await fetch(`${server.adminUrl}${path}`);
      t.is(response.status, 200);
      t.is(response.headers.get('content-type'), 'text/plain');
      t.is(response.headers.get('transfer-encoding'), 'chunked');
      t.is(await response.text(), 'Status: Healthy');
    }
  } finally {
    await server.stop();
    server.cleanup();
  }
});

test('metrics count the requests made across both workers; promtool and Prometheus accept them', async (t) => {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true' } });
  try {
    const labels = { endpoint: 'execute', status: '200' };
    const before = seriesValue(await scrape(server.adminUrl), 'svc_http_requests_total', labels) ?? 0;
    const requests = 40;
    await Promise.all(Array.from({ length: requests }, () => exec(server.baseUrl, 'select 1')));
    const text = await scrape(server.adminUrl);
    t.is((seriesValue(text, 'svc_http_requests_total', labels) ?? 0) - before, requests);
    // ILP over HTTP: rows, requests by status, commit latency.
    const written = await fetch(`${server.baseUrl}/write`, { method: 'POST', body: 'metrics_ilp,s=a v=1\nmetrics_ilp,s=b v=2\n' });
    t.is(written.status, 204);
    const refused = await fetch(`${server.baseUrl}/write`, { method: 'POST', body: 'metrics_ilp v=\n' });
    t.is(refused.status, 400);
    const afterIlp = await scrape(server.adminUrl);
    t.is(seriesValue(afterIlp, 'svc_ilp_rows_total', { transport: 'http' }), 2);
    t.is(seriesValue(afterIlp, 'svc_ilp_requests_total', { status: '204' }), 1);
    t.is(seriesValue(afterIlp, 'svc_ilp_requests_total', { status: '400' }), 1);
    t.is(seriesValue(afterIlp, 'svc_ilp_commit_duration_seconds_count', { transport: 'http' }), 1);
    // Write amplification: ten rows in order are written once; an eleventh landing between rows 5 and 6 makes a
    // new version of the partition, which writes all eleven.
    const inOrder = Array.from({ length: 10 }, (_, k) => `metrics_o3 v=${k}i ${(k + 1) * 1_000_000_000}\n`).join('');
    t.is((await fetch(`${server.baseUrl}/write`, { method: 'POST', body: inOrder })).status, 204);
    t.is((await fetch(`${server.baseUrl}/write`, { method: 'POST', body: 'metrics_o3 v=99i 5500000000\n' })).status, 204);
    const afterO3 = await scrape(server.adminUrl);
    t.is((seriesValue(afterO3, 'svc_committed_rows_total') ?? 0) - (seriesValue(afterIlp, 'svc_committed_rows_total') ?? 0), 11);
    t.is((seriesValue(afterO3, 'svc_physically_written_rows_total') ?? 0) - (seriesValue(afterIlp, 'svc_physically_written_rows_total') ?? 0), 21);
    t.is((seriesValue(afterO3, 'svc_o3_commits_total') ?? 0) - (seriesValue(afterIlp, 'svc_o3_commits_total') ?? 0), 1);
    const check = checkMetricsWithPromtool(afterIlp);
    t.true(check.ok, check.output);
    t.regex(text, /svc_process_resident_memory_bytes\{process="worker-1"\}/);
    t.regex(text, /svc_process_resident_memory_bytes\{process="worker-2"\}/);
    const prometheus = await startPrometheus({ targetPort: server.minPort });
    try {
      const expected = before + requests;
      const samples = await prometheus.waitFor(`sum(svc_http_requests_total{endpoint="execute",status="200"})`, (found) => (found[0]?.value ?? 0) >= expected, 20_000);
      t.true((samples[0]?.value ?? 0) >= expected);
    } finally {
      await prometheus.stop();
    }
  } finally {
    await server.stop();
    server.cleanup();
  }
});

test('health stays fast while both workers run CPU-heavy queries', async (t) => {
  const server = await startServer({ workers: 2 });
  try {
    const heavy = Array.from({ length: 4 }, () => exec(server.baseUrl, 'select sum(x * x) from long_sequence(2000000000)', {}, { headers: { 'Statement-Timeout': '3000' } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const latencies: number[] = [];
    for (let k = 0; k < 10; k++) {
      const started = Date.now();
      const response = await fetch(`${server.adminUrl}/`);
      await response.text();
      latencies.push(Date.now() - started);
    }
    await Promise.all(heavy);
    latencies.sort((a, b) => a - b);
    t.true((latencies[5] as number) < 100, `median health latency ${latencies[5]} ms (loose bound; exact figures belong in the bench)`);
  } finally {
    await server.stop();
    server.cleanup();
  }
});

test('pessimistic health flips to 500 after an unhandled error', async (t) => {
  const server = await startServer({ workers: 2, env: { SVC_METRICS_ENABLED: 'true', SVC_HTTP_PESSIMISTIC_HEALTH_CHECK_ENABLED: 'true', SVCTEST_INJECT_FAULTS: '1' } });
  try {
    t.is((await fetch(`${server.adminUrl}/`)).status, 200);
    const fault = await fetch(`${server.baseUrl}/__test/unhandled`);
    t.is(fault.status, 500);
    await fault.text();
    let health = await fetch(`${server.adminUrl}/`);
    for (let k = 0; k < 50 && health.status === 200; k++) {
      await health.text();
      await new Promise((resolve) => setTimeout(resolve, 50));
      health = await fetch(`${server.adminUrl}/`);
    }
    t.is(health.status, 500);
    t.is(await health.text(), 'Status: Unhealthy\nUnhandled errors: 1');
    t.is(seriesValue(await scrape(server.adminUrl), 'svc_unhandled_errors_total'), 1);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
