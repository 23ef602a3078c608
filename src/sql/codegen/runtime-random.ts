// Runtime helpers of the rnd_* generators and timestamp_sequence, over the process-wide generator of
// core/random.ts. Ranges are inclusive; a null rate N makes about one value in N null (0: never).
import { random32, randomBelow, randomDouble, randomLetters } from '../../core/random.js';

function isNullDraw(nullRate: number): boolean {
  return nullRate > 0 && randomBelow(nullRate) === 0;
}

const HEX = '0123456789abcdef';

export const randomRuntime = {
  rndBoolean: (): boolean => (random32() & 1) === 1,
  rndInt32: (): number => random32() | 0,
  /** Integers in [lo, hi]; null at the given rate. */
  rndRange: (lo: number, hi: number, nullRate: number): number => (isNullDraw(nullRate) ? NaN : lo + randomBelow(hi - lo + 1)),
  /** A LONG across ±2^53 (the exact range of the number domain). */
  rndLong: (): number => Math.trunc((randomDouble() * 2 - 1) * 9007199254740991),
  rndDouble: (nullRate: number): number => (isNullDraw(nullRate) ? NaN : randomDouble()),
  rndFloat: (nullRate: number): number => (isNullDraw(nullRate) ? NaN : Math.fround(randomDouble())),
  rndChar: (): string => String.fromCharCode(65 + randomBelow(26)),
  rndLetters: (minLength: number, maxLength: number, nullRate: number): string | null =>
    (isNullDraw(nullRate) ? null : randomLetters(minLength, maxLength)),
  /** One value of a pool built at bind time (rnd_symbol(count, ...), rnd_str(count, ...), rnd_str('a', 'b')). */
  rndPick: (pool: readonly (string | null)[], nullRate: number): string | null =>
    (isNullDraw(nullRate) ? null : (pool[randomBelow(pool.length)] ?? null)),
  rndUuid4(): string {
    let text = '';
    for (let k = 0; k < 32; k++) {
      const digit = k === 12 ? 4 : k === 16 ? 8 + randomBelow(4) : randomBelow(16);
      text += HEX[digit];
      if (k === 7 || k === 11 || k === 15 || k === 19) text += '-';
    }
    return text;
  },
  rndIpv4: (): number => random32() || 1,
  /**
   * start + (row - 1) * step, counting rows per call site and per run: `sequence` is the call site's state
   * (made at bind time), `rt` identifies the run, so a reused call site restarts when a new query runs it.
   */
  timestampSequence(rt: unknown, sequence: { run: unknown; row: number }, start: number, step: number): number {
    if (sequence.run !== rt) {
      sequence.run = rt;
      sequence.row = 0;
    }
    const row = sequence.row++;
    return start !== start || step !== step ? NaN : start + row * step;
  },
};
