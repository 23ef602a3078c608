// Per-process gauges: sampled on demand, mapped bytes from the injected getter (a failing getter reads
// as 0), event-loop lag net of the monitor's own resolution.
import test from 'ava';
import { eventLoopLagSeconds, startProcessMetrics } from '../../../src/metrics/process-metrics.js';
import { createMetricsRegistry } from '../../../src/metrics/registry.js';
import { seriesValue } from '../../helpers/metrics-snapshots.js';

test('sampling sets memory, heap and mapped bytes', async (t) => {
  const { registry, metrics } = createMetricsRegistry();
  const sampler = startProcessMetrics(metrics, { mappedBytes: () => 12345 });
  sampler.sample();
  sampler.close();
  const text = await registry.metrics();
  t.true((seriesValue(text, 'svc_process_resident_memory_bytes') ?? 0) > 1_000_000);
  t.true((seriesValue(text, 'svc_process_heap_used_bytes') ?? 0) > 100_000);
  t.is(seriesValue(text, 'svc_process_mapped_bytes'), 12345);
  t.true((seriesValue(text, 'svc_event_loop_lag_seconds') ?? -1) >= 0);
});

test('a throwing or nonsensical mapped-bytes getter reads as 0', async (t) => {
  for (const getter of [() => { throw new Error('storage bug'); }, () => Number.NaN, () => -1]) {
    const { registry, metrics } = createMetricsRegistry();
    const sampler = startProcessMetrics(metrics, { mappedBytes: getter });
    t.notThrows(() => sampler.sample());
    sampler.close();
    t.is(seriesValue(await registry.metrics(), 'svc_process_mapped_bytes'), 0);
  }
});

test('lag is the largest interval minus the resolution, and 0 without ticks', (t) => {
  t.is(eventLoopLagSeconds({ count: 0, max: 0 }, 10), 0);
  t.is(eventLoopLagSeconds({ count: 5, max: 9_000_000 }, 10), 0);
  t.is(eventLoopLagSeconds({ count: 5, max: 210_000_000 }, 10), 0.2);
});

test('a blocked event loop shows up as lag at the next sample', async (t) => {
  const { registry, metrics } = createMetricsRegistry();
  const sampler = startProcessMetrics(metrics, { eventLoopResolutionMs: 10 });
  await new Promise((resolve) => setTimeout(resolve, 30));
  const until = Date.now() + 150;
  while (Date.now() < until) {
    // Busy-wait on purpose: this is the stall the metric must report.
  }
  await new Promise((resolve) => setTimeout(resolve, 30));
  sampler.sample();
  sampler.close();
  t.true((seriesValue(await registry.metrics(), 'svc_event_loop_lag_seconds') ?? 0) >= 0.1);
});
