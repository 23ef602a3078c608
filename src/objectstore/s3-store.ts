// ObjectStore over S3 and S3-compatible stores: the only importer of @aws-sdk/client-s3. Settings that
// S3-compatible stores need are fixed here: path-style addressing, checksums only when an operation requires
// them (no aws-chunked bodies, which Swift refuses with 501), Content-MD5 on DeleteObjects (Swift requires
// it; SDK v3 no longer sends it). Multipart uploads of large files live here too (same library). The SDK's own retries are off: retry.ts owns timeouts and back-off, so
// every request is bounded the same way. Credentials live only inside the clients, never in texts. The hot
// single-object requests (PUT, GET, ranged GET, HEAD) go through the lean client (s3-http-client.ts) when the
// credentials are known up front (connection string or AWS_* variables); the SDK keeps the rest, and
// everything when it must find credentials itself (instance roles, profiles).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  S3Client, PutObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, DeleteObjectsCommand,
  HeadBucketCommand, CreateBucketCommand, S3ServiceException, CreateMultipartUploadCommand, UploadPartCommand,
  CompleteMultipartUploadCommand, AbortMultipartUploadCommand, BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import type { ObjectInfo, ObjectStore, PutIfAbsentOutcome, ListOptions, PutOptions, RangeOptions, RequestOptions } from './object-store.js';
import { LIST_KEYS_MAX } from './object-store.js';
import { objectStoreError } from './object-store-error.js';
import type { S3Location } from './connection-string.js';
import { describeLocation } from './connection-string.js';
import type { StoreOptions } from './store-options.js';
import { withRetries, isTransientNetworkError, type Classified, type RequestSite } from './retry.js';
import { checkKeyPrefix, checkObjectKey } from './object-key.js';
import { fileSizeBytes, planFileParts, readFilePart, type FilePart } from './file-parts.js';
import { S3HttpClient, S3ResponseError, type S3HttpResponse } from './s3-http-client.js';

const DELETE_BATCH_KEYS_MAX = 1000;
const LIST_PAGE_KEYS_MAX = 1000;

export class S3ObjectStore implements ObjectStore {
  readonly description: string;
  private readonly client: S3Client;
  /** The lean client for single-object requests; null when only the SDK can find the credentials. */
  private readonly lean: S3HttpClient | null;
  private readonly prefix: string;
  /** Learned from the first conditional PUT: Swift's s3api answers 501 to every one. */
  private conditionalPuts: 'unknown' | 'supported' | 'unsupported' = 'unknown';

