// Merging per-process snapshots: counters and histograms summed, gauges by their table mode
// (sum, max, per-process under a `process` label), stale data limited to counters and histograms.
import test from 'ava';
import { mergeContributions, renderPrometheusText, seriesKey, type Contribution } from '../../../src/metrics/cluster-aggregate.js';
import { METRIC_DEFINITIONS } from '../../../src/metrics/registry.js';
import { histogramFamily, sample, seriesValue, singleValueFamily } from '../../helpers/metrics-snapshots.js';
import type { SnapshotFamily } from '../../../src/metrics/snapshot.js';

const BUCKETS = METRIC_DEFINITIONS.queryDuration.buckets;

function fresh(processName: string, families: SnapshotFamily[]): Contribution {
  return { processName, families, monotonicOnly: false };
}

async function mergedText(contributions: Contribution[]): Promise<string> {
  return renderPrometheusText(mergeContributions(contributions), []);
}

test('counters are summed per label set', async (t) => {
  const requests = (n: number, status: string): SnapshotFamily => ({
    name: 'svc_http_requests_total',
    samples: [sample('svc_http_requests_total', n, { endpoint: 'execute', status })],
  });
  const text = await mergedText([
    fresh('primary', [singleValueFamily('svc_commits_total', 2)]),
    fresh('worker-1', [requests(3, '200'), singleValueFamily('svc_commits_total', 0)]),
    fresh('worker-2', [requests(4, '200'), requests(1, '400')]),
  ]);
  t.is(seriesValue(text, 'svc_http_requests_total', { endpoint: 'execute', status: '200' }), 7);
  t.is(seriesValue(text, 'svc_http_requests_total', { endpoint: 'execute', status: '400' }), 1);
  t.is(seriesValue(text, 'svc_commits_total'), 2);
});

test('histograms are summed bucket by bucket, with _sum and _count', async (t) => {
  const name = 'svc_query_duration_seconds';
  const text = await mergedText([
    fresh('worker-1', [histogramFamily(name, BUCKETS, [0.002, 0.3], { endpoint: 'execute' })]),
    fresh('worker-2', [histogramFamily(name, BUCKETS, [0.004, 20], { endpoint: 'execute' })]),
  ]);
  t.is(seriesValue(text, `${name}_bucket`, { endpoint: 'execute', le: '0.005' }), 2);
  t.is(seriesValue(text, `${name}_bucket`, { endpoint: 'execute', le: '0.5' }), 3);
  t.is(seriesValue(text, `${name}_bucket`, { endpoint: 'execute', le: '+Inf' }), 4);
  t.is(seriesValue(text, `${name}_count`, { endpoint: 'execute' }), 4);
  const sum = seriesValue(text, `${name}_sum`, { endpoint: 'execute' }) ?? Number.NaN;
  t.true(Math.abs(sum - 20.306) < 1e-9, `sum ${sum}`);
});

test('gauges follow their mode: sum for held counts, max for shared state, process label per process', async (t) => {
  const rows = (n: number): SnapshotFamily => ({ name: 'svc_table_rows', samples: [sample('svc_table_rows', n, { table: 'trades' })] });
  const text = await mergedText([
    fresh('primary', [singleValueFamily('svc_readers_open', 1), singleValueFamily('svc_tables', 3), rows(100), singleValueFamily('svc_process_resident_memory_bytes', 1000)]),
    fresh('worker-1', [singleValueFamily('svc_readers_open', 2), singleValueFamily('svc_tables', 2), rows(90), singleValueFamily('svc_process_resident_memory_bytes', 2000)]),
    fresh('worker-2', [singleValueFamily('svc_readers_open', 4), singleValueFamily('svc_tables', 3), rows(100), singleValueFamily('svc_process_resident_memory_bytes', 3000)]),
  ]);
  t.is(seriesValue(text, 'svc_readers_open'), 7);
  t.is(seriesValue(text, 'svc_tables'), 3);
  t.is(seriesValue(text, 'svc_table_rows', { table: 'trades' }), 100);
  t.is(seriesValue(text, 'svc_process_resident_memory_bytes', { process: 'primary' }), 1000);
  t.is(seriesValue(text, 'svc_process_resident_memory_bytes', { process: 'worker-1' }), 2000);
  t.is(seriesValue(text, 'svc_process_resident_memory_bytes', { process: 'worker-2' }), 3000);
  t.is(seriesValue(text, 'svc_process_resident_memory_bytes'), undefined, 'never an unlabelled total');
});

test('stale contributions add counters and histograms but no gauges', (t) => {
  const merged = mergeContributions([
    fresh('primary', [singleValueFamily('svc_commits_total', 1), singleValueFamily('svc_readers_open', 1)]),
    { processName: 'worker-1', monotonicOnly: true, families: [singleValueFamily('svc_commits_total', 5), singleValueFamily('svc_readers_open', 9)] },
  ]);
  const byName = new Map(merged.map((f) => [f.definition.name, f.samples]));
  t.is(byName.get('svc_commits_total')?.[0]?.value, 6);
  t.is(byName.get('svc_readers_open')?.[0]?.value, 1);
});

test('unknown and scrape-mode names from a process are ignored; families come in table order', (t) => {
  const merged = mergeContributions([
    fresh('worker-1', [singleValueFamily('svc_tables', 1), singleValueFamily('svc_not_ours', 1), singleValueFamily('svc_metrics_scrape_partial', 1), singleValueFamily('svc_unhandled_errors_total', 0)]),
  ]);
  t.deepEqual(merged.map((f) => f.definition.name), ['svc_unhandled_errors_total', 'svc_tables']);
});

test('series keys do not depend on label order', (t) => {
  t.is(seriesKey('m', { a: '1', b: '2' }), seriesKey('m', { b: '2', a: '1' }));
  t.not(seriesKey('m', { a: '1' }), seriesKey('m', { a: '2' }));
});

test('rendering escapes label values and appends comments as # lines', async (t) => {
  const text = await renderPrometheusText(
    mergeContributions([fresh('primary', [{ name: 'svc_table_rows', samples: [sample('svc_table_rows', 1, { table: 'a"b\\c\nd' })] }])]),
    ['first\nsecond'],
  );
  t.true(text.includes('svc_table_rows{table="a\\"b\\\\c\\nd"} 1'));
  t.true(text.endsWith('# first second\n'));
  t.true(text.includes('# TYPE svc_table_rows gauge'));
  t.true(text.includes('# HELP svc_table_rows '));
});
