// Runtime helpers of the math and conditional functions: directed rounding at a decimal scale,
// greatest/least that skip nulls, coalesce/nullif. Rounding treats a value within a few ulps of a decimal boundary as on it, so 0.29 rounds down to
// 0.29 (not 0.28, which 0.29 * 100 = 28.999999999999996 would give) — the decimal text the user wrote decides.

/** Relative distance under which a scaled value counts as an exact integer or an exact half. */
const ROUNDING_TOLERANCE = 1e-9;

function snapped(scaled: number): number {
  const nearest = Math.round(scaled);
  return Math.abs(scaled - nearest) <= ROUNDING_TOLERANCE * Math.max(1, Math.abs(scaled)) ? nearest : scaled;
}

function scaleFactor(scale: number): number {
  return 10 ** Math.trunc(scale);
}

export const mathRuntime = {
  /** Toward zero. */
  roundDown(value: number, scale: number): number {
    if (value !== value || scale !== scale) return NaN;
    const factor = scaleFactor(scale);
    return Math.trunc(snapped(value * factor)) / factor;
  },
  /** Away from zero. */
  roundUp(value: number, scale: number): number {
    if (value !== value || scale !== scale) return NaN;
    const factor = scaleFactor(scale);
    const scaled = snapped(Math.abs(value) * factor);
    return (value < 0 ? -Math.ceil(scaled) : Math.ceil(scaled)) / factor;
  },
  /** Nearest, ties to the even neighbour (banker's rounding). */
  roundHalfEven(value: number, scale: number): number {
    if (value !== value || scale !== scale) return NaN;
    const factor = scaleFactor(scale);
    const scaled = Math.abs(value) * factor;
    const floor = Math.floor(scaled);
    const fraction = scaled - floor;
    const tie = Math.abs(fraction - 0.5) <= ROUNDING_TOLERANCE * Math.max(1, scaled);
    const rounded = tie ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(snapped(scaled));
    return (value < 0 ? -rounded : rounded) / factor;
  },
  sign: (value: number): number => (value !== value ? NaN : value > 0 ? 1 : value < 0 ? -1 : 0),
  /** The larger of two values; a null loses to any value. */
  greatest2: (a: number, b: number): number => (a !== a ? b : b !== b ? a : a >= b ? a : b),
  least2: (a: number, b: number): number => (a !== a ? b : b !== b ? a : a <= b ? a : b),
  greatestText: (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a >= b ? a : b),
  leastText: (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a <= b ? a : b),
  log10: (value: number): number => Math.log10(value),
  // coalesce / nullif in both value domains (numbers with NaN null; text and UUID with null).
  coalesceNum: (a: number, b: number): number => (a === a ? a : b),
  coalesceText: (a: string | null, b: string | null): string | null => (a !== null ? a : b),
  nullifNum: (a: number, b: number): number => (a === b ? NaN : a),
  nullifText: (a: string | null, b: string | null): string | null => (a === b ? null : a),
};
