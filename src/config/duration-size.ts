// Text forms of durations and sizes used by server.conf, log.conf and environment overrides.
// Durations: a whole number with an optional unit (ms, s, m, h, d); a plain number is milliseconds, as in QuestDB.
// Sizes: a whole number with an optional 1024-based unit (k, m, g, t); a plain number is bytes.
// Both return null for malformed text so each caller can name its own key in the error.

const DURATION_PATTERN = /^(\d+)(ms|s|m|h|d)?$/i;
const SIZE_PATTERN = /^(\d+)([kmgt])?b?$/i;

const MS_PER_UNIT: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const BYTES_PER_UNIT: Readonly<Record<string, number>> = {
  '': 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
};

/** `500ms`, `60s`, `2m`, `1h`, `1d` or a plain number of milliseconds → milliseconds; null when malformed. */
export function parseDurationMs(text: string): number | null {
  const match = DURATION_PATTERN.exec(text.trim());
  if (match === null) return null;
  const unit = (match[2] ?? 'ms').toLowerCase();
  const perUnit = MS_PER_UNIT[unit];
  if (perUnit === undefined) return null;
  return scaleExactly(match[1] ?? '', perUnit);
}

/** `64k`, `4m`, `1g` (an optional trailing `b` is allowed: `64kb`) or a plain number of bytes → bytes; null when malformed. */
export function parseSizeBytes(text: string): number | null {
  const match = SIZE_PATTERN.exec(text.trim());
  if (match === null) return null;
  const perUnit = BYTES_PER_UNIT[(match[2] ?? '').toLowerCase()];
  if (perUnit === undefined) return null;
  return scaleExactly(match[1] ?? '', perUnit);
}

/** Milliseconds → the shortest exact text form (`90000` → `90s`, `1500` → `1500ms`), for docs and logs. */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return '0';
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const perUnit = MS_PER_UNIT[unit] ?? 1;
    if (ms % perUnit === 0) return `${ms / perUnit}${unit}`;
  }
  return `${ms}ms`;
}

/** Bytes → the shortest exact text form (`65536` → `64k`). */
export function formatSizeBytes(bytes: number): string {
  for (const unit of ['t', 'g', 'm', 'k'] as const) {
    const perUnit = BYTES_PER_UNIT[unit] ?? 1;
    if (bytes !== 0 && bytes % perUnit === 0) return `${bytes / perUnit}${unit}`;
  }
  return `${bytes}`;
}

/** Digits × unit, or null when the product is not an exact JS integer (so `99999999999t` is an error, not a rounded value). */
function scaleExactly(digits: string, perUnit: number): number | null {
  if (digits.length === 0) return null;
  const value = Number(digits) * perUnit;
  return Number.isSafeInteger(value) ? value : null;
}
