// A lean S3 client for the requests the primary makes several times a second (PUT, GET, ranged GET and HEAD
// of one object): SigV4-signed node:http(s) requests over keep-alive sockets. The AWS SDK spent 3-6 ms of the
// primary's CPU per request in its middleware stack; this path costs a signature and the socket write. No
// retries here: retry.ts owns timeouts and back-off, as for the SDK's requests. A non-2xx answer becomes an
// S3ResponseError named after the store's error code (NoSuchKey, NoSuchBucket...), as the SDK names its own.
import * as http from 'node:http';
import * as https from 'node:https';
import { sha256Hex, encodeS3Path, EMPTY_PAYLOAD_SHA256, SigV4Signer, type SigningCredentials } from './sigv4.js';

/** Idle keep-alive sockets kept per store: uploads run a few at a time (UPLOADS_IN_FLIGHT_MAX, multipart parts). */
const IDLE_SOCKETS_MAX = 8;
/** Error bodies are short XML documents; anything longer is cut before it is parsed. */
const ERROR_BODY_BYTES_MAX = 64 * 1024;

export class S3ResponseError extends Error {
  constructor(readonly status: number, code: string, message: string) {
    super(message);
    this.name = code;
  }
}

export interface S3HttpTarget {
  /** null: AWS's endpoint for the region, over https. */
  readonly endpoint: string | null;
  readonly region: string;
  readonly bucket: string;
  readonly virtualHostStyle: boolean;
  readonly credentials: SigningCredentials;
}

export interface S3HttpRequest {
  readonly method: 'GET' | 'PUT' | 'HEAD';
  /** The object's full key (root prefix included), not yet encoded. */
  readonly key: string;
  readonly body?: Uint8Array;
  /** Hex SHA-256 of `body` when the caller has it; otherwise it is computed here. */
  readonly bodySha256Hex?: string;
  /** Further headers, lower-case names (range, if-match); signed like the SDK signs them. */
  readonly headers?: Record<string, string>;
  readonly signal: AbortSignal;
}

export interface S3HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export class S3HttpClient {
  private readonly signer: SigV4Signer;
  private readonly secure: boolean;
  private readonly hostname: string;
  private readonly port: number;
  private readonly host: string;
  private readonly pathPrefix: string;
  private readonly agent: http.Agent;

  constructor(target: S3HttpTarget) {
    const endpoint = new URL(target.endpoint ?? `https://s3.${target.region}.amazonaws.com`);
    this.secure = endpoint.protocol === 'https:';
    this.hostname = target.virtualHostStyle ? `${target.bucket}.${endpoint.hostname}` : endpoint.hostname;
    this.port = endpoint.port === '' ? (this.secure ? 443 : 80) : Number(endpoint.port);
    this.host = endpoint.port === '' ? this.hostname : `${this.hostname}:${endpoint.port}`;
    const base = endpoint.pathname.replace(/\/+$/, '');
    this.pathPrefix = target.virtualHostStyle ? `${base}/` : `${base}/${encodeS3Path(target.bucket)}/`;
    this.signer = new SigV4Signer(target.credentials, target.region);
    const agentOptions = { keepAlive: true, maxFreeSockets: IDLE_SOCKETS_MAX };
    this.agent = this.secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  /** Sends one request; resolves with a 2xx answer and its whole body, rejects with S3ResponseError otherwise. */
  send(request: S3HttpRequest): Promise<S3HttpResponse> {
    const body = request.body;
    const path = this.pathPrefix + encodeS3Path(request.key);
    const signed = this.signer.sign({ method: request.method, host: this.host, path, payloadSha256: body === undefined ? EMPTY_PAYLOAD_SHA256 : request.bodySha256Hex ?? sha256Hex(body), ...(request.headers === undefined ? {} : { extraHeaders: request.headers }) });
    const headers: http.OutgoingHttpHeaders = { ...request.headers, ...signed, host: this.host };
    if (body !== undefined) headers['content-length'] = body.byteLength;
    const options: http.RequestOptions = { method: request.method, hostname: this.hostname, port: this.port, path, headers, agent: this.agent, signal: request.signal };
    return new Promise<S3HttpResponse>((resolve, reject) => {
      const outgoing = (this.secure ? https.request : http.request)(options, (incoming) => {
        readBody(incoming, request.method === 'HEAD').then((bytes) => {
          const status = incoming.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve({ status, headers: incoming.headers, body: bytes });
          else reject(responseError(status, request.method, bytes));
        }, reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The whole body, in one buffer sized from Content-Length when the store sent it. */
function readBody(incoming: http.IncomingMessage, head: boolean): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    if (head) {
      incoming.resume();
      incoming.once('end', () => resolve(Buffer.alloc(0)));
      incoming.once('error', reject);
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    incoming.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
    });
    incoming.once('end', () => resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, bytes)));
    incoming.once('error', reject);
  });
}

/** The store's <Code> and <Message> when the body has them; a HEAD has no body, so its 404 is NotFound. */
function responseError(status: number, method: string, body: Buffer): S3ResponseError {
  const text = body.subarray(0, ERROR_BODY_BYTES_MAX).toString('utf8');
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? (status === 404 ? 'NotFound' : `Http${status}`);
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? `${method} answered HTTP ${status}`;
  return new S3ResponseError(status, code, message);
}
