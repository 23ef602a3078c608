// Time zone offsets for SAMPLE BY ... ALIGN TO CALENDAR TIME ZONE: IANA names through the runtime's ICU data
// (Intl), fixed offsets written as '±HH:mm', '±HHmm', '±HH' (optionally after UTC/GMT), and 'UTC'/'Z'. Offsets are
// µs to add to UTC to get local wall-clock time. Lookups cost a few µs through Intl, so they are cached per hour.
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from './timestamp-calendar.js';

/** The largest |milliseconds| a JS Date holds, less a day so a transition search around it stays in range. */
const JS_DATE_MILLIS_MAX = 8.64e15 - 86_400_000;

export interface TimeZoneRules {
  readonly name: string;
  /** Local minus UTC at the UTC instant `utcMicros`. */
  offsetAt(utcMicros: number): number;
  /** The UTC instant of local wall-clock time `localMicros` (the earlier one in a repeated hour; in a DST gap, one offset later). */
  toUtc(localMicros: number): number;
  /** The zone's offset without daylight saving around `utcMicros` (the smaller of its January and July offsets). */
  standardOffsetAt(utcMicros: number): number;
}

const FIXED_OFFSET = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const DAYS_182_MICROS = 182 * 24 * MICROS_PER_HOUR;

function fixedRules(name: string, offset: number): TimeZoneRules {
  return { name, offsetAt: () => offset, toUtc: (local) => local - offset, standardOffsetAt: () => offset };
}

/** Rules for a zone name, or undefined when neither Intl nor the fixed-offset forms know it. */
export function resolveTimeZone(name: string): TimeZoneRules | undefined {
  const trimmed = name.trim();
  if (/^(UTC|GMT|Z)$/i.test(trimmed)) return fixedRules(trimmed, 0);
  const fixed = FIXED_OFFSET.exec(trimmed);
  if (fixed !== null) {
    const hours = Number(fixed[2]);
    const minutes = Number(fixed[3] ?? '0');
    if (hours > 23 || minutes > 59) return undefined;
    return fixedRules(trimmed, (fixed[1] === '-' ? -1 : 1) * (hours * MICROS_PER_HOUR + minutes * MICROS_PER_MINUTE));
  }
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: trimmed, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return undefined;
  }
  return new IntlZoneRules(trimmed, format);
}

class IntlZoneRules implements TimeZoneRules {
  private readonly byHour = new Map<number, number>();

  constructor(readonly name: string, private readonly format: Intl.DateTimeFormat) {}

  offsetAt(utcMicros: number): number {
    // Zone transitions happen on whole hours or half hours in every current zone and on whole minutes
    // historically, so an hour's offset is read at its start only when the hour has no transition inside.
    const hour = Math.floor(utcMicros / MICROS_PER_HOUR);
    const cached = this.byHour.get(hour);
    if (cached !== undefined) return cached;
    const start = this.readOffset(hour * MICROS_PER_HOUR);
    const end = this.readOffset((hour + 1) * MICROS_PER_HOUR - 1);
    if (start === end) {
      this.byHour.set(hour, start);
      return start;
    }
    return this.readOffset(utcMicros);
  }

  toUtc(localMicros: number): number {
    // The offsets a day either side bracket any transition near this wall-clock time. When both fit (the
    // repeated hour of a fall-back change) the earlier instant wins, as java.time resolves it; when neither
    // fits (the skipped hour of a spring-forward change) the old offset moves the clock forward.
    const before = this.offsetAt(localMicros - MICROS_PER_DAY);
    const after = this.offsetAt(localMicros + MICROS_PER_DAY);
    const early = localMicros - before;
    if (before === after || this.offsetAt(early) === before) return early;
    const late = localMicros - after;
    return this.offsetAt(late) === after ? late : early;
  }

  standardOffsetAt(utcMicros: number): number {
    return Math.min(this.offsetAt(utcMicros), this.offsetAt(utcMicros + DAYS_182_MICROS));
  }

  private readOffset(utcMicros: number): number {
    // Intl knows dates within ±8.64e15 ms only; beyond that (absurd strides or bounds) the offset at the edge
    // stands in, rather than an exception escaping as a 500.
    const millis = Math.max(-JS_DATE_MILLIS_MAX, Math.min(JS_DATE_MILLIS_MAX, Math.floor(utcMicros / 1000)));
    const fields: Record<string, number> = {};
    for (const part of this.format.formatToParts(new Date(millis))) {
      if (part.type !== 'literal') fields[part.type] = Number(part.value);
    }
    const wall = Date.UTC(fields['year'] ?? 1970, (fields['month'] ?? 1) - 1, fields['day'] ?? 1, fields['hour'] ?? 0, fields['minute'] ?? 0, fields['second'] ?? 0);
    // Offsets are whole seconds; the wall clock drops the milliseconds of `millis`.
    return (wall - (millis - (((millis % 1000) + 1000) % 1000))) * 1000;
  }
}
