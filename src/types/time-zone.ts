// Time zones for to_timezone / to_utc (and anything else that needs a zone's UTC offset at an instant):
// fixed offsets ('+01:00', '-0800', 'UTC', 'Z'), IANA names through Intl, and the Java short ids QuestDB
// accepts ('PST' = America/Los_Angeles). Offsets come from Intl.DateTimeFormat, which is slow, so each zone
// caches the offset of the last 15-minute slot it answered (zone transitions fall on quarter hours) plus a
// bounded map of recent slots.
import { MICROS_PER_HOUR, MICROS_PER_MINUTE, daysFromCivil, MICROS_PER_DAY } from './timestamp-calendar.js';

export interface TimeZone {
  readonly name: string;
  /** Offset in µs to add to a UTC instant to get the local wall clock at that instant. */
  offsetAt(utcMicros: number): number;
}

/** Java's ZoneId.SHORT_IDS (what QuestDB resolves three-letter names with) plus CEST, which QuestDB also accepts. */
const SHORT_IDS: Readonly<Record<string, string>> = {
  ACT: 'Australia/Darwin', AET: 'Australia/Sydney', AGT: 'America/Argentina/Buenos_Aires', ART: 'Africa/Cairo',
  AST: 'America/Anchorage', BET: 'America/Sao_Paulo', BST: 'Asia/Dhaka', CAT: 'Africa/Harare', CNT: 'America/St_Johns',
  CST: 'America/Chicago', CTT: 'Asia/Shanghai', EAT: 'Africa/Addis_Ababa', ECT: 'Europe/Paris',
  IET: 'America/Indiana/Indianapolis', IST: 'Asia/Kolkata', JST: 'Asia/Tokyo', MIT: 'Pacific/Apia', NET: 'Asia/Yerevan',
  NST: 'Pacific/Auckland', PLT: 'Asia/Karachi', PNT: 'America/Phoenix', PRT: 'America/Puerto_Rico',
  PST: 'America/Los_Angeles', SST: 'Pacific/Guadalcanal', VST: 'Asia/Ho_Chi_Minh', EST: '-05:00', MST: '-07:00',
  HST: '-10:00', CEST: '+02:00',
};

const SLOT_MICROS = 15 * MICROS_PER_MINUTE;
/** Slots one zone remembers before its map is emptied. */
const zoneSlotCacheEntriesMax = 4096;
/** Distinct zone names kept resolved. */
const zoneCacheEntriesMax = 256;
const zones = new Map<string, TimeZone | null>();

/** The zone a name denotes, or undefined when it is neither an offset nor a known zone. */
export function resolveTimeZone(name: string): TimeZone | undefined {
  let zone = zones.get(name);
  if (zone === undefined) {
    if (zones.size >= zoneCacheEntriesMax) zones.clear();
    zone = createZone(name) ?? null;
    zones.set(name, zone);
  }
  return zone ?? undefined;
}

function createZone(name: string): TimeZone | undefined {
  const fixed = parseOffsetMicros(name);
  if (fixed !== undefined) return { name, offsetAt: () => fixed };
  const alias = SHORT_IDS[name.toUpperCase()];
  if (alias !== undefined) {
    const aliasOffset = parseOffsetMicros(alias);
    return aliasOffset !== undefined ? { name, offsetAt: () => aliasOffset } : intlZone(name, alias);
  }
  return intlZone(name, name);
}

/** '+01:00', '-0800', '+01', 'UTC', 'GMT', 'Z', 'UTC+01:00' → µs; undefined for anything else. */
export function parseOffsetMicros(text: string): number | undefined {
  const upper = text.toUpperCase();
  if (upper === 'Z' || upper === 'UTC' || upper === 'GMT') return 0;
  const body = upper.startsWith('UTC') || upper.startsWith('GMT') ? upper.slice(3) : upper;
  const match = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(body);
  if (match === null) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > 23 || minutes > 59) return undefined;
  const magnitude = hours * MICROS_PER_HOUR + minutes * MICROS_PER_MINUTE;
  return match[1] === '-' ? -magnitude : magnitude;
}

function intlZone(name: string, ianaName: string): TimeZone | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: ianaName, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
    });
  } catch {
    return undefined;
  }
  const slots = new Map<number, number>();
  let lastSlot = Number.NaN;
  let lastOffset = 0;
  return {
    name,
    offsetAt(utcMicros: number): number {
      const slot = Math.floor(utcMicros / SLOT_MICROS);
      if (slot === lastSlot) return lastOffset;
      let offset = slots.get(slot);
      if (offset === undefined) {
        if (slots.size >= zoneSlotCacheEntriesMax) slots.clear();
        offset = intlOffset(format, slot * SLOT_MICROS);
        slots.set(slot, offset);
      }
      lastSlot = slot;
      lastOffset = offset;
      return offset;
    },
  };
}

/** Local wall clock minus UTC at an instant, read from the formatted parts (whole seconds). */
function intlOffset(format: Intl.DateTimeFormat, utcMicros: number): number {
  const millis = Math.floor(utcMicros / 1000);
  const date = new Date(millis);
  if (Number.isNaN(date.getTime())) return 0;
  let year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  let bc = false;
  for (const part of format.formatToParts(date)) {
    const value = Number(part.value);
    switch (part.type) {
      case 'year': year = value; break;
      case 'month': month = value; break;
      case 'day': day = value; break;
      case 'hour': hour = value; break;
      case 'minute': minute = value; break;
      case 'second': second = value; break;
      case 'era': bc = part.value.startsWith('B'); break;
      default: break;
    }
  }
  if (bc) year = 1 - year;
  const localMicros = daysFromCivil(year, month, day) * MICROS_PER_DAY + hour * MICROS_PER_HOUR + minute * MICROS_PER_MINUTE + second * 1_000_000;
  const utcWholeSeconds = Math.floor(millis / 1000) * 1_000_000;
  return localMicros - utcWholeSeconds;
}

/** The UTC instant whose local wall clock in `zone` reads `localMicros`; in a DST gap, the clock moves forward. */
export function localToUtc(zone: TimeZone, localMicros: number): number {
  const first = zone.offsetAt(localMicros);
  const candidate = localMicros - first;
  const second = zone.offsetAt(candidate);
  if (second === first) return candidate;
  // The offset changed between the two guesses: in a DST gap this moves the clock forward by the jump.
  return localMicros - second;
}
