// Parses QuestDB's object-store connection strings into a typed StoreLocation:
//   s3::bucket=b;root=prefix;region=us-east-1;endpoint=http://127.0.0.1:9900;access_key_id=..;secret_access_key=..;
//   fs::root=/mnt/store/final;atomic_write_dir=/mnt/store/scratch;
// Keys are OpenDAL's names, as QuestDB passes them through. A value containing ';' writes it twice (';;').
// Errors name the offending key and its 0-based offset in the string; secret values never appear in them.
import { isAbsolute } from 'node:path';
import { ConfigError } from '../core/errors.js';

export interface S3Location {
  readonly kind: 's3';
  readonly bucket: string;
  /** Key prefix inside the bucket, without leading or trailing '/'; '' for the bucket's top. */
  readonly root: string;
  readonly region: string;
  /** null: the SDK's AWS endpoint for the region. */
  readonly endpoint: string | null;
  /** null: taken from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or the SDK's default chain). */
  readonly credentials: S3Credentials | null;
  /** Path style (bucket in the path) unless enable_virtual_host_style=true: S3-compatible stores need it. */
  readonly virtualHostStyle: boolean;
}

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface FsLocation {
  readonly kind: 'fs';
  readonly root: string;
  readonly atomicWriteDir: string;
}

export type StoreLocation = S3Location | FsLocation;

const S3_KEYS = ['bucket', 'root', 'region', 'endpoint', 'access_key_id', 'secret_access_key', 'session_token', 'enable_virtual_host_style'] as const;
const FS_KEYS = ['root', 'atomic_write_dir'] as const;
const SECRET_KEYS: ReadonlySet<string> = new Set(['secret_access_key', 'session_token', 'access_key_id']);
const KEY_COUNT_MAX = 32;

interface Entry {
  readonly value: string;
  readonly position: number;
}

/** Parses `text` (the value of config key `configKey`, named in errors); `env` supplies AWS_* credentials. */
export function parseConnectionString(text: string, configKey: string, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  const fail = (message: string): never => { throw new ConfigError(configKey, `object store connection string: ${message}`); };
  const schemeEnd = text.indexOf('::');
  if (schemeEnd < 0) fail(`expected 's3::' or 'fs::' at position 0`);
  const scheme = text.slice(0, schemeEnd).trim();
  const entries = parseConnectionStringEntries(text, schemeEnd + 2, fail);
  if (scheme === 's3') return parseConnectionStringS3(entries, fail, env);
  if (scheme === 'fs') return parseConnectionStringFs(entries, fail);
  return fail(`unknown store kind '${scheme}' at position 0, expected s3 or fs`);
}

function parseConnectionStringEntries(text: string, start: number, fail: (message: string) => never): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let index = start;
  while (index < text.length) {
    while (index < text.length && (text[index] === ' ' || text[index] === '\n')) index++;
    if (index >= text.length) break;
    const keyStart = index;
    const equals = text.indexOf('=', index);
    const semicolon = text.indexOf(';', index);
    if (equals < 0 || (semicolon >= 0 && semicolon < equals)) fail(`expected key=value at position ${keyStart}`);
    const key = text.slice(keyStart, equals).trim();
    if (!/^[a-z_]+$/.test(key)) fail(`malformed key '${key.slice(0, 40)}' at position ${keyStart}`);
    let value = '';
    index = equals + 1;
    for (;;) {
      const end = text.indexOf(';', index);
      if (end < 0) { value += text.slice(index); index = text.length; break; }
      value += text.slice(index, end);
      if (text[end + 1] === ';') { value += ';'; index = end + 2; continue; }
      index = end + 1;
      break;
    }
    if (entries.has(key)) fail(`key '${key}' given twice, again at position ${keyStart}`);
    if (entries.size >= KEY_COUNT_MAX) fail(`more than ${KEY_COUNT_MAX} keys`);
    entries.set(key, { value: SECRET_KEYS.has(key) ? value : value.trim(), position: keyStart });
  }
  return entries;
}

function parseConnectionStringCheckKeys(entries: Map<string, Entry>, allowed: readonly string[], kind: string, fail: (message: string) => never): void {
  for (const [key, entry] of entries) {
    if (!allowed.includes(key)) fail(`unknown key '${key}' at position ${entry.position} for ${kind}:: (allowed: ${allowed.join(', ')})`);
  }
}

