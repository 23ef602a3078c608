// Primary side of service accounts: applies CREATE/DROP SERVICE ACCOUNT and CREATE/DROP TOKEN to the accounts
// file and returns the new token list for the workers. An account has at most one REST token: creating one
// replaces (and so revokes) the previous one. The token text is returned once, to the caller, and only its
// sha256 digest is kept.
import { SqlError, sqlSemanticError } from '../core/errors.js';
import { parseDurationMs } from '../config/duration-size.js';
import type { ServiceAccountStatement } from '../sql/compiler.js';
import { newToken, tokenDigest, type TokenEntry } from './token-entry.js';
import { readServiceAccounts, tokenEntriesOf, writeServiceAccounts, type ServiceAccountRecord } from './service-account-file.js';

/** TTL of a token created without WITH TTL. */
export const TOKEN_TTL_DEFAULT_MS = 30 * 86_400_000;
/** Bounds of WITH TTL: at least a second (QuestDB asks for a minute; shorter tokens suit scripts), at most ten years. */
const TOKEN_TTL_MIN_MS = 1000;
const TOKEN_TTL_MAX_MS = 3650 * 86_400_000;
/** Longest service account name. */
const ACCOUNT_NAME_LENGTH_MAX = 127;

export type ServiceAccountResult =
  | { readonly kind: 'ddl' }
  | { readonly kind: 'token'; readonly account: string; readonly token: string; readonly expiresAtMs: number };

export class ServiceAccounts {
  private accounts: ServiceAccountRecord[];

  constructor(private readonly filePath: string) {
    this.accounts = readServiceAccounts(filePath);
  }

  tokenEntries(): TokenEntry[] {
    return tokenEntriesOf(this.accounts);
  }

  apply(statement: ServiceAccountStatement, nowMs: number): ServiceAccountResult {
    const name = statement.account.name;
    const index = this.accounts.findIndex((account) => account.name.toLowerCase() === name.toLowerCase());
    if (statement.action === 'create') {
      if (index >= 0) throw sqlSemanticError(`service account already exists [name=${name}]`, statement.account.position);
      if (name.length === 0 || name.length > ACCOUNT_NAME_LENGTH_MAX) throw sqlSemanticError('invalid service account name', statement.account.position);
      this.save([...this.accounts, { name, createdAtMs: nowMs, token: null }]);
      return { kind: 'ddl' };
    }
    const existing = this.accounts[index];
    if (existing === undefined) throw sqlSemanticError(`service account does not exist [name=${name}]`, statement.account.position);
    switch (statement.action) {
      case 'drop':
        this.save(this.accounts.filter((_, i) => i !== index));
        return { kind: 'ddl' };
      case 'dropToken':
        if (statement.token !== undefined && existing.token?.sha256 !== tokenDigest(statement.token.text)) {
          throw sqlSemanticError(`token does not belong to the service account [name=${existing.name}]`, statement.token.position);
        }
        this.replaceAt(index, { ...existing, token: null });
        return { kind: 'ddl' };
      case 'createToken': {
        const ttlMs = statement.ttl === undefined ? TOKEN_TTL_DEFAULT_MS : parseTtl(statement.ttl);
        const token = newToken();
        const expiresAtMs = nowMs + ttlMs;
        this.replaceAt(index, { ...existing, token: { sha256: tokenDigest(token), expiresAtMs } });
        return { kind: 'token', account: existing.name, token, expiresAtMs };
      }
    }
  }

  private replaceAt(index: number, account: ServiceAccountRecord): void {
    this.save(this.accounts.map((current, i) => (i === index ? account : current)));
  }

  /** The file is written before memory changes, so a failed write leaves both as they were. */
  private save(accounts: ServiceAccountRecord[]): void {
    writeServiceAccounts(this.filePath, accounts);
    this.accounts = accounts;
  }
}

function parseTtl(ttl: { readonly text: string; readonly position: number }): number {
  const ms = parseDurationMs(ttl.text);
  if (ms === null || ms < TOKEN_TTL_MIN_MS || ms > TOKEN_TTL_MAX_MS) {
    throw new SqlError(`invalid TTL [ttl=${ttl.text}], expected a duration such as '12h' or '30d' between 1s and 3650d`, ttl.position);
  }
  return ms;
}
