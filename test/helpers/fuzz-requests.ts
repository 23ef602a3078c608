// Builders of hostile HTTP requests for the fuzz test, driven by a seeded PRNG so a failure can be replayed:
// valid requests with mutated parts (bad percent-encoding, invalid UTF-8, huge parameters, odd flags),
// broken multipart uploads, broken request lines and headers, and byte-level mutations of valid requests.
import { Buffer } from 'node:buffer';

export interface FuzzCase {
  readonly kind: string;
  /** Chunks written one after another; `pauseMs` between them makes a slow client. */
  readonly chunks: readonly Buffer[];
  readonly pauseMs: number;
  /** Half-close after writing (the request is deliberately incomplete). */
  readonly truncated: boolean;
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const PATHS = ['/exec', '/api/v1/sql/execute', '/api/v1/sql/validate', '/exp', '/imp', '/', '/index.html', '/chk', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '//exec', '/exec/', '/EXEC'];
const QUERIES = [
  'select 1', 'select * from fz', 'select x, s from fz where x > 3 order by x desc limit 5', 'fz', 'select count(*) from fz',
  "select * from fz where s = 'a'", 'select sum(v) from fz sample by 1h', 'select * from long_sequence(100)',
  'insert into fz values (1, \'q\', 1.5, now())', 'update fz set v = 0 where x = -1', 'create table if not exists fz (x int)',
  'select from', "select 'unterminated", 'select * from nope', 'select ((((((((((1))))))))))', `select ${'('.repeat(300)}1${')'.repeat(300)}`,
  'select cast(x as symbol) from fz', 'explain select * from fz', 'show tables', 'select x / 0 from fz', 'select rnd_str(5, 1, 10) from long_sequence(10)',
  "select * from fz where ts in '2024-01-01'", 'select to_timestamp(s, \'yyyy\') from fz', 'drop table if exists nothing_here',
  "select lpad(s, 2000000000, 'x') from fz", 'rename table nothing_here to ".."', 'create table "../up" (x int)', "select rnd_str(100000000, 1, 2)",
];
const PARAM_NAMES = ['query', 'limit', 'count', 'nm', 'timings', 'explain', 'fmt', 'delimiter', 'timeout', 'version', 'filename', 'name', 'atomicity', 'partitionBy', 'timestamp', 'overwrite', 'create', 'forceHeader', 'skipLev', 'quoteLargeNum', 'src', 'partition_by', 'compression_codec', 'row_group_size', 'statistics_enabled'];
const PARAM_VALUES = ['', 'true', 'false', '-1', '0', '1,', ',5', '3,1', '9999999999999999999999', 'NaN', 'parquet', 'csv', 'json', 'zstd', 'snappy', 'abort', 'skipRow', 'DAY', 'x', '%', '%%', '%G1', '%FF%FE', '%C0%80', '%ED%A0%80', '%F4%90%80%80', '%00', '\u00e9', '-', '1e308', '"'];
const BAD_ENCODINGS = ['%', '%2', '%zz', '%FF', '%C3', '%C3%28', '%E2%82', '%F0%9F%98', '%ED%BF%BF', '%C0%AF', '%00', '%0D%0A', '%E2%80%AE'];

function randomText(random: Random, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(32 + Math.floor(random() * 95));
  return text;
}

function encodeParam(random: Random, value: string): string {
  let encoded = encodeURIComponent(value);
  const insertions = Math.floor(random() * 3);
  for (let i = 0; i < insertions; i++) {
    const at = Math.floor(random() * (encoded.length + 1));
    encoded = encoded.slice(0, at) + pick(random, BAD_ENCODINGS) + encoded.slice(at);
  }
  return encoded;
}

function queryString(random: Random): string {
  const parts: string[] = [];
  const count = 1 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    const name = i === 0 ? 'query' : pick(random, PARAM_NAMES);
    const roll = random();
    const value = roll < 0.6 ? pick(random, QUERIES) : roll < 0.8 ? pick(random, PARAM_VALUES) : roll < 0.95 ? randomText(random, Math.floor(random() * 200)) : 'x'.repeat(1000 + Math.floor(random() * 70_000));
    parts.push(`${name}=${roll < 0.5 ? encodeParam(random, value) : encodeURIComponent(value)}`);
  }
  return parts.join('&');
}

