// conf/service-accounts.json: the service accounts and the digest of each one's REST token. Written only by
// the primary, atomically (temporary file, fsync, rename), readable by its owner only; workers read it once at
// start and then follow the primary's broadcasts. Tokens themselves are never written anywhere.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { parseTokenEntries, type TokenEntry } from './token-entry.js';

export const SERVICE_ACCOUNTS_RELATIVE_PATH = join('conf', 'service-accounts.json');

export interface ServiceAccountRecord {
  readonly name: string;
  readonly createdAtMs: number;
  /** The account's one REST token, or null when it has none. */
  readonly token: { readonly sha256: string; readonly expiresAtMs: number } | null;
}

const FILE_VERSION = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function parseAccount(value: unknown): ServiceAccountRecord | undefined {
  if (!isRecord(value) || typeof value['name'] !== 'string' || typeof value['createdAtMs'] !== 'number') return undefined;
  const tokenValue = value['token'];
  const tokens = isRecord(tokenValue) ? parseTokenEntries([{ ...tokenValue, account: value['name'] }]) : [];
  const token = tokens[0];
  return { name: value['name'], createdAtMs: value['createdAtMs'], token: token === undefined ? null : { sha256: token.sha256, expiresAtMs: token.expiresAtMs } };
}

/** The accounts in the file; none when it does not exist. A damaged file fails loudly rather than dropping accounts. */
export function readServiceAccounts(path: string): ServiceAccountRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    if (isRecord(error) && error['code'] === 'ENOENT') return [];
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isRecord(parsed) || parsed['version'] !== FILE_VERSION || !Array.isArray(parsed['accounts'])) {
    throw new Error(`${path} is not a service-account file of version ${FILE_VERSION}`);
  }
  const accounts: ServiceAccountRecord[] = [];
  for (const item of parsed['accounts']) {
    const account = parseAccount(item);
    if (account !== undefined) accounts.push(account);
  }
  return accounts;
}

export function writeServiceAccounts(path: string, accounts: readonly ServiceAccountRecord[]): void {
  const temporary = `${path}.tmp`;
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify({ version: FILE_VERSION, accounts }, null, 1)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, path);
}

/** The token list a TokenRegistry takes. */
export function tokenEntriesOf(accounts: readonly ServiceAccountRecord[]): TokenEntry[] {
  const entries: TokenEntry[] = [];
  for (const account of accounts) {
    if (account.token !== null) entries.push({ sha256: account.token.sha256, account: account.name, expiresAtMs: account.token.expiresAtMs });
  }
  return entries;
}
