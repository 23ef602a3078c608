// Service-account tokens as the primary stores and hands them out: the digest entry (the token itself is never
// stored), how a token is made and digested, and the narrowing of an entry list read from disk or IPC.
import { createHash, randomBytes } from 'node:crypto';

/** Plain data, so the list crosses IPC as is. */
export interface TokenEntry {
  /** Hex sha256 of the token text; the token itself is never stored. */
  readonly sha256: string;
  readonly account: string;
  /** Epoch milliseconds after which the token is refused. */
  readonly expiresAtMs: number;
}

/** Every token starts with this, so leaked tokens are easy to recognise in logs and secret scanners. */
export const TOKEN_PREFIX = 'svc_';
/** Random bytes per token. */
const TOKEN_RANDOM_BYTES = 32;

export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_RANDOM_BYTES).toString('base64url');
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Narrows a token list received over IPC or read from disk; malformed entries are dropped. */
export function parseTokenEntries(value: unknown): TokenEntry[] {
  if (!Array.isArray(value)) return [];
  const entries: TokenEntry[] = [];
  for (const item of value) {
    if (!isRecord(item)) continue;
    const { sha256, account, expiresAtMs } = item;
    if (typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256) && typeof account === 'string' && typeof expiresAtMs === 'number') {
      entries.push({ sha256, account, expiresAtMs });
    }
  }
  return entries;
}
