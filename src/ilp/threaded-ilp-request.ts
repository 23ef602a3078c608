// The request thread's side of a /write body parsed on a parse thread: copies the body's chunks into pieces
// and hands them to the session's thread, at most ilpPiecesInFlightPerRequest at a time (so a request holds a
// bounded amount of bytes on the way however fast its client sends), and at the end receives the staged commit
// or the first error, with the same line numbers and codes as parsing here would give.
import * as fs from 'node:fs';
import type { IlpCommitRequest } from '../engine/writer-client.js';
import { assert } from '../core/assert.js';
import { ilpPieceBytes, ilpPiecesInFlightPerRequest } from '../core/limits.js';
import type { IlpParsePool, IlpThreadSession } from './ilp-parse-pool.js';
import { ilpErrorFromPayload, type FromIlpThread, type IlpSessionSetup } from './ilp-thread-messages.js';

export class ThreadedIlpRequest {
  private readonly session: IlpThreadSession;
  private piece: Uint8Array = Buffer.allocUnsafeSlow(ilpPieceBytes);
  private filled = 0;
  private inFlight = 0;
  /** Piece buffers the thread handed back, for reuse. */
  private readonly spareBuffers: Uint8Array[] = [];
  private failure: Error | undefined;
  /** Set once the thread staged the body: from then on its file is ours to commit or delete. */
  private staged: { readonly request: IlpCommitRequest | undefined } | undefined;
  private ended = false;
  private waiter: (() => void) | undefined;

  constructor(pool: IlpParsePool, setup: IlpSessionSetup) {
    this.session = pool.openSession(setup, (message) => this.receive(message));
  }

  /** Takes the next chunk of the body; throws the session's first error once it is known. */
  async feed(chunk: Buffer): Promise<void> {
    this.throwIfFailed();
    let offset = 0;
    while (offset < chunk.length) {
      const count = Math.min(ilpPieceBytes - this.filled, chunk.length - offset);
      this.piece.set(chunk.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === ilpPieceBytes) await this.sendPiece();
    }
  }

  /** The body ended: the thread parses its last line and stages every row; undefined when it held none. */
  async stage(): Promise<IlpCommitRequest | undefined> {
    if (this.filled > 0) await this.sendPiece();
    this.throwIfFailed();
    this.session.finish();
    while (this.staged === undefined && this.failure === undefined) await this.nextMessage();
    this.throwIfFailed();
    assert(this.staged !== undefined, 'a finished session ends staged or failed');
    return this.staged.request;
  }

  /** Drops what the body staged: the request failed, or the primary refused its commit. */
  discard(): void {
    if (this.ended) return;
    this.ended = true;
    const stagedFile = this.staged?.request?.stagedFile;
    if (stagedFile !== undefined) fs.rmSync(stagedFile, { force: true });
    else if (this.staged === undefined && this.failure === undefined) this.session.discard();
  }

  private async sendPiece(): Promise<void> {
    while (this.inFlight >= ilpPiecesInFlightPerRequest && this.failure === undefined) await this.nextMessage();
    this.throwIfFailed();
    const bytes = this.piece.subarray(0, this.filled);
    // Not zero-filled and not from the shared pool: the buffer is overwritten, then transferred.
    this.piece = this.spareBuffers.pop() ?? Buffer.allocUnsafeSlow(ilpPieceBytes);
    this.filled = 0;
    this.inFlight++;
    this.session.send(bytes);
  }

  private receive(message: FromIlpThread): void {
    switch (message.kind) {
      case 'parsed':
        this.inFlight--;
        if (this.spareBuffers.length < ilpPiecesInFlightPerRequest) this.spareBuffers.push(new Uint8Array(message.buffer));
        break;
      case 'staged':
        this.staged = { request: message.request };
        break;
      case 'failed':
        this.failure = ilpErrorFromPayload(message.error);
        break;
    }
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private nextMessage(): Promise<void> {
    assert(this.waiter === undefined, 'one wait at a time: feed and stage are awaited in turn');
    return new Promise((resolve) => { this.waiter = resolve; });
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
