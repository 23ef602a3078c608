// One process's metrics, started by cluster/ in the primary and in every worker when metrics.enabled:
// a fresh registry with the whole table, the diagnostics-channel subscribers, and the process gauges.
// Workers answer the primary's snapshot requests with takeSnapshot(); the primary passes its own
// takeSnapshot to createClusterMetricsCollector. When metrics are disabled nothing here is started and
// the svc:* channels have no subscribers, so publishers skip their work.
import type { Registry } from 'prom-client';
import { subscribeMetricsChannels } from './channels.js';
import { startProcessMetrics, type ProcessMetricsOptions } from './process-metrics.js';
import { createMetricsRegistry, type SvcMetrics } from './registry.js';
import { processIncarnation, takeRegistrySnapshot, type MetricsSnapshot } from './snapshot.js';

export interface MetricsRuntime {
  readonly metrics: SvcMetrics;
  readonly registry: Registry;
  /** This process's metrics as plain JSON (the IPC payload for the primary's collector). */
  takeSnapshot(): Promise<MetricsSnapshot>;
  /** Unhandled errors seen here, including worker errors the primary republished; for health. */
  unhandledErrorsSeen(): number;
  /** Unsubscribe and stop sampling; idempotent. */
  close(): void;
}

export interface MetricsRuntimeOptions extends ProcessMetricsOptions {
  /** Defaults to this process's random incarnation; tests set it to play several processes. */
  readonly incarnation?: string;
}

export function startMetricsRuntime(options: MetricsRuntimeOptions = {}): MetricsRuntime {
  const { registry, metrics } = createMetricsRegistry();
  const subscription = subscribeMetricsChannels(metrics);
  const sampler = startProcessMetrics(metrics, options);
  const incarnation = options.incarnation ?? processIncarnation;
  let closed = false;
  return {
    metrics,
    registry,
    takeSnapshot(): Promise<MetricsSnapshot> {
      sampler.sample();
      return takeRegistrySnapshot(registry, incarnation);
    },
    unhandledErrorsSeen: () => subscription.unhandledErrorsSeen(),
    close(): void {
      if (closed) return;
      closed = true;
      subscription.unsubscribe();
      sampler.close();
    },
  };
}
