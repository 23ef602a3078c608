// The plain-JSON form of one process's metrics that crosses IPC to the primary, how a process takes
// it from its prom-client registry, and the parser that narrows what comes back over IPC.
// A snapshot carries values only: help, type and aggregation mode come from the primary's own table,
// so a worker cannot change how its numbers are combined. The incarnation changes when a process
// restarts, which tells the collector that this worker's counters started again from zero.
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';

export const SNAPSHOT_FORMAT = 'svc-metrics-snapshot-1';

/** Bound on samples accepted from one snapshot (a table-rows gauge grows with the table count). */
export const snapshotSamplesMax = 200_000;

export interface SnapshotSample {
  /** Sample name as exposed: the family name, or <family>_bucket / _sum / _count for histograms. */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface SnapshotFamily {
  readonly name: string;
  readonly samples: readonly SnapshotSample[];
}

export interface MetricsSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly incarnation: string;
  readonly families: readonly SnapshotFamily[];
}

/** Identifies this process's lifetime; a restarted worker gets a new one. */
export const processIncarnation: string = randomUUID();

/**
 * Read every family of `registry` into a snapshot. Non-finite values are dropped because JSON (the
 * IPC encoding) turns NaN and Infinity into null.
 */
export async function takeRegistrySnapshot(registry: Registry, incarnation: string = processIncarnation): Promise<MetricsSnapshot> {
  const json = await registry.getMetricsAsJSON();
  const families: SnapshotFamily[] = [];
  for (const metric of json) {
    const samples: SnapshotSample[] = [];
    for (const value of metric.values) {
      if (!Number.isFinite(value.value)) continue;
      const sampleName = 'metricName' in value && typeof value.metricName === 'string' ? value.metricName : metric.name;
      samples.push({ name: sampleName, labels: stringLabels(value.labels), value: value.value });
    }
    families.push({ name: metric.name, samples });
  }
  return { format: SNAPSHOT_FORMAT, incarnation, families };
}

function stringLabels(labels: Partial<Record<string, string | number>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) {
    if (value !== undefined) result[key] = String(value);
  }
  return result;
}

/** Narrow a snapshot received over IPC; anything malformed yields undefined (treated as no answer). */
export function parseMetricsSnapshot(input: unknown): MetricsSnapshot | undefined {
  if (!isRecord(input) || input.format !== SNAPSHOT_FORMAT) return undefined;
  if (typeof input.incarnation !== 'string' || !Array.isArray(input.families)) return undefined;
  const families: SnapshotFamily[] = [];
  let sampleCount = 0;
  for (const family of input.families) {
    if (!isRecord(family) || typeof family.name !== 'string' || !Array.isArray(family.samples)) return undefined;
    sampleCount += family.samples.length;
    if (sampleCount > snapshotSamplesMax) return undefined;
    const samples: SnapshotSample[] = [];
    for (const sample of family.samples) {
      const parsed = parseSnapshotSample(sample);
      if (parsed === undefined) return undefined;
      samples.push(parsed);
    }
    families.push({ name: family.name, samples });
  }
  return { format: SNAPSHOT_FORMAT, incarnation: input.incarnation, families };
}

function parseSnapshotSample(input: unknown): SnapshotSample | undefined {
  if (!isRecord(input) || typeof input.name !== 'string' || typeof input.value !== 'number') return undefined;
  if (!Number.isFinite(input.value) || !isRecord(input.labels)) return undefined;
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.labels)) {
    if (typeof value !== 'string') return undefined;
    labels[key] = value;
  }
  return { name: input.name, labels, value: input.value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