  private constructor(private readonly location: S3Location, private readonly options: StoreOptions) {
    this.description = describeLocation(location);
    this.prefix = location.root === '' ? '' : `${location.root}/`;
    this.client = new S3Client({
      region: location.region,
      ...(location.endpoint === null ? {} : { endpoint: location.endpoint }),
      forcePathStyle: !location.virtualHostStyle,
      ...(location.credentials === null ? {} : { credentials: location.credentials }),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 1,
    });
    // Credentials the connection string resolved (its keys or AWS_* variables); otherwise the SDK's chain finds them.
    const credentials = location.credentials;
    this.lean = credentials === null ? null : new S3HttpClient({ ...location, credentials });
    this.client.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'DeleteObjectsCommand') addContentMd5(args.request);
      return next(args);
    }, { step: 'build', name: 'svcContentMd5', priority: 'low' });
  }

  /** Connects and creates the bucket if it is missing. */
  static async open(location: S3Location, options: StoreOptions, signal?: AbortSignal): Promise<S3ObjectStore> {
    const store = new S3ObjectStore(location, options);
    try {
      await store.ensureBucket(signal);
    } catch (error) {
      store.client.destroy();
      throw error;
    }
    return store;
  }

  private async ensureBucket(signal: AbortSignal | undefined): Promise<void> {
    const Bucket = this.location.bucket;
    const exists = await this.request('head bucket', '', signal, async (attemptSignal) => {
      try {
        await this.client.send(new HeadBucketCommand({ Bucket }), { abortSignal: attemptSignal });
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    });
    if (exists) return;
    await this.request('create bucket', '', signal, async (attemptSignal) => {
      try {
        // AWS wants the region named for any bucket outside us-east-1 (and refuses it for us-east-1).
        const constraint = locationConstraintOf(this.location.region);
        const configuration = constraint === null ? {} : { CreateBucketConfiguration: { LocationConstraint: constraint } };
        await this.client.send(new CreateBucketCommand({ Bucket, ...configuration }), { abortSignal: attemptSignal });
      } catch (error) {
        // Another instance created it between our HEAD and CREATE: the bucket is there, which is all we need.
        if (statusOf(error) !== 409) throw error;
      }
    });
  }

  async put(key: string, body: Uint8Array, options?: PutOptions): Promise<void> {
    const Key = this.fullKey(key);
    const lean = this.lean;
    if (lean !== null) {
      const bodySha256Hex = options?.bodySha256Hex;
      await this.request('put', key, options?.signal, (signal) => lean.send({ method: 'PUT', key: Key, body, signal, ...(bodySha256Hex === undefined ? {} : { bodySha256Hex }) }));
      return;
    }
    await this.request('put', key, options?.signal, (signal) => this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key, Body: body, ContentLength: body.byteLength }), { abortSignal: signal }));
  }

  async putIfAbsent(key: string, body: Uint8Array, options?: RequestOptions): Promise<PutIfAbsentOutcome> {
    if (this.conditionalPuts === 'unsupported') return 'unsupported';
    const Key = this.fullKey(key);
    const outcome = await this.request('put if absent', key, options?.signal, async (signal): Promise<PutIfAbsentOutcome> => {
      try {
        await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key, Body: body, ContentLength: body.byteLength, IfNoneMatch: '*' }), { abortSignal: signal });
        return 'created';
      } catch (error) {
        const status = statusOf(error);
        if (status === 412) return 'exists';
        if (status === 501) return 'unsupported';
        throw error;
      }
    });
    if (outcome !== 'unsupported') this.conditionalPuts = 'supported';
    else this.conditionalPuts = 'unsupported';
    return outcome;
  }

  async putFile(key: string, path: string, options?: RequestOptions): Promise<void> {
    const sizeBytes = await fileSizeBytes(path);
    const Key = this.fullKey(key);
    if (sizeBytes >= this.options.multipartThresholdBytes) {
      await this.putFileInParts(key, path, sizeBytes, options?.signal);
      return;
    }
    await this.request('put', key, options?.signal, (signal) => this.client.send(new PutObjectCommand({
      Bucket: this.location.bucket, Key, Body: createReadStream(path), ContentLength: sizeBytes,
    }), { abortSignal: signal }));
  }

  async get(key: string, options?: RequestOptions): Promise<Buffer> {
    const Key = this.fullKey(key);
    const lean = this.lean;
    if (lean !== null) return this.request('get', key, options?.signal, async (signal) => (await lean.send({ method: 'GET', key: Key, signal })).body);
    return this.request('get', key, options?.signal, async (signal) => {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key }), { abortSignal: signal });
      return Buffer.from(await bodyBytes(response.Body));
    });
  }

  async getRange(key: string, offset: number, lengthBytes: number, options?: RangeOptions): Promise<Buffer> {
    checkRange(offset, lengthBytes);
    if (lengthBytes === 0) return Buffer.alloc(0);
    const Key = this.fullKey(key);
    const ifMatch = options?.ifMatch;
    const lean = this.lean;
    const Range = `bytes=${offset}-${offset + lengthBytes - 1}`;
    if (lean !== null) {
      return this.request('get range', key, options?.signal, async (signal) => {
        const response = await lean.send({ method: 'GET', key: Key, headers: ifMatch === undefined ? { range: Range } : { range: Range, 'if-match': ifMatch }, signal });
        this.checkPinnedVersion(key, ifMatch, response.headers.etag);
        return response.body;
      });
    }
    return this.request('get range', key, options?.signal, async (signal) => {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key, Range, ...(ifMatch === undefined ? {} : { IfMatch: ifMatch }) }), { abortSignal: signal });
      this.checkPinnedVersion(key, ifMatch, response.ETag);
      // The SDK's array is this response's own: wrap it rather than copy a chunk of up to 64 MiB again.
      const bytes = await bodyBytes(response.Body);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    });
  }

  async head(key: string, options?: RequestOptions): Promise<ObjectInfo | null> {
    const Key = this.fullKey(key);
    const lean = this.lean;
    if (lean !== null) {
      return this.request('head', key, options?.signal, async (signal) => {
        try {
          return objectInfoOf(key, await lean.send({ method: 'HEAD', key: Key, signal }));
        } catch (error) {
          if (statusOf(error) === 404) return null;
          throw error;
        }
      });
    }
    return this.request('head', key, options?.signal, async (signal) => {
      try {
        const response = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key }), { abortSignal: signal });
        return { key, sizeBytes: response.ContentLength ?? 0, etag: response.ETag ?? null, lastModifiedMs: response.LastModified?.getTime() ?? 0 };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    });
  }

  async list(prefix: string, options?: ListOptions): Promise<ObjectInfo[]> {
    checkKeyPrefix(prefix, this.description);
    const keysMax = Math.min(options?.keysMax ?? LIST_KEYS_MAX, LIST_KEYS_MAX);
    const found: ObjectInfo[] = [];
    let continuation: string | undefined;
    const startAfter = options?.startAfter === undefined ? undefined : this.fullKey(options.startAfter);
    do {
      const token = continuation;
      const page = await this.request('list', prefix, options?.signal, (signal) => this.client.send(new ListObjectsV2Command({
        Bucket: this.location.bucket, Prefix: this.prefix + prefix, MaxKeys: Math.min(LIST_PAGE_KEYS_MAX, keysMax - found.length),
        ...(token === undefined ? (startAfter === undefined ? {} : { StartAfter: startAfter }) : { ContinuationToken: token }),
      }), { abortSignal: signal }));
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined || !item.Key.startsWith(this.prefix)) continue;
        found.push({ key: item.Key.slice(this.prefix.length), sizeBytes: item.Size ?? 0, etag: item.ETag ?? null, lastModifiedMs: item.LastModified?.getTime() ?? 0 });
      }
      continuation = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuation !== undefined && found.length < keysMax);
    return found;
  }

  async delete(keys: readonly string[], options?: RequestOptions): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH_KEYS_MAX) {
      const batch = keys.slice(start, start + DELETE_BATCH_KEYS_MAX);
      const Objects = batch.map((key) => ({ Key: this.fullKey(key) }));
      const response = await this.request('delete', batch[0] ?? '', options?.signal, (signal) => this.client.send(new DeleteObjectsCommand({
        Bucket: this.location.bucket, Delete: { Objects, Quiet: true },
      }), { abortSignal: signal }));
      const failed = (response.Errors ?? []).filter((item) => item.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw objectStoreError('rejected', 'delete', this.description, (first?.Key ?? '').slice(this.prefix.length), `${failed.length} of ${batch.length} keys not deleted: ${first?.Code ?? ''} ${first?.Message ?? ''}`);
      }
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    this.lean?.close();
  }

  /** A store that ignored If-Match still names the version it answered with: check it as well. */
  private checkPinnedVersion(key: string, ifMatch: string | undefined, etag: string | undefined): void {
    if (ifMatch !== undefined && etag !== undefined && etag !== ifMatch) {
      throw objectStoreError('changed', 'get range', this.description, key, `object is version ${etag}, not the pinned ${ifMatch}`);
    }
  }

  private fullKey(key: string): string {
    checkObjectKey(key, this.description);
    return this.prefix + key;
  }

  private request<T>(operation: string, key: string, signal: AbortSignal | undefined, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const site: RequestSite = { store: this.description, operation, key };
    return withRetries(site, this.options, signal, attempt, classifyS3Error);
  }

  /** Multipart upload: parts sent partsInFlightMax at a time, each retried on its own; aborted on failure. */
  private async putFileInParts(key: string, path: string, sizeBytes: number, signal: AbortSignal | undefined): Promise<void> {
    const Bucket = this.location.bucket;
    const Key = this.fullKey(key);
    const created = await this.request('create multipart upload', key, signal, (attemptSignal) => this.client.send(new CreateMultipartUploadCommand({ Bucket, Key }), { abortSignal: attemptSignal }));
    const UploadId = created.UploadId;
    if (UploadId === undefined) throw objectStoreError('rejected', 'create multipart upload', this.description, key, 'no UploadId in the answer');
    try {
      const parts = planFileParts(sizeBytes, this.options.partSizeBytes);
      const etags = new Array<string>(parts.length);
      let nextPartIndex = 0;
      const sendParts = async (): Promise<void> => {
        while (nextPartIndex < parts.length) {
          const partIndex = nextPartIndex++;
          etags[partIndex] = await this.putFilePart(key, Key, UploadId, path, parts[partIndex], signal);
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.options.partsInFlightMax, parts.length) }, sendParts));
      const MultipartUpload = { Parts: parts.map((part, index) => ({ PartNumber: part.partNumber, ETag: etags[index] })) };
      await this.request('complete multipart upload', key, signal, (attemptSignal) => this.client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload }), { abortSignal: attemptSignal }));
    } catch (error) {
      // Best effort: an upload left open only costs storage until the bucket's lifecycle rule removes it.
      await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }), { abortSignal: AbortSignal.timeout(this.options.requestTimeoutMs) }).catch(() => undefined);
      throw error;
    }
  }

  private async putFilePart(key: string, Key: string, UploadId: string, path: string, part: FilePart, signal: AbortSignal | undefined): Promise<string> {
    const response = await this.request(`upload part ${part.partNumber}`, key, signal, async (attemptSignal) => {
      const Body = await readFilePart(path, part);
      return this.client.send(new UploadPartCommand({ Bucket: this.location.bucket, Key, UploadId, PartNumber: part.partNumber, Body, ContentLength: Body.byteLength }), { abortSignal: attemptSignal });
    });
    if (response.ETag === undefined) throw objectStoreError('rejected', `upload part ${part.partNumber}`, this.description, key, 'no ETag in the answer');
    return response.ETag;
  }
}

