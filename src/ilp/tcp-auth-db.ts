// The ILP TCP authentication database (line.tcp.auth.db.path) in QuestDB's format: one key a line,
// `<key id> ec-p-256-sha256 <x> <y>`, x and y the base64url coordinates of an ECDSA P-256 public key; a token
// starting with `#` comments out the rest of its line. Loaded once per process at start-up; a malformed file
// stops the start with an error naming the line, so a server never runs with half of its keys.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';

/** Key id → public key; key ids are compared exactly, as QuestDB does. */
export type IlpAuthDb = ReadonlyMap<string, KeyObject>;

const CONFIG_KEY = 'line.tcp.auth.db.path';
const KEY_TYPE = 'ec-p-256-sha256';
/** Bytes of a P-256 coordinate. */
const COORDINATE_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Reads and parses the file; every failure is a ConfigError naming the file (and the line). */
export function loadIlpAuthDb(path: string): IlpAuthDb {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(CONFIG_KEY, `cannot read the ILP authentication file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseIlpAuthDb(text, path);
}

export function parseIlpAuthDb(text: string, source: string): IlpAuthDb {
  const keys = new Map<string, KeyObject>();
  text.split('\n').forEach((line, index) => {
    const tokens = tokensOf(line);
    if (tokens.length === 0) return;
    const where = `${source}, line ${index + 1}`;
    const [keyId, type, x, y] = tokens;
    if (tokens.length !== 4 || keyId === undefined || type === undefined || x === undefined || y === undefined) {
      throw new ConfigError(CONFIG_KEY, `${where}: expected '<key id> ${KEY_TYPE} <x> <y>', found ${tokens.length} field(s)`);
    }
    if (type !== KEY_TYPE) throw new ConfigError(CONFIG_KEY, `${where}: unsupported key type '${type}' (only ${KEY_TYPE})`);
    if (keys.has(keyId)) throw new ConfigError(CONFIG_KEY, `${where}: duplicate key id '${keyId}'`);
    keys.set(keyId, publicKeyOf(x, y, where));
  });
  return keys;
}

/** Whitespace-separated tokens up to the first one starting with `#`. */
function tokensOf(line: string): string[] {
  const tokens: string[] = [];
  for (const token of line.trim().split(/\s+/)) {
    if (token === '') continue;
    if (token.startsWith('#')) break;
    tokens.push(token);
  }
  return tokens;
}

function publicKeyOf(x: string, y: string, where: string): KeyObject {
  try {
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: coordinate(x, 'x', where), y: coordinate(y, 'y', where) }, format: 'jwk' });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(CONFIG_KEY, `${where}: not a P-256 public key (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * A coordinate as JWK wants it: exactly 32 bytes, base64url without padding. QuestDB reads the value as an
 * unsigned big integer, so a key written with its leading zero bytes dropped is accepted here too.
 */
function coordinate(encoded: string, name: string, where: string): string {
  if (!BASE64URL.test(encoded)) throw new ConfigError(CONFIG_KEY, `${where}: ${name} is not base64url`);
  const bytes = Buffer.from(encoded, 'base64url');
  let start = 0;
  while (bytes.length - start > COORDINATE_BYTES && bytes[start] === 0) start++;
  if (bytes.length - start > COORDINATE_BYTES || bytes.length === 0) {
    throw new ConfigError(CONFIG_KEY, `${where}: ${name} is ${bytes.length} bytes, a P-256 coordinate has ${COORDINATE_BYTES}`);
  }
  const padded = Buffer.alloc(COORDINATE_BYTES);
  bytes.copy(padded, COORDINATE_BYTES - (bytes.length - start), start);
  return padded.toString('base64url');
}
