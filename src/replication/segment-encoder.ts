// The primary's handle on its segment encoder thread (segment-encoder-worker.ts): reading captured bytes,
// compression, SHA-256 and framing all happen there, so the event loop that runs commits only posts a plan (paths,
// descriptors, offsets) and either receives the finished object in a SharedArrayBuffer or, given a key, learns
// that the thread stored it (the PUT runs at the thread's priority too). Answers name their request; a thread
// that dies fails the requests it held (the upload queue retries them) and the next request starts a new one.
import { Worker } from 'node:worker_threads';
import { InternalError } from '../core/errors.js';
import { assert } from '../core/assert.js';
import { type PartPlan, wireRangeOf } from './capture-parts.js';
import { parseEncodeResult, type EncodeRequest, type EncoderRequest, type EncodeResult, type EncoderThreadData, type PutTarget, type ThreadStore } from './segment-encoder-messages.js';
import type { FramedObject } from './segment-codec.js';

const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(RUNNING_FROM_SOURCE ? './segment-encoder-worker.ts' : './segment-encoder-worker.js', import.meta.url);
/** The thread holds a few parts being encoded or uploaded (≤ PART_BYTES_MAX raw each), their compressed copies and its store client. */
const ENCODER_HEAP_MB_MAX = 256;

/** A stored object's size, or the id under which the thread keeps an object it was too late to store. */
export type PutOutcome = { readonly kind: 'stored'; readonly objectBytes: number } | { readonly kind: 'late'; readonly objectId: number };

function putOutcomeOf(result: EncodeResult): PutOutcome {
  assert(result.kind === 'stored' || result.kind === 'late', 'a put request is answered once its object is stored, or as too late');
  return result.kind === 'stored' ? { kind: 'stored', objectBytes: result.objectBytes } : { kind: 'late', objectId: result.id };
}

function encodeRequest(id: number, seq: number, plan: PartPlan, put: PutTarget | null): EncodeRequest {
  return { kind: 'encode', id, seq, operations: plan.operations, ranges: plan.ranges.map(wireRangeOf), put };
}

interface Waiter { readonly resolve: (result: EncodeResult) => void; readonly reject: (error: Error) => void }

export interface SegmentEncoderOptions {
  /** Run the thread at the lowest CPU priority (replication.primary.upload.priority=low; Linux only). */
  readonly lowPriority: boolean;
  /** The store encodeAndPut writes to, opened by the thread itself; null: encode only. */
  readonly store: ThreadStore | null;
}

function startThread(encoderOptions: SegmentEncoderOptions): Worker {
  const workerData: EncoderThreadData = { lowPriority: encoderOptions.lowPriority, store: encoderOptions.store };
  const options = { resourceLimits: { maxOldGenerationSizeMb: ENCODER_HEAP_MB_MAX }, workerData };
  if (!RUNNING_FROM_SOURCE) return new Worker(WORKER_URL, options);
  // Tests run the sources under tsx, whose loader a worker does not inherit on Node 20.
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

export class SegmentEncoder {
  private thread: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();

  constructor(private readonly options: SegmentEncoderOptions) {}

  /** The framed object of `plan` under sequence number `seq` (segment-codec.ts's format), with its SHA-256. */
  async encode(seq: number, plan: PartPlan): Promise<FramedObject> {
    const id = this.nextId++;
    const result = await this.post(id, encodeRequest(id, seq, plan, null));
    assert(result.kind === 'encoded', 'an encode-only request is answered with its object');
    return { object: Buffer.from(result.object.buffer, result.object.byteOffset, result.object.byteLength), sha256Hex: result.sha256Hex };
  }

  /**
   * Encodes `plan` and has the thread store it under `target.key` (the caller checked the writer lease just
   * before; the thread does not start the PUT after `target.startByMs`). Past the deadline the thread keeps
   * the object: the caller checks the lease again and calls putKept, or releaseKept when it gives up.
   */
  async encodeAndPut(seq: number, plan: PartPlan, target: PutTarget): Promise<PutOutcome> {
    assert(this.options.store !== null, 'encodeAndPut needs an encoder started with a store');
    const id = this.nextId++;
    return putOutcomeOf(await this.post(id, encodeRequest(id, seq, plan, target)));
  }

  /** Stores an object the thread kept after a late answer, under a new deadline. */
  async putKept(objectId: number, target: PutTarget): Promise<PutOutcome> {
    const id = this.nextId++;
    return putOutcomeOf(await this.post(id, { kind: 'put-kept', id, objectId, put: target }));
  }

  releaseKept(objectId: number): void {
    const request: EncoderRequest = { kind: 'release-kept', objectId };
    this.thread?.postMessage(request);
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread !== null) await thread.terminate();
  }

  private post(id: number, request: EncoderRequest): Promise<EncodeResult> {
    const thread = this.thread ?? this.start();
    return new Promise<EncodeResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      thread.postMessage(request);
    });
  }

  private start(): Worker {
    const thread = startThread(this.options);
    // The thread never keeps the process alive: a stop flushes the queue first, then closes it.
    thread.unref();
    thread.on('message', (message: unknown) => this.answer(message));
    const fail = (why: string): void => {
      if (this.thread === thread) this.thread = null;
      for (const [id, waiter] of this.waiting) {
        this.waiting.delete(id);
        waiter.reject(new InternalError(`replication segment encoder stopped: ${why}`));
      }
    };
    thread.on('error', (error) => fail(error.message));
    thread.on('exit', (code) => fail(`exit code ${code}`));
    this.thread = thread;
    return thread;
  }

  private answer(message: unknown): void {
    const result = parseEncodeResult(message);
    const waiter = this.waiting.get(result.id);
    if (waiter === undefined) return;
    this.waiting.delete(result.id);
    if (result.kind === 'failed') waiter.reject(new RangeError(result.error));
    else waiter.resolve(result);
  }
}
