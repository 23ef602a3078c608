// The snapshot that crosses IPC: taken from a prom-client registry, survives JSON, and the parser
// rejects anything malformed (which the collector then treats as "no answer").
import test from 'ava';
import { createMetricsRegistry } from '../../../src/metrics/registry.js';
import { parseMetricsSnapshot, SNAPSHOT_FORMAT, snapshotSamplesMax, takeRegistrySnapshot } from '../../../src/metrics/snapshot.js';
import { overIpc, sample, snapshotOf } from '../../helpers/metrics-snapshots.js';

test('a registry snapshot survives JSON and names histogram samples', async (t) => {
  const { registry, metrics } = createMetricsRegistry();
  metrics.queryDuration.observe({ endpoint: 'execute' }, 0.02);
  metrics.tableRows.set({ table: 'trades' }, 7);
  const snapshot = await takeRegistrySnapshot(registry, 'life-1');
  const parsed = parseMetricsSnapshot(overIpc(snapshot));
  t.deepEqual(parsed, snapshot);
  const histogram = parsed?.families.find((f) => f.name === 'svc_query_duration_seconds');
  t.deepEqual(histogram?.samples.find((s) => s.labels.le === '0.025'), sample('svc_query_duration_seconds_bucket', 1, { le: '0.025', endpoint: 'execute' }));
  t.deepEqual(histogram?.samples.at(-1), sample('svc_query_duration_seconds_count', 1, { endpoint: 'execute' }));
  t.is(parsed?.incarnation, 'life-1');
});

test('non-finite values are left out of a snapshot (JSON would turn them into null)', async (t) => {
  const { registry, metrics } = createMetricsRegistry();
  metrics.readersOpen.set(Number.NaN);
  const snapshot = await takeRegistrySnapshot(registry, 'x');
  t.deepEqual(snapshot.families.find((f) => f.name === 'svc_readers_open')?.samples, []);
});

test('malformed input parses to undefined', (t) => {
  const good = snapshotOf('x', [{ name: 'svc_tables', samples: [sample('svc_tables', 1)] }]);
  t.truthy(parseMetricsSnapshot(overIpc(good)));
  const bad: unknown[] = [
    undefined, null, 'text', [], {},
    { ...good, format: 'other' },
    { ...good, incarnation: 1 },
    { ...good, families: {} },
    { ...good, families: [{ name: 'svc_tables', samples: [{ name: 'svc_tables', labels: {}, value: null }] }] },
    { ...good, families: [{ name: 'svc_tables', samples: [{ name: 'svc_tables', labels: { a: 1 }, value: 1 }] }] },
    { ...good, families: [{ name: 'svc_tables', samples: [{ name: 'svc_tables', value: 1 }] }] },
    { ...good, families: [{ samples: [] }] },
  ];
  for (const input of bad) t.is(parseMetricsSnapshot(input), undefined, JSON.stringify(input));
});

test('a snapshot over the sample bound is rejected', (t) => {
  const samples = Array.from({ length: snapshotSamplesMax + 1 }, (_, i) => sample('svc_table_rows', i, { table: `t${i}` }));
  t.is(parseMetricsSnapshot({ format: SNAPSHOT_FORMAT, incarnation: 'x', families: [{ name: 'svc_table_rows', samples }] }), undefined);
});
