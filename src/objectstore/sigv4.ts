// AWS Signature Version 4 for S3 requests (header form), with node:crypto only. The derived signing key is
// cached per day, so a request costs one SHA-256 of its body, one of its canonical request and one HMAC.
// Follows the public specification ("Authenticating Requests: Using the Authorization Header", AWS S3 API
// reference); the payload hash is always the real SHA-256 (Swift's s3api checks it, and bodies are small).
import { createHash, createHmac } from 'node:crypto';
import { assert } from '../core/assert.js';

export interface SigningCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface SignableRequest {
  readonly method: 'GET' | 'PUT' | 'HEAD';
  readonly host: string;
  /** The path exactly as sent: already URI-encoded (encodeS3Path). */
  readonly path: string;
  /** Hex SHA-256 of the body (EMPTY_PAYLOAD_SHA256 for none). */
  readonly payloadSha256: string;
  /** Further headers to sign, lower-case names (range, if-match); they must be sent as given. */
  readonly extraHeaders?: Readonly<Record<string, string>>;
}

export const EMPTY_PAYLOAD_SHA256 = createHash('sha256').update('').digest('hex');

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Encodes a key for the request path: every byte except the unreserved set (A-Z a-z 0-9 - _ . ~) and '/' is
 * %XX (S3 signs the path encoded once, slashes kept). encodeURIComponent leaves !'()* alone, so they are added.
 */
export function encodeS3Path(path: string): string {
  return path.split('/').map((part) => encodeURIComponent(part).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');
}

/** Signs requests for one region and service with one set of credentials. */
export class SigV4Signer {
  private keyDate = '';
  private signingKey: Buffer = Buffer.alloc(0);

  constructor(private readonly credentials: SigningCredentials, private readonly region: string, private readonly service = 's3') {}

  /** The headers to add to the request besides host and the extra ones: the x-amz-* ones and authorization. */
  sign(request: SignableRequest, now: Date = new Date()): Record<string, string> {
    const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const date = amzDate.slice(0, 8);
    assert(amzDate.length === 16, 'an x-amz-date is YYYYMMDDTHHMMSSZ');
    const headers: [string, string][] = [
      ['host', request.host],
      ['x-amz-content-sha256', request.payloadSha256],
      ['x-amz-date', amzDate],
      ...Object.entries(request.extraHeaders ?? {}),
    ];
    if (this.credentials.sessionToken !== undefined) headers.push(['x-amz-security-token', this.credentials.sessionToken]);
    // Canonical headers are sorted by name.
    headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const signedHeaders = headers.map(([name]) => name).join(';');
    const canonical = [
      request.method, request.path, '',
      ...headers.map(([name, value]) => `${name}:${value.trim()}`), '',
      signedHeaders, request.payloadSha256,
    ].join('\n');
    const scope = `${date}/${this.region}/${this.service}/aws4_request`;
    const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`;
    const signature = createHmac('sha256', this.keyFor(date)).update(stringToSign).digest('hex');
    const signed: Record<string, string> = {};
    for (const [name, value] of headers) if (name.startsWith('x-amz-')) signed[name] = value;
    signed['authorization'] = `AWS4-HMAC-SHA256 Credential=${this.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return signed;
  }

  private keyFor(date: string): Buffer {
    if (date === this.keyDate) return this.signingKey;
    const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();
    this.signingKey = hmac(hmac(hmac(hmac(`AWS4${this.credentials.secretAccessKey}`, date), this.region), this.service), 'aws4_request');
    this.keyDate = date;
    return this.signingKey;
  }
}
