// Service-account statements, entered after their first word (CREATE, DROP or ALTER) when SERVICE follows:
//   CREATE SERVICE ACCOUNT name
//   DROP SERVICE ACCOUNT name
//   ALTER SERVICE ACCOUNT name CREATE TOKEN TYPE REST [WITH TTL '<duration>']
//   ALTER SERVICE ACCOUNT name DROP TOKEN TYPE REST ['<token>']
// The TTL is kept as text; its meaning (units, bounds) is checked where tokens are issued.
import type { ServiceAccountStatement } from './ast.js';
import type { Token } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { parseName } from './parse-cursor.js';

/** True when the cursor (just past CREATE / DROP / ALTER) is at `SERVICE ACCOUNT`. */
export function isServiceAccountStatement(c: ParseCursor): boolean {
  return c.isWord('service') && c.isWord('account', 1);
}

export function parseServiceAccount(c: ParseCursor, first: Token, verb: 'create' | 'drop' | 'alter'): ServiceAccountStatement {
  c.expectWord('service');
  c.expectWord('account');
  if (c.atStatementEnd()) throw c.error('service account name expected');
  const account = parseName(c, 'service account name', true);
  const head = { kind: 'serviceAccount' as const, position: first.start, account };
  if (verb === 'create') return { ...head, action: 'create' };
  if (verb === 'drop') return { ...head, action: 'drop' };
  if (c.acceptWord('create')) {
    parseTokenType(c);
    if (!c.acceptWord('with')) return { ...head, action: 'createToken' };
    c.expectWord('ttl');
    const ttl = c.peek();
    if (ttl.kind !== 'string') throw c.error("TTL expected, e.g. '30d'");
    c.next();
    return { ...head, action: 'createToken', ttl: { text: ttl.value, position: ttl.start } };
  }
  if (c.acceptWord('drop')) {
    parseTokenType(c);
    const token = c.peek();
    if (token.kind !== 'string') return { ...head, action: 'dropToken' };
    c.next();
    return { ...head, action: 'dropToken', token: { text: token.value, position: token.start } };
  }
  throw c.error("'create token' or 'drop token' expected");
}

/** `TOKEN TYPE REST`: REST is the only token type (bearer tokens of the HTTP interface). */
function parseTokenType(c: ParseCursor): void {
  c.expectWord('token');
  c.expectWord('type');
  if (!c.acceptWord('rest')) throw c.error("token type expected, only 'REST' is supported");
}
