// The metric table's own rules: svc_ names, counters end in _total and are summed, the 15 cold-chunk
// metrics of the spec are present, and a fresh registry exposes every non-scrape family.
import test from 'ava';
import { createMetricsRegistry, METRIC_DEFINITIONS, METRIC_LIST, metricDefinitionOf } from '../../../src/metrics/registry.js';

const SPEC_COLD_CHUNK_METRICS = [
  'svc_cold_chunk_acquire_full_hit_total', 'svc_cold_chunk_acquire_partial_hit_total', 'svc_cold_chunk_acquire_full_miss_total',
  'svc_cold_chunk_acquire_hit_chunks_total', 'svc_cold_chunk_acquire_miss_chunks_total', 'svc_cold_chunk_download_started_total',
  'svc_cold_chunk_download_finished_total', 'svc_cold_chunk_download_failed_total', 'svc_cold_chunk_download_coalesced_total',
  'svc_cold_chunk_release_evictions_total', 'svc_cold_chunk_in_flight_downloads', 'svc_cold_chunk_pending_batches',
  'svc_cold_chunk_busy_leases', 'svc_cold_chunk_ready_chunks', 'svc_cold_chunk_pinned_bytes',
];

test('names are unique, svc_-prefixed, and have help text', (t) => {
  const names = METRIC_LIST.map((d) => d.name);
  t.is(new Set(names).size, names.length);
  for (const definition of METRIC_LIST) {
    t.regex(definition.name, /^svc_[a-z0-9_]+$/, definition.name);
    t.true(definition.help.length > 10, `${definition.name} has help`);
    t.is(metricDefinitionOf(definition.name), definition);
  }
});

test('counters end in _total and are summed; nothing else ends in _total', (t) => {
  for (const definition of METRIC_LIST) {
    t.is(definition.name.endsWith('_total'), definition.type === 'counter', definition.name);
    if (definition.type !== 'gauge') t.is(definition.mode, 'sum', `${definition.name} is monotonic, so summed`);
  }
});

test('per-process gauges carry no in-process labels (the collector adds process)', (t) => {
  for (const definition of METRIC_LIST) {
    if (definition.mode === 'per-process') t.deepEqual([...definition.labels], [], definition.name);
    t.false(definition.labels.includes('process'), definition.name);
  }
});

test('the 15 cold-chunk metrics of the spec are registered with the spec types and point at the README', (t) => {
  const cold = METRIC_LIST.filter((d) => d.name.startsWith('svc_cold_chunk_'));
  t.deepEqual(cold.map((d) => d.name).sort(), [...SPEC_COLD_CHUNK_METRICS].sort());
  for (const definition of cold) {
    t.is(definition.type, definition.name.endsWith('_total') ? 'counter' : 'gauge');
    t.regex(definition.help, /Cold read path \(README "Cold reads"\)/);
  }
});

test('a fresh registry has every non-scrape family and starts unlabelled series at 0', async (t) => {
  const { registry, metrics } = createMetricsRegistry();
  const json = await registry.getMetricsAsJSON();
  const expected = METRIC_LIST.filter((d) => d.mode !== 'scrape').map((d) => d.name);
  t.deepEqual(json.map((m) => m.name), expected);
  const commits = json.find((m) => m.name === METRIC_DEFINITIONS.commits.name);
  t.deepEqual(commits?.values, [{ value: 0, labels: {} }]);
  metrics.tableRows.set({ table: 'trades' }, 5);
  t.regex(await registry.metrics(), /svc_table_rows\{table="trades"\} 5/);
});

test('two registries do not share state', async (t) => {
  const first = createMetricsRegistry();
  const second = createMetricsRegistry();
  first.metrics.commits.inc(3);
  t.regex(await first.registry.metrics(), /svc_commits_total 3/);
  t.regex(await second.registry.metrics(), /svc_commits_total 0/);
});
