// Named builders for metric snapshots as workers would send them, and a small reader of Prometheus
// text so tests can assert values by series instead of matching whole expositions.
import { SNAPSHOT_FORMAT, type MetricsSnapshot, type SnapshotFamily, type SnapshotSample } from '../../src/metrics/snapshot.js';

export function sample(name: string, value: number, labels: Record<string, string> = {}): SnapshotSample {
  return { name, labels, value };
}

/** A family with one unlabelled sample named like the family (counters, plain gauges). */
export function singleValueFamily(name: string, value: number): SnapshotFamily {
  return { name, samples: [sample(name, value)] };
}

/**
 * A histogram family for `buckets` upper bounds with `observations` already counted: cumulative
 * bucket counts, then _sum and _count, as prom-client lays them out.
 */
export function histogramFamily(name: string, buckets: readonly number[], observations: readonly number[], labels: Record<string, string> = {}): SnapshotFamily {
  const samples: SnapshotSample[] = [];
  for (const bound of buckets) {
    const count = observations.filter((o) => o <= bound).length;
    samples.push(sample(`${name}_bucket`, count, { ...labels, le: String(bound) }));
  }
  samples.push(sample(`${name}_bucket`, observations.length, { ...labels, le: '+Inf' }));
  samples.push(sample(`${name}_sum`, observations.reduce((a, b) => a + b, 0), labels));
  samples.push(sample(`${name}_count`, observations.length, labels));
  return { name, samples };
}

export function snapshotOf(incarnation: string, families: readonly SnapshotFamily[]): MetricsSnapshot {
  return { format: SNAPSHOT_FORMAT, incarnation, families };
}

/** As it arrives over IPC: JSON-encoded and decoded, so typed as unknown. */
export function overIpc(snapshot: MetricsSnapshot): unknown {
  const decoded: unknown = JSON.parse(JSON.stringify(snapshot));
  return decoded;
}

/** Value of one series in Prometheus text, or undefined when absent. Labels must match exactly. */
export function seriesValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const parsed = parseSeriesLine(line);
    if (parsed.name !== name || !sameLabels(parsed.labels, labels)) continue;
    return parsed.value;
  }
  return undefined;
}

function parseSeriesLine(line: string): { name: string; labels: Record<string, string>; value: number } {
  const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
  if (match === null) throw new Error(`not a series line: ${line}`);
  const labels: Record<string, string> = {};
  const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (const label of (match[3] ?? '').matchAll(labelPattern)) {
    labels[label[1]] = label[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return { name: match[1], labels, value: Number(match[4]) };
}

function sameLabels(actual: Record<string, string>, expected: Record<string, string>): boolean {
  const keys = Object.keys(actual);
  return keys.length === Object.keys(expected).length && keys.every((key) => actual[key] === expected[key]);
}
