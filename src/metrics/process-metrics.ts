// Per-process gauges: resident memory, V8 heap in use, memory-mapped column bytes and event-loop lag.
// Sampled when a snapshot is taken (pull, no timer of our own), so an idle process does no work.
// Mapped bytes come from a getter cluster/ injects from storage/mmap.ts, because metrics/ may not import
// storage/. Lag is the largest delay perf_hooks saw since the previous sample: a CPU-heavy query that
// blocks a worker for seconds shows up as seconds, where a percentile would hide the one long stall.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { assert } from '../core/assert.js';
import type { SvcMetrics } from './registry.js';

/** Sampling period of the event-loop delay monitor; also the floor of what it can measure. */
export const eventLoopResolutionMsDefault = 10;

export interface ProcessMetricsOptions {
  /** Bytes currently memory-mapped by this process; 0 when not given. */
  readonly mappedBytes?: () => number;
  readonly eventLoopResolutionMs?: number;
}

export interface ProcessMetricsSampler {
  /** Set the per-process gauges from the current state; resets the lag window. */
  sample(): void;
  close(): void;
}

type ProcessGauges = Pick<SvcMetrics, 'residentMemory' | 'heapUsed' | 'mappedBytes' | 'eventLoopLag'>;

export function startProcessMetrics(metrics: ProcessGauges, options: ProcessMetricsOptions = {}): ProcessMetricsSampler {
  const resolutionMs = options.eventLoopResolutionMs ?? eventLoopResolutionMsDefault;
  assert(Number.isInteger(resolutionMs) && resolutionMs >= 1, 'event-loop resolution is a positive integer of ms (perf_hooks rejects others)');
  const monitor: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  monitor.enable();
  let closed = false;
  return {
    sample(): void {
      if (closed) return;
      metrics.residentMemory.set(process.memoryUsage.rss());
      metrics.heapUsed.set(process.memoryUsage().heapUsed);
      metrics.mappedBytes.set(readMappedBytes(options.mappedBytes));
      metrics.eventLoopLag.set(eventLoopLagSeconds(monitor, resolutionMs));
      monitor.reset();
    },
    close(): void {
      closed = true;
      monitor.disable();
    },
  };
}

/**
 * The monitor records the whole interval between its timer ticks, which includes the resolution it
 * asked for; the lag is what exceeds that. No ticks since the last reset reads as 0, not NaN.
 */
export function eventLoopLagSeconds(monitor: Pick<IntervalHistogram, 'count' | 'max'>, resolutionMs: number): number {
  if (monitor.count === 0) return 0;
  const lagNs = monitor.max - resolutionMs * 1e6;
  return lagNs > 0 ? lagNs / 1e9 : 0;
}

function readMappedBytes(getter: (() => number) | undefined): number {
  if (getter === undefined) return 0;
  try {
    const bytes = getter();
    return Number.isFinite(bytes) && bytes >= 0 ? bytes : 0;
  } catch {
    // A failing getter is storage's bug, reported where it happens; a scrape must still answer.
    return 0;
  }
}
