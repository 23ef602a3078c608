// Whether a request may run a write statement (DDL, INSERT, UPDATE, service accounts): never in read-only
// mode, and service accounts and their tokens are managed only with the configured user's credentials (or with
// authentication off), so a token cannot mint further tokens or outlive its own revocation.
import { SqlError } from '../../core/errors.js';
import type { Statement } from '../../sql/compiler.js';
import type { Principal } from './authenticator.js';

export function checkWritePermitted(statement: Statement, readOnly: boolean, principal: Principal): void {
  if (readOnly) throw new SqlError('Write permission denied', 0, 'SVC_FORBIDDEN', 403);
  if (statement.kind === 'serviceAccount' && principal.kind === 'token') {
    throw new SqlError('Write permission denied: service accounts are managed with the http.user credentials', 0, 'SVC_FORBIDDEN', 403);
  }
}