export interface FuzzAuth {
  readonly good: string;
}

function authorizationHeader(random: Random, auth: FuzzAuth): string {
  const roll = random();
  if (roll < 0.75) return `Authorization: ${auth.good}\r\n`;
  if (roll < 0.8) return '';
  const broken = [
    'Basic', 'Basic ', 'Basic ====', 'Basic %%%', `Basic ${Buffer.from('admin').toString('base64')}`, `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x00]).toString('base64')}`,
    'Bearer ', `Bearer ${'A'.repeat(5000)}`, 'Bearer svc_\u00ff', `${auth.good}${auth.good}`, `Basic ${'QUFB'.repeat(2000)}`, 'Negotiate abc', `${auth.good.slice(0, -2)}`,
  ];
  return `Authorization: ${pick(random, broken)}\r\n`;
}

function getRequest(random: Random, auth: FuzzAuth): Buffer {
  const path = pick(random, PATHS);
  const method = random() < 0.9 ? 'GET' : pick(random, ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'G3T']);
  const extra = random() < 0.1 ? `Statement-Timeout: ${pick(random, ['-5', '0', 'abc', '1', '99999999999', '50'])}\r\n` : '';
  return Buffer.from(`${method} ${path}?${queryString(random)} HTTP/1.1\r\nHost: fuzz\r\n${authorizationHeader(random, auth)}${extra}Connection: close\r\n\r\n`, 'latin1');
}

const BOUNDARY = 'fuzzBoundary7';

