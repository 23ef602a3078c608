// The tokens a process accepts: sha256 digest → owner and expiry. The primary builds the list from its
// service-account file; every worker holds a copy, replaced wholesale when the primary broadcasts a change.
// Expiry is checked on every lookup, so an expired token is refused at once without any broadcast.
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
/** Longest bearer value looked up; a token is prefix + 43 Base64url characters. */
const TOKEN_LENGTH_MAX = 256;

export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_RANDOM_BYTES).toString('base64url');
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export type TokenLookup =
  | { readonly ok: true; readonly account: string }
  | { readonly ok: false; readonly reason: 'unknown token' | 'expired token' };

export class TokenRegistry {
  private byDigest = new Map<string, TokenEntry>();

  replace(entries: readonly TokenEntry[]): void {
    this.byDigest = new Map(entries.map((entry) => [entry.sha256, entry]));
  }

  entries(): TokenEntry[] {
    return [...this.byDigest.values()];
  }

  /**
   * The lookup is by digest: a timing difference can only reveal bits of a sha256 digest, never of a token,
   * so a Map lookup is as safe here as a constant-time scan and does not grow with the number of tokens.
   */
  find(token: string, nowMs: number): TokenLookup {
    if (token.length === 0 || token.length > TOKEN_LENGTH_MAX) return { ok: false, reason: 'unknown token' };
    const entry = this.byDigest.get(tokenDigest(token));
    if (entry === undefined) return { ok: false, reason: 'unknown token' };
    if (nowMs >= entry.expiresAtMs) return { ok: false, reason: 'expired token' };
    return { ok: true, account: entry.account };
  }
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
