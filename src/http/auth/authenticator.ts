// Decides who a :9000 request comes from. With http.user/http.password unset every request is let in (and
// an Authorization header is ignored); otherwise a request needs either the configured Basic credentials or a
// live bearer token issued to a service account. The decision never depends on timing of the secret compare.
import type { IncomingMessage } from 'node:http';
import { constantTimeEquals } from './constant-time.js';
import { parseBasicCredentials, splitAuthorization } from './basic-credentials.js';
import type { TokenRegistry } from './token-registry.js';

/** Who a request is: the configured user (may manage service accounts), a token's account, or nobody (auth off). */
export type Principal =
  | { readonly kind: 'open' }
  | { readonly kind: 'user'; readonly name: string }
  | { readonly kind: 'token'; readonly account: string };

export type AuthFailureReason = 'missing credentials' | 'malformed credentials' | 'wrong credentials' | 'unknown token' | 'expired token' | 'unsupported scheme';

export type AuthOutcome =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly reason: AuthFailureReason; readonly user?: string };

export interface AuthenticatorOptions {
  /** null when authentication is off. */
  readonly credentials: { readonly user: string; readonly password: string } | null;
  readonly tokens: TokenRegistry;
  readonly now?: () => number;
}

export type Authenticator = (req: IncomingMessage) => AuthOutcome;

const OPEN: AuthOutcome = { ok: true, principal: { kind: 'open' } };

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const credentials = options.credentials;
  if (credentials === null) return () => OPEN;
  const now = options.now ?? Date.now;
  return (req) => {
    const header = req.headers.authorization;
    if (header === undefined || header.length === 0) return { ok: false, reason: 'missing credentials' };
    const { scheme, value } = splitAuthorization(header);
    if (scheme === 'basic') {
      const given = parseBasicCredentials(value);
      if (given === undefined) return { ok: false, reason: 'malformed credentials' };
      // Both compares always run, so the time taken does not tell a wrong user from a wrong password.
      const userMatches = constantTimeEquals(given.user, credentials.user);
      const passwordMatches = constantTimeEquals(given.password, credentials.password);
      if (userMatches && passwordMatches) return { ok: true, principal: { kind: 'user', name: given.user } };
      return { ok: false, reason: 'wrong credentials', user: given.user };
    }
    if (scheme === 'bearer') {
      const found = options.tokens.find(value, now());
      if (!found.ok) return { ok: false, reason: found.reason };
      return { ok: true, principal: { kind: 'token', account: found.account } };
    }
    return { ok: false, reason: 'unsupported scheme' };
  };
}
