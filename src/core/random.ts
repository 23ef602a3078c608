// The process-wide pseudo-random generator behind the SQL rnd_* functions: xoshiro128** (Blackman and
// Vigna), seeded from the OS at start-up. Fast and allocation-free; not cryptographic and not reproducible
// across runs (QuestDB's generator values are not portable either).
import { randomFillSync } from 'node:crypto';

const state = new Uint32Array(4);
randomFillSync(state);
if (state[0] === 0 && state[1] === 0 && state[2] === 0 && state[3] === 0) state[0] = 1;

function rotl(value: number, shift: number): number {
  return (value << shift) | (value >>> (32 - shift));
}

/** 32 random bits as an unsigned number. */
export function random32(): number {
  const s = state;
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] = s[2] ^ s[0];
  s[3] = s[3] ^ s[1];
  s[1] = s[1] ^ s[2];
  s[0] = s[0] ^ s[3];
  s[2] = s[2] ^ t;
  s[3] = rotl(s[3], 11);
  return result;
}

/** Uniform in [0, 1) with 53 random bits. */
export function randomDouble(): number {
  return ((random32() >>> 5) * 67108864 + (random32() >>> 6)) / 9007199254740992;
}

/** Uniform integer in [0, n). */
export function randomBelow(n: number): number {
  return Math.floor(randomDouble() * n);
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Upper-case letters (QuestDB's rnd_str alphabet), length uniform in [minLength, maxLength]. */
export function randomLetters(minLength: number, maxLength: number): string {
  const length = minLength + randomBelow(maxLength - minLength + 1);
  let text = '';
  for (let k = 0; k < length; k++) text += LETTERS[randomBelow(26)];
  return text;
}
