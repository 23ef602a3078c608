// The tokens a process accepts: sha256 digest → owner and expiry. The primary builds the list from its
// service-account file; every worker holds a copy, replaced wholesale when the primary broadcasts a change.
// Expiry is checked on every lookup, so an expired token is refused at once without any broadcast.
import { tokenDigest, type TokenEntry } from '../../accounts/token-entry.js';

/** Longest bearer value looked up; a token is prefix + 43 Base64url characters. */
const TOKEN_LENGTH_MAX = 256;

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