function multipartBody(random: Random): Buffer {
  const csvs = ['a,b\n1,2\n3,4\n', 'ts,v\n2024-01-01T00:00:00Z,1\n2024-01-02T00:00:00Z,2\n', '\u00e9,\u00fc\n\u00ff,x\n', 'x\n', '', '"unterminated,1\n2,3\n', 'a;b|c\td\n1;2|3\t4\n'];
  const data = random() < 0.2 ? Buffer.from(Array.from({ length: 200 }, () => Math.floor(random() * 256))) : Buffer.from(pick(random, csvs), random() < 0.3 ? 'latin1' : 'utf8');
  const schema = random() < 0.3 ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n${pick(random, ['[{"name":"a","type":"INT"}]', '[', '{}', '[{"name":1}]', 'null', '[{"name":"ts","type":"TIMESTAMP","pattern":"yyyy"}]'])}\r\n` : '';
  const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${random() < 0.9 ? 'data' : 'other'}"; filename="${pick(random, ['f.csv', '../../x.csv', '', '\u00ff.csv'])}"\r\n\r\n`;
  return Buffer.concat([Buffer.from(schema + part, 'latin1'), data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

function importRequest(random: Random, auth: FuzzAuth): { bytes: Buffer; truncated: boolean } {
  const body = multipartBody(random);
  const name = random() < 0.9 ? `fz_imp_${Math.floor(random() * 8)}` : encodeParam(random, pick(random, ['..', '../up', '.staging', 'x'.repeat(200), '/', 'a/b', '\u00e9t\u00e9']));
  const contentType = pick(random, [`multipart/form-data; boundary=${BOUNDARY}`, 'multipart/form-data', 'text/csv', `multipart/form-data; boundary=other`, `multipart/form-data; boundary="${BOUNDARY}"`]);
  const truncate = random() < 0.4;
  const sent = truncate ? body.subarray(0, Math.floor(random() * body.length)) : body;
  const head = `POST /imp?name=${name}&${random() < 0.5 ? 'fmt=json' : queryString(random)} HTTP/1.1\r\nHost: fuzz\r\n${authorizationHeader(random, auth)}Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), sent]), truncated: truncate };
}

function brokenRequest(random: Random, auth: FuzzAuth): Buffer {
  const good = auth.good;
  const cases = [
    'GET\r\n\r\n', 'GET /exec HTTP/9.9\r\n\r\n', '/exec?query=select%201 HTTP/1.1\r\n\r\n', 'GET /exec?query=select 1 HTTP/1.1\r\nHost: x\r\n\r\n',
    `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`, `GET /exec HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef`,
    `POST /imp HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 10\r\nAuthorization: ${good}\r\n\r\nzz\r\n`, `GET /exec?query=select%201 HTTP/1.1\r\nTransfer-Encoding: chunked\r\nAuthorization: ${good}\r\n\r\nfffffffffffffff\r\n`,
    `GET /exec?query=select%201 HTTP/1.1\r\n${'X-H: v\r\n'.repeat(3000)}\r\n`, `GET /exec?query=${'%41'.repeat(30_000)} HTTP/1.1\r\n\r\n`, 'GET /exec?query=select%201 HTTP/1.0\r\n\r\n',
    `GET http://evil/exec?query=select%201 HTTP/1.1\r\nAuthorization: ${good}\r\nConnection: close\r\n\r\n`, `GET * HTTP/1.1\r\nAuthorization: ${good}\r\n\r\n`, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nAuthorization: ${good}\r\nExpect: 100-continue\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`,
    `GET /exec?query=select%201 HTTP/1.1\r\nHost: x\r\nAuthorization: ${good}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
  ];
  const text = pick(random, cases);
  const bytes = Buffer.from(text, 'latin1');
  return random() < 0.2 ? Buffer.concat([bytes, Buffer.from([0xc3, 0x28, 0xff, 0x00])]) : bytes;
}

function mutate(random: Random, bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const edits = 1 + Math.floor(random() * 6);
  let out = copy;
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * out.length);
    const roll = random();
    if (roll < 0.4) out[at] = Math.floor(random() * 256);
    else if (roll < 0.7) out = Buffer.concat([out.subarray(0, at), Buffer.from([Math.floor(random() * 256)]), out.subarray(at)]);
    else out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1)]);
  }
  return out;
}

function randomBytes(random: Random): Buffer {
  return Buffer.from(Array.from({ length: 1 + Math.floor(random() * 400) }, () => Math.floor(random() * 256)));
}

/** Splits bytes into a few chunks for a slow client. */
function slowChunks(random: Random, bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  const pieces = 3 + Math.floor(random() * 6);
  const size = Math.max(1, Math.ceil(bytes.length / pieces));
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

export function nextFuzzCase(random: Random, auth: FuzzAuth): FuzzCase {
  const roll = random();
  const slow = random() < 0.01;
  let kind: string;
  let bytes: Buffer;
  let truncated = false;
  if (roll < 0.45) {
    kind = 'get';
    bytes = getRequest(random, auth);
  } else if (roll < 0.65) {
    kind = 'import';
    const built = importRequest(random, auth);
    bytes = built.bytes;
    truncated = built.truncated;
  } else if (roll < 0.75) {
    kind = 'broken';
    bytes = brokenRequest(random, auth);
    truncated = true;
  } else if (roll < 0.95) {
    kind = 'mutated';
    bytes = mutate(random, random() < 0.5 ? getRequest(random, auth) : importRequest(random, auth).bytes);
    truncated = true;
  } else {
    kind = 'random bytes';
    bytes = randomBytes(random);
    truncated = true;
  }
  return slow
    ? { kind: `slow ${kind}`, chunks: slowChunks(random, bytes), pauseMs: 100 + Math.floor(random() * 300), truncated }
    : { kind, chunks: [bytes], pauseMs: 0, truncated };
}
