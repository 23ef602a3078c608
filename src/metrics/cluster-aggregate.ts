// Merge per-process metric snapshots into one exposition, each metric by its table mode: counters and
// histograms summed (bucket counts add up), 'sum' gauges summed, 'max' gauges maximised, 'per-process'
// gauges kept apart under a `process` label. Pure: state (stale snapshots, restarted workers) lives in
// cluster-collector.ts. Rendering goes through prom-client so escaping and number format are its own.
import { AggregatorRegistry } from 'prom-client';
import { assert } from '../core/assert.js';
import { METRIC_LIST, metricDefinitionOf, type MetricDefinition } from './registry.js';
import type { SnapshotFamily, SnapshotSample } from './snapshot.js';

/** One process's part of a scrape. */
export interface Contribution {
  /** `primary`, `worker-<slot>`, or `retired` for counters left by earlier lives of restarted workers. */
  readonly processName: string;
  readonly families: readonly SnapshotFamily[];
  /**
   * Stale or retired data: only counters and histograms are taken (their old values are still a true
   * lower bound and keep the sums monotonic); gauges are dropped because an old gauge value is a guess.
   */
  readonly monotonicOnly: boolean;
}

export interface MergedFamily {
  readonly definition: MetricDefinition;
  readonly samples: readonly SnapshotSample[];
}

export function isMonotonic(definition: MetricDefinition): boolean {
  return definition.type !== 'gauge';
}

/** Families in table order; families nobody reported are absent. Unknown names are ignored. */
export function mergeContributions(contributions: readonly Contribution[]): MergedFamily[] {
  const byFamily = new Map<string, Map<string, SnapshotSample>>();
  for (const contribution of contributions) {
    for (const family of contribution.families) {
      const definition = metricDefinitionOf(family.name);
      // A name we do not define comes from a worker of another build: skip rather than guess its mode.
      if (definition === undefined || definition.mode === 'scrape') continue;
      if (contribution.monotonicOnly && !isMonotonic(definition)) continue;
      let series = byFamily.get(definition.name);
      if (series === undefined) {
        series = new Map();
        byFamily.set(definition.name, series);
      }
      mergeFamilySamples(series, definition, family.samples, contribution.processName);
    }
  }
  const merged: MergedFamily[] = [];
  for (const definition of METRIC_LIST) {
    const series = byFamily.get(definition.name);
    if (series !== undefined) merged.push({ definition, samples: [...series.values()] });
  }
  return merged;
}

function mergeFamilySamples(
  series: Map<string, SnapshotSample>,
  definition: MetricDefinition,
  samples: readonly SnapshotSample[],
  processName: string,
): void {
  for (const sample of samples) {
    const labels = definition.mode === 'per-process' ? { ...sample.labels, process: processName } : sample.labels;
    const key = seriesKey(sample.name, labels);
    const previous = series.get(key);
    if (previous === undefined) {
      series.set(key, { name: sample.name, labels, value: sample.value });
      continue;
    }
    // per-process series never collide (one contribution per process name), so only sum and max merge.
    assert(definition.mode !== 'per-process', `two contributions named ${processName} for ${definition.name}`);
    const value = definition.mode === 'max' ? Math.max(previous.value, sample.value) : previous.value + sample.value;
    series.set(key, { name: sample.name, labels, value });
  }
}

/** Identity of one series: sample name plus labels in sorted order. */
export function seriesKey(name: string, labels: Readonly<Record<string, string>>): string {
  const keys = Object.keys(labels).sort();
  let key = name;
  for (const label of keys) key += `\u0000${label}\u0001${labels[label]}`;
  return key;
}

/** A family computed by the collector itself (mode 'scrape'). */
export function scrapeFamily(definition: MetricDefinition, value: number): MergedFamily {
  assert(definition.mode === 'scrape', `${definition.name} is not computed at scrape time`);
  return { definition, samples: [{ name: definition.name, labels: {}, value }] };
}

/**
 * Prometheus text format 0.0.4. `comments` become `# …` lines at the end, which parsers skip; they
 * say why a scrape is partial without failing it.
 */
export async function renderPrometheusText(families: readonly MergedFamily[], comments: readonly string[]): Promise<string> {
  // prom-client's aggregate() accepts getMetricsAsJSON()-shaped objects; each family here has one
  // entry, already merged, so its 'sum' aggregator only copies values through.
  const json = families.map((family) => ({
    name: family.definition.name,
    help: family.definition.help,
    type: family.definition.type,
    aggregator: 'sum',
    values: family.samples.map((sample) => ({ metricName: sample.name, labels: sample.labels, value: sample.value })),
  }));
  const text = await AggregatorRegistry.aggregate([json]).metrics();
  let tail = '';
  for (const comment of comments) tail += `# ${comment.replace(/\n/g, ' ')}\n`;
  return text + tail;
}
