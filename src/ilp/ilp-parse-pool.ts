// The worker process's ILP parse threads, started on first use and shared by every /write request of the
// process. A request (a session) is parsed by one thread from start to end, so its lines stay in order and a
// line cut by a piece boundary is joined there; a new session goes to the thread with the fewest open ones.
// Parallelism comes from concurrent requests: one worker process that accepted most connections still keeps
// every core busy. A thread that dies fails its open sessions (500) and is replaced on the next session.
import { Worker } from 'node:worker_threads';
import { assert } from '../core/assert.js';
import { InternalError } from '../core/errors.js';
import { ilpErrorToPayload, type FromIlpThread, type IlpSessionSetup, type ToIlpThread } from './ilp-thread-messages.js';

/** Under tsx (tests, benches) the thread runs the TypeScript source; built, the compiled module beside this one. */
const THREAD_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './ilp-parse-thread.ts' : './ilp-parse-thread.js', import.meta.url);

export interface IlpThreadSession {
  /** Hands the next bytes of the body to the session's thread; the buffer is transferred (unusable here after). */
  send(bytes: Uint8Array): void;
  /** The body ended: the thread answers with 'staged' or 'failed'. */
  finish(): void;
  /** Ends the session without a commit; the thread deletes what it staged. No message of it arrives after this. */
  discard(): void;
}

type SessionHandler = (message: FromIlpThread) => void;

interface ThreadSlot {
  readonly thread: Worker;
  /** Open sessions of this thread and where their messages go. */
  readonly sessions: Map<number, SessionHandler>;
}

export class IlpParsePool {
  private readonly slots: (ThreadSlot | undefined)[];
  private nextSessionId = 1;

  /** `script`: the thread's entry (tests pass one that dies on purpose). */
  constructor(readonly threadCount: number, private readonly script: URL = THREAD_SCRIPT) {
    assert(threadCount >= 1, 'an ILP parse pool has at least one thread');
    this.slots = new Array<ThreadSlot | undefined>(threadCount).fill(undefined);
  }

  /** Opens a session on the least busy thread; `onMessage` gets its messages until it ends ('staged', 'failed' or discard). */
  openSession(setup: IlpSessionSetup, onMessage: SessionHandler): IlpThreadSession {
    const slot = this.leastBusySlot();
    const session = this.nextSessionId++;
    slot.sessions.set(session, (message) => {
      if (message.kind !== 'parsed') slot.sessions.delete(session);
      onMessage(message);
    });
    const post = (message: ToIlpThread, transfer: ArrayBuffer[] = []): void => {
      if (slot.sessions.has(session)) slot.thread.postMessage(message, transfer);
    };
    post({ kind: 'begin', session, setup });
    return {
      send: (bytes) => post({ kind: 'piece', session, bytes }, [bytes.buffer as ArrayBuffer]),
      finish: () => post({ kind: 'finish', session }),
      discard: () => {
        post({ kind: 'discard', session });
        slot.sessions.delete(session);
      },
    };
  }

  /** Stops every thread; open sessions fail. The process's pool is never closed (its threads are unref'd). */
  async close(): Promise<void> {
    const slots = this.slots.filter((slot) => slot !== undefined);
    this.slots.fill(undefined);
    await Promise.all(slots.map((slot) => slot.thread.terminate()));
  }

  private leastBusySlot(): ThreadSlot {
    let best = -1;
    for (let k = 0; k < this.slots.length; k++) {
      const slot = this.slots[k];
      if (slot === undefined) return this.startThread(k);
      if (best < 0 || slot.sessions.size < (this.slots[best]?.sessions.size ?? 0)) best = k;
    }
    const slot = this.slots[best];
    assert(slot !== undefined, 'every slot holds a running thread once none is empty');
    return slot;
  }

  private startThread(index: number): ThreadSlot {
    const thread = new Worker(this.script);
    // Idle threads must not keep a process alive that is shutting down.
    thread.unref();
    const slot: ThreadSlot = { thread, sessions: new Map() };
    thread.on('message', (message: FromIlpThread) => slot.sessions.get(message.session)?.(message));
    thread.on('error', (error) => this.failThread(index, slot, error));
    thread.on('exit', () => this.failThread(index, slot, new Error('the thread exited')));
    this.slots[index] = slot;
    return slot;
  }

  /** Fails every open session of a thread that died and frees its slot; the next session starts a new thread. */
  private failThread(index: number, slot: ThreadSlot, cause: Error): void {
    if (this.slots[index] === slot) this.slots[index] = undefined;
    void slot.thread.terminate();
    const error = ilpErrorToPayload(new InternalError(`ILP parse thread failed: ${cause.message}`));
    const handlers = [...slot.sessions];
    slot.sessions.clear();
    for (const [session, handler] of handlers) handler({ kind: 'failed', session, error });
  }
}

let processPool: IlpParsePool | undefined;

/** The process-wide pool, or undefined when bodies are parsed on the request's thread (threadCount 0). */
export function ilpParsePoolOf(threadCount: number): IlpParsePool | undefined {
  if (threadCount <= 0) return undefined;
  processPool ??= new IlpParsePool(threadCount);
  return processPool;
}