function required(entries: Map<string, Entry>, key: string, kind: string, fail: (message: string) => never): Entry {
  const entry = entries.get(key);
  if (entry === undefined || entry.value === '') return fail(`${kind}:: needs '${key}'`);
  return entry;
}

function parseConnectionStringS3(entries: Map<string, Entry>, fail: (message: string) => never, env: NodeJS.ProcessEnv): S3Location {
  parseConnectionStringCheckKeys(entries, S3_KEYS, 's3', fail);
  const bucket = required(entries, 'bucket', 's3', fail);
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket.value)) {
    fail(`bucket at position ${bucket.position} is not a valid bucket name (3-63 of a-z 0-9 . -)`);
  }
  const endpoint = entries.get('endpoint');
  if (endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(endpoint.value)) {
    fail(`endpoint at position ${endpoint.position} must be an http:// or https:// URL`);
  }
  // The endpoint is printed in every error and log line: it must not carry credentials of its own.
  if (endpoint !== undefined && /^https?:\/\/[^/]*@/.test(endpoint.value)) {
    fail(`endpoint at position ${endpoint.position} must not contain user:password@ (use access_key_id and secret_access_key)`);
  }
  const virtualHost = entries.get('enable_virtual_host_style');
  if (virtualHost !== undefined && virtualHost.value !== 'true' && virtualHost.value !== 'false') {
    fail(`enable_virtual_host_style at position ${virtualHost.position} must be true or false`);
  }
  const root = entries.get('root')?.value ?? '';
  if (root.split('/').some((part) => part === '..' || part === '.')) fail(`root at position ${entries.get('root')?.position ?? 0} must not contain '.' or '..' segments`);
  return {
    kind: 's3',
    bucket: bucket.value,
    root: root.replace(/^\/+|\/+$/g, ''),
    region: entries.get('region')?.value || env['AWS_REGION'] || 'us-east-1',
    endpoint: endpoint === undefined ? null : endpoint.value.replace(/\/+$/, ''),
    credentials: parseConnectionStringCredentials(entries, fail, env),
    virtualHostStyle: virtualHost?.value === 'true',
  };
}

function parseConnectionStringCredentials(entries: Map<string, Entry>, fail: (message: string) => never, env: NodeJS.ProcessEnv): S3Credentials | null {
  const keyId = entries.get('access_key_id');
  const secret = entries.get('secret_access_key');
  const token = entries.get('session_token')?.value;
  if (keyId !== undefined || secret !== undefined) {
    if (keyId === undefined || keyId.value === '') return fail(`secret_access_key given without access_key_id`);
    if (secret === undefined || secret.value === '') return fail(`access_key_id at position ${keyId.position} given without secret_access_key`);
    return token === undefined || token === '' ? { accessKeyId: keyId.value, secretAccessKey: secret.value } : { accessKeyId: keyId.value, secretAccessKey: secret.value, sessionToken: token };
  }
  const envKeyId = env['AWS_ACCESS_KEY_ID'];
  const envSecret = env['AWS_SECRET_ACCESS_KEY'];
  if (envKeyId !== undefined && envKeyId !== '' && envSecret !== undefined && envSecret !== '') {
    const envToken = env['AWS_SESSION_TOKEN'];
    return envToken === undefined || envToken === '' ? { accessKeyId: envKeyId, secretAccessKey: envSecret } : { accessKeyId: envKeyId, secretAccessKey: envSecret, sessionToken: envToken };
  }
  return null;
}

function parseConnectionStringFs(entries: Map<string, Entry>, fail: (message: string) => never): FsLocation {
  parseConnectionStringCheckKeys(entries, FS_KEYS, 'fs', fail);
  const root = required(entries, 'root', 'fs', fail);
  const scratch = required(entries, 'atomic_write_dir', 'fs', fail);
  if (!isAbsolute(root.value)) fail(`root at position ${root.position} must be an absolute path`);
  if (!isAbsolute(scratch.value)) fail(`atomic_write_dir at position ${scratch.position} must be an absolute path`);
  return { kind: 'fs', root: root.value.replace(/\/+$/, '') || '/', atomicWriteDir: scratch.value.replace(/\/+$/, '') || '/' };
}

/** Where a location points, for errors and logs: never credentials. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === 'fs') return `fs root=${location.root}`;
  return `s3 endpoint=${location.endpoint ?? `aws:${location.region}`} bucket=${location.bucket} root=${location.root === '' ? '/' : location.root}`;
}
