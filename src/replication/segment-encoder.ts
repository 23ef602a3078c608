// The primary's handle on its segment encoder thread (segment-encoder-worker.ts): reading captured bytes,
// compression, SHA-256 and framing all happen there, so the event loop that runs commits only posts a plan (paths,
// descriptors, offsets) and receives the finished object in a SharedArrayBuffer. Requests are answered in order; a
// thread that dies fails the requests it held (the upload queue retries them) and the next request starts a
// new one.
import { Worker } from 'node:worker_threads';
import { InternalError } from '../core/errors.js';
import { type PartPlan, wireRangeOf } from './capture-parts.js';
import { parseEncodeResult, type EncodeRequest, type EncoderThreadData } from './segment-encoder-messages.js';
import type { FramedObject } from './segment-codec.js';

const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(RUNNING_FROM_SOURCE ? './segment-encoder-worker.ts' : './segment-encoder-worker.js', import.meta.url);
/** The thread holds one part being encoded (≤ PART_BYTES_MAX raw) and its compressed copy. */
const ENCODER_HEAP_MB_MAX = 256;

interface Waiter { readonly resolve: (framed: FramedObject) => void; readonly reject: (error: Error) => void }

export interface SegmentEncoderOptions {
  /** Run the thread at the lowest CPU priority (replication.primary.upload.priority=low; Linux only). */
  readonly lowPriority: boolean;
}

function startThread(encoderOptions: SegmentEncoderOptions): Worker {
  const workerData: EncoderThreadData = { lowPriority: encoderOptions.lowPriority };
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
  encode(seq: number, plan: PartPlan): Promise<FramedObject> {
    const thread = this.thread ?? this.start();
    const request: EncodeRequest = { id: this.nextId++, seq, operations: plan.operations, ranges: plan.ranges.map(wireRangeOf) };
    return new Promise<FramedObject>((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      thread.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread !== null) await thread.terminate();
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
    if (result.object === null) waiter.reject(new RangeError(result.error));
    else waiter.resolve({ object: Buffer.from(result.object.buffer, result.object.byteOffset, result.object.byteLength), sha256Hex: result.sha256Hex });
  }
}
