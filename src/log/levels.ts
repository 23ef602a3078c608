// Log levels: the record letters, their bits (QuestDB's values) and the parsing of a writer's `level` list.
// A writer's levels are a bit set, not a threshold: `DEBUG,ERROR` writes DEBUG and ERROR+ but not INFO.
import { ConfigError } from '../core/errors.js';
import { LOG_DEBUG_ENV } from '../config/log-keys.js';

export type LogLevelLetter = 'A' | 'C' | 'E' | 'I' | 'D';

export const LOG_LEVEL_LETTERS: readonly LogLevelLetter[] = ['D', 'I', 'E', 'C', 'A'];

/** Bit per level, lowest first, as QuestDB numbers them: a listed level enables every bit above it. */
export const LEVEL_BITS: Readonly<Record<LogLevelLetter, number>> = { D: 1, I: 2, E: 4, C: 8, A: 16 };

export const ALL_LEVELS_MASK = 31;

const LEVEL_BY_NAME: Readonly<Record<string, LogLevelLetter>> = {
  DEBUG: 'D',
  INFO: 'I',
  ERROR: 'E',
  CRITICAL: 'C',
  ADVISORY: 'A',
};

export const LEVEL_NAMES: Readonly<Record<LogLevelLetter, string>> = {
  D: 'DEBUG',
  I: 'INFO',
  E: 'ERROR',
  C: 'CRITICAL',
  A: 'ADVISORY',
};

export function isLogLevelLetter(value: unknown): value is LogLevelLetter {
  return value === 'A' || value === 'C' || value === 'E' || value === 'I' || value === 'D';
}

/**
 * `INFO,ERROR` → bit set. Names are case-insensitive; every level above the highest listed one is added, as in
 * QuestDB. One deliberate difference: QuestDB turns a lone `DEBUG` into DEBUG only (an arithmetic quirk); here the
 * rule holds for DEBUG too, so `DEBUG` means everything, which is what people writing it expect.
 */
export function parseLevelList(text: string, key: string): number {
  let mask = 0;
  for (const part of text.split(',')) {
    const name = part.trim().toUpperCase();
    if (name.length === 0) continue;
    const letter = LEVEL_BY_NAME[name];
    if (letter === undefined) throw new ConfigError(key, `Unknown level: ${part.trim()} (expected DEBUG, INFO, ERROR, CRITICAL or ADVISORY)`);
    mask |= LEVEL_BITS[letter];
  }
  if (mask === 0) throw new ConfigError(key, 'no level listed');
  const highest = 1 << (31 - Math.clz32(mask));
  // Every bit from the highest listed one upwards.
  return (mask | (ALL_LEVELS_MASK & ~(highest - 1))) & ALL_LEVELS_MASK;
}

/** Bit set → `I,E,C,A` for start-up advisories. */
export function describeLevelMask(mask: number): string {
  return LOG_LEVEL_LETTERS.filter((letter) => (mask & LEVEL_BITS[letter]) !== 0).join(',');
}

/** SVC_DEBUG=true (also 1, yes, on; case-insensitive) asks for DEBUG everywhere; any other value, or none, does not. */
export function debugRequested(env: NodeJS.ProcessEnv): boolean {
  const value = env[LOG_DEBUG_ENV];
  return value !== undefined && /^(true|1|yes|on)$/i.test(value.trim());
}
