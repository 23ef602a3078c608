// The process's import parse threads, started on first use and shared by every upload the process serves.
// Sessions are numbered; each message a thread posts names its session and goes to that session's handler.
// A thread that dies fails the sessions with pieces outstanding and is replaced on the next use.
import { Worker } from 'node:worker_threads';
import { assert } from '../core/assert.js';
import { errorToPayload, InternalError } from '../core/errors.js';
import type { ParseSetup, PieceResult, ToParseThread } from './parse-messages.js';
import type { PartPlacement } from '../storage/staged-part-writes.js';

/** Under tsx (tests, benches) the thread runs the TypeScript source; built, the compiled module beside this one. */
const THREAD_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './parse-thread.ts' : './parse-thread.js', import.meta.url);

export interface PoolSession {
  readonly threadCount: number;
  /**
   * Hands a piece to a thread (round robin). Its buffer is shared, not transferred (nothing is detached): the
   * caller must not write it again until the thread hands it back in the piece's `done`.
   */
  send(seq: number, bytes: Uint8Array<SharedArrayBuffer>, recordsToSkip: number): void;
  /** Tells the thread that converted a piece where to write its rows. */
  write(thread: number, seq: number, placements: PartPlacement[]): void;
  close(): void;
}

export class ParsePool {
  private threads: Worker[] = [];
  private nextSessionId = 1;
  private readonly handlers = new Map<number, (result: PieceResult, thread: number) => void>();

  constructor(readonly threadCount: number) {
    assert(threadCount >= 1, 'a parse pool has at least one thread');
  }

  /** onResult gets each message with the index of the thread that sent it. */
  openSession(setup: ParseSetup, onResult: (result: PieceResult, thread: number) => void): PoolSession {
    this.start();
    const session = this.nextSessionId++;
    this.handlers.set(session, onResult);
    const threads = this.threads;
    for (const thread of threads) thread.postMessage({ kind: 'begin', session, setup } satisfies ToParseThread);
    let next = 0;
    return {
      threadCount: threads.length,
      send: (seq, bytes, recordsToSkip) => {
        const thread = threads[next++ % threads.length];
        thread.postMessage({ kind: 'piece', session, seq, bytes, recordsToSkip } satisfies ToParseThread);
      },
      write: (thread, seq, placements) => {
        threads[thread]?.postMessage({ kind: 'write', session, seq, placements } satisfies ToParseThread);
      },
      close: () => {
        this.handlers.delete(session);
        for (const thread of threads) thread.postMessage({ kind: 'end', session } satisfies ToParseThread);
      },
    };
  }

  private start(): void {
    if (this.threads.length > 0) return;
    for (let k = 0; k < this.threadCount; k++) {
      const thread = new Worker(THREAD_SCRIPT);
      // Idle threads must not keep a process alive that is shutting down.
      thread.unref();
      thread.on('message', (result: PieceResult) => this.handlers.get(result.session)?.(result, k));
      thread.on('error', (error) => this.failAll(error));
      thread.on('exit', () => this.failAll(new InternalError('an import parse thread exited')));
      this.threads.push(thread);
    }
  }

  /** Fails every open session and drops the threads; the next session starts new ones. */
  private failAll(error: unknown): void {
    const threads = this.threads;
    this.threads = [];
    for (const thread of threads) void thread.terminate();
    const payload = errorToPayload(error instanceof Error ? new InternalError(`import parse thread failed: ${error.message}`) : error);
    for (const [session, handler] of [...this.handlers]) handler({ kind: 'failed', session, seq: -1, error: payload }, -1);
    this.handlers.clear();
  }
}

let processPool: ParsePool | undefined;

/** The process-wide pool, or undefined when parsing stays on the request's thread (threadCount 0). */
export function parsePoolOf(threadCount: number): ParsePool | undefined {
  if (threadCount <= 0) return undefined;
  processPool ??= new ParsePool(threadCount);
  return processPool;
}