function statusOf(error: unknown): number | null {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode ?? null;
  if (error instanceof S3ResponseError) return error.status;
  return null;
}

function objectInfoOf(key: string, response: S3HttpResponse): ObjectInfo {
  const headers = response.headers;
  const modified = headers['last-modified'] === undefined ? 0 : Date.parse(headers['last-modified']);
  return { key, sizeBytes: Number(headers['content-length'] ?? 0), etag: headers.etag ?? null, lastModifiedMs: Number.isNaN(modified) ? 0 : modified };
}

/** Status first (404 missing, 501 unsupported, 5xx/429/408 transient, other 4xx refused), then network errno. */
export function classifyS3Error(error: unknown): Classified {
  const status = statusOf(error);
  const text = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : String(error).slice(0, 300);
  if (status !== null) {
    const cause = `HTTP ${status} ${text}`;
    // A missing bucket (we created it at open) is what Swift answers while its container servers are still
    // starting: retried within the bounded attempts, then reported with the cause, never as a missing object.
    if (status === 404 && error instanceof Error && error.name === 'NoSuchBucket') return { kind: 'transient', cause };
    if (status === 404) return { kind: 'not-found', cause };
    if (status === 412) return { kind: 'changed', cause: `${cause} (the object is not the pinned version)` };
    if (status === 501) return { kind: 'unsupported', cause };
    if (status >= 500 || status === 429 || status === 408) return { kind: 'transient', cause };
    // AWS: a conditional write that raced another write to the key; retrying yields 200 or 412.
    if (status === 409 && error instanceof Error && error.name === 'ConditionalRequestConflict') return { kind: 'transient', cause };
    return { kind: 'rejected', cause };
  }
  const errno = isTransientNetworkError(error);
  if (errno !== null) return { kind: 'transient', cause: `${errno} ${text}` };
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return { kind: 'transient', cause: text };
  return { kind: 'rejected', cause: text };
}

