// The token registry keeps digests only, refuses unknown and expired tokens, and narrows lists from outside.
import test from 'ava';
import { TokenRegistry } from '../../../../src/http/auth/token-registry.js';
import { newToken, parseTokenEntries, tokenDigest } from '../../../../src/accounts/token-entry.js';

test('a token is found by its digest until it expires', (t) => {
  const token = newToken();
  t.regex(token, /^svc_[A-Za-z0-9_-]{43}$/);
  const registry = new TokenRegistry();
  registry.replace([{ sha256: tokenDigest(token), account: 'ingest', expiresAtMs: 1000 }]);
  t.deepEqual(registry.find(token, 999), { ok: true, account: 'ingest' });
  t.deepEqual(registry.find(token, 1000), { ok: false, reason: 'expired token' });
  t.deepEqual(registry.find(newToken(), 0), { ok: false, reason: 'unknown token' });
  t.deepEqual(registry.find('', 0), { ok: false, reason: 'unknown token' });
  registry.replace([]);
  t.deepEqual(registry.find(token, 0), { ok: false, reason: 'unknown token' });
});

test('token lists from IPC or disk are narrowed, malformed entries dropped', (t) => {
  const good = { sha256: 'a'.repeat(64), account: 'x', expiresAtMs: 5 };
  t.deepEqual(parseTokenEntries([good, { ...good, sha256: 'nothex' }, { ...good, expiresAtMs: '5' }, null, 7]), [good]);
  t.deepEqual(parseTokenEntries({ not: 'a list' }), []);
});
