// SAMPLE BY bucket boundaries. A Sampler maps a UTC timestamp to the start of its bucket and a bucket start to
// the next one. Fixed-length strides (U T s m h, and d w without a time zone) are one floorMod from an origin:
// the epoch-based calendar origin (weeks from Monday 1969-12-29) shifted by WITH OFFSET, the FROM timestamp, or
// the first observation. In a time zone with daylight saving every stride floors local wall-clock time (hours
// follow the local clock; days, weeks, months and years follow local midnight, so a day bucket lasts 23h/25h
// at DST changes, and the repeated local hour of a fall-back change is one bucket); the result goes back to UTC.
import { addUnits, floorToUnit, unitMicros } from '../../types/timestamp.js';
import { MICROS_PER_DAY, addMonths, floorMod, monthOf, yearOf } from '../../types/timestamp-calendar.js';
import type { TimeZoneRules } from '../../types/time-zone-rules.js';
import { assert } from '../../core/assert.js';
import type { SamplerSpec } from '../plan/plan-specs.js';
export type { SamplerSpec };

export interface Sampler {
  /** Start (UTC) of the bucket holding `micros`. */
  bucketOf(micros: number): number;
  /** Start (UTC) of the bucket after the one starting at `start`. */
  nextBucket(start: number): number;
  /** The fixed bucket width in µs, or 0 when widths vary (months, years, local days). */
  readonly stepMicros: number;
}

/**
 * `origin`: the FROM timestamp (local wall-clock time when a time zone is given) or, for ALIGN TO FIRST
 * OBSERVATION, the first row's timestamp; undefined for plain calendar alignment. `reference` is a timestamp in
 * the sampled range, used to pick the time zone's standard offset.
 */
export function createSampler(spec: SamplerSpec, origin: number | undefined, reference: number): Sampler {
  assert(Number.isInteger(spec.count) && spec.count >= 1, 'sample strides are validated as positive integers');
  const fixed = unitMicros(spec.unit);
  const zone = spec.timeZone;
  const subDay = fixed !== undefined && fixed < MICROS_PER_DAY;
  if (fixed !== undefined && (zone === undefined || (subDay && hasFixedOffset(zone, reference)))) {
    const standard = zone === undefined ? 0 : zone.offsetAt(reference);
    const step = fixed * spec.count;
    // Calendar origin: the epoch (a Monday for weeks), moved by the offset; all in local time, then back to UTC.
    let start = origin === undefined ? spec.offsetMicros + (spec.unit === 'w' ? -3 * MICROS_PER_DAY : 0) : origin;
    if (origin !== undefined && !spec.alignFirstObservation) start += spec.offsetMicros;
    if (zone !== undefined && !spec.alignFirstObservation) start -= standard;
    return new FixedSampler(start, step);
  }
  return new CalendarSampler(spec, origin === undefined ? undefined : origin + (spec.alignFirstObservation ? 0 : spec.offsetMicros));
}

/** Whether the zone keeps one offset through the year around `reference` (no daylight saving there). */
function hasFixedOffset(zone: TimeZoneRules, reference: number): boolean {
  const offset = zone.offsetAt(reference);
  for (let quarter = 1; quarter < 4; quarter++) {
    if (zone.offsetAt(reference + quarter * 91 * MICROS_PER_DAY) !== offset) return false;
  }
  return true;
}

class FixedSampler implements Sampler {
  constructor(private readonly origin: number, readonly stepMicros: number) {}

  bucketOf(micros: number): number {
    return micros - floorMod(micros - this.origin, this.stepMicros);
  }

  nextBucket(start: number): number {
    return start + this.stepMicros;
  }
}

/** Buckets of varying width: months and years, or days and weeks in local time. Works in local time. */
class CalendarSampler implements Sampler {
  readonly stepMicros = 0;
  private readonly zone: TimeZoneRules | undefined;

  constructor(private readonly spec: SamplerSpec, private readonly origin: number | undefined) {
    this.zone = spec.timeZone;
  }

  bucketOf(micros: number): number {
    const local = this.zone === undefined ? micros : micros + this.zone.offsetAt(micros);
    const start = this.floorLocal(local);
    return this.zone === undefined ? start : this.zone.toUtc(start);
  }

  nextBucket(start: number): number {
    const zone = this.zone;
    const local = zone === undefined ? start : start + zone.offsetAt(start);
    const bucket = this.floorLocal(local);
    const next = this.isMonthly() && this.origin !== undefined
      ? addMonths(this.origin, (this.monthIndex(bucket) + this.monthStride()))
      : addUnits(bucket, this.spec.count, this.spec.unit);
    return zone === undefined ? next : zone.toUtc(next);
  }

  private isMonthly(): boolean {
    return this.spec.unit === 'M' || this.spec.unit === 'y';
  }

  private monthStride(): number {
    return this.spec.unit === 'y' ? 12 * this.spec.count : this.spec.count;
  }

  /** Start of the local-time bucket holding local time `local`. */
  private floorLocal(local: number): number {
    const { count, unit, offsetMicros } = this.spec;
    const origin = this.origin;
    if (origin === undefined) return floorToUnit(local - offsetMicros, count, unit) + offsetMicros;
    if (!this.isMonthly()) {
      const step = (unitMicros(unit) ?? MICROS_PER_DAY) * count;
      return local - floorMod(local - origin, step);
    }
    return addMonths(origin, this.monthIndex(local));
  }

  /** Months from the origin to the bucket holding `local`, a multiple of the stride (origin-based strides only). */
  private monthIndex(local: number): number {
    const origin = this.origin as number;
    const stride = this.monthStride();
    const months = (yearOf(local) - yearOf(origin)) * 12 + monthOf(local) - monthOf(origin);
    let index = months - floorMod(months, stride);
    // addMonths clamps the day of month, so the candidate may still lie after `local`.
    while (addMonths(origin, index) > local) index -= stride;
    return index;
  }
}