const KNOWN_LOCATION_CONSTRAINTS: readonly string[] = Object.values(BucketLocationConstraint);

function isLocationConstraint(region: string): region is BucketLocationConstraint {
  return KNOWN_LOCATION_CONSTRAINTS.includes(region);
}

/** The constraint AWS needs for a region other than us-east-1; null for us-east-1 and for regions of other stores. */
function locationConstraintOf(region: string): BucketLocationConstraint | null {
  return region !== 'us-east-1' && isLocationConstraint(region) ? region : null;
}

function checkRange(offset: number, lengthBytes: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(lengthBytes) || lengthBytes < 0) {
    throw new RangeError(`bad byte range: offset ${offset}, length ${lengthBytes}`);
  }
}

interface ByteBody {
  transformToByteArray(): Promise<Uint8Array>;
}

async function bodyBytes(body: ByteBody | undefined): Promise<Uint8Array> {
  return body === undefined ? new Uint8Array(0) : body.transformToByteArray();
}

/** Adds Content-MD5 to a built request whose body is a string or bytes (DeleteObjects' XML). */
function addContentMd5(request: unknown): void {
  if (typeof request !== 'object' || request === null) return;
  const headers: unknown = Reflect.get(request, 'headers');
  const body: unknown = Reflect.get(request, 'body');
  if (typeof headers !== 'object' || headers === null) return;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return;
  Reflect.set(headers, 'content-md5', createHash('md5').update(body).digest('base64'));
}
