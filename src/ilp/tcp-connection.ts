// One ILP TCP connection: the ECDSA handshake when keys are configured, then line protocol until the peer
// closes. Nothing is ever sent back but the challenge. Lines go into an IlpRequest (one commit unit; designated
// timestamps without a suffix are nanoseconds, QuestDB's TCP default) that is committed at the next tick of the
// commit interval (commit-tick.ts), as soon as its parsed bytes reach ilpTcpEarlyCommitBytes while no commit is in
// flight (or pass the uncommitted bound while one is), and when the stream ends.
// Invariants: at most one commit is in flight, and while it is the next unit is parsed until it passes the
// uncommitted bound, when the socket is paused: a connection holds at most one unit in flight plus the bound plus
// one chunk, parsing overlaps the primary's commit, and a slow primary slows the sender rather than filling
// memory; units commit in the order they were parsed; a bad line closes the connection and nothing it sent since
// the unit in flight is committed; a line cut off by the end of the stream is dropped, never committed short; an
// idle connection holds no rows.
import type { Socket } from 'node:net';
import type { IlpCommitRequest, WriterClient } from '../engine/writer-client.js';
import { IlpRequest, type IlpIngestOptions } from './ilp-request.js';
import { msUntilCommitTick } from './commit-tick.js';
import { IlpTcpHandshake } from './tcp-auth.js';
import type { IlpAuthDb } from './tcp-auth-db.js';
import { IlpError } from './ilp-errors.js';
import { SvcError, asStorageError } from '../core/errors.js';
import { assert, assertNever } from '../core/assert.js';
import { ilpChannel, unhandledErrorChannel } from '../core/diagnostics.js';
import { ilpTcpCommitRetryDelayMaxMs, ilpTcpCommitRetryDelayMinMs, ilpTcpEarlyCommitBytes } from '../core/limits.js';
import { getLogger } from '../log/logger.js';
import { readIntoSharedBuffer } from './shared-read-buffer.js';

const log = getLogger('ilp-tcp');

export interface IlpTcpConnectionSettings {
  /** lineBytesMax is line.tcp.max.line.size; spillBytes must exceed uncommittedBytesMax (a commit comes first). */
  readonly ingest: IlpIngestOptions;
  readonly writer: WriterClient;
  readonly commitIntervalMs: number;
  readonly uncommittedBytesMax: number;
  /** undefined: no authentication. */
  readonly authDb: IlpAuthDb | undefined;
}

/** handshake → streaming → ending (peer gone or server closing: commit what is complete) → closed. */
type ConnectionState = 'handshake' | 'streaming' | 'ending' | 'closed';

/** The E record of a failed connection: where, which line (numbered from the start of the connection), why. */
function describeFailure(remote: string, error: unknown, lineOffset: number): string {
  const line = error instanceof IlpError && error.line > 0 ? ` error in line ${lineOffset + error.line}:` : '';
  const code = error instanceof SvcError ? ` [code=${error.code}]` : '';
  const reason = error instanceof Error ? error.message : String(error);
  return `ILP TCP ${remote}:${line} ${reason}${code}; connection closed, nothing it sent since its last commit is committed`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class IlpTcpConnection {
  readonly remote: string;
  /** Resolves once the connection is closed and its last commit has been answered (or abandoned). */
  readonly closed: Promise<void>;
  private readonly resolveClosed: () => void;
  private state: ConnectionState;
  private readonly handshake: IlpTcpHandshake | undefined;
  /** The commit unit being parsed; undefined while nothing arrived since the last commit. */
  private request: IlpRequest | undefined;
  private requestStartedAt = 0n;
  /** The unfinished last line of the unit last committed; the next unit starts with it. */
  private unfinishedLine: Buffer | undefined;
  /** Lines of the units already committed, so log records number lines from the start of the connection. */
  private linesBefore = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The commit tick the timer fired for, until the commit it asked for takes it (the primary gathers by it). */
  private firedTick: number | undefined;
  private committing = false;
  private commitWanted = false;
  /** Set when shutdown's drain time ran out: overloaded commits are no longer retried. */
  private abandoned = false;
  private readonly earlyCommitBytes: number;

  /** The connection's socket, reading into the process's shared buffer (shared-read-buffer.ts). */
  private readonly socket: Socket;

  constructor(accepted: Socket, private readonly settings: IlpTcpConnectionSettings) {
    assert(settings.ingest.spillBytes > settings.uncommittedBytesMax, 'a TCP commit unit is committed before it would spill');
    this.earlyCommitBytes = Math.min(ilpTcpEarlyCommitBytes, settings.uncommittedBytesMax);
    this.remote = `${accepted.remoteAddress ?? '?'}:${accepted.remotePort ?? '?'}`;
    let resolveClosed = (): void => undefined;
    this.closed = new Promise((resolve) => { resolveClosed = resolve; });
    this.resolveClosed = resolveClosed;
    this.handshake = settings.authDb === undefined ? undefined : new IlpTcpHandshake(settings.authDb);
    this.state = this.handshake === undefined ? 'streaming' : 'handshake';
    const socket = readIntoSharedBuffer(accepted, (chunk) => this.onData(chunk));
    this.socket = socket;
    socket.on('end', () => this.onPeerGone());
    socket.on('close', () => this.onPeerGone());
    socket.on('error', (error) => log.debug(() => `ILP TCP ${this.remote}: ${error.message}`));
  }

  /** The server is closing: a connection still authenticating closes now; others commit what is complete, then close. */
  shutdown(): void {
    if (this.state === 'handshake') this.finish();
    else if (this.state === 'streaming') this.startEnding();
  }

  /** Shutdown's drain time ran out: close now; rows not yet committed are lost (and logged). */
  abandon(): void {
    this.abandoned = true;
    if (this.state === 'closed') return;
    if (this.request !== undefined && this.request.rows > 0) {
      log.error(`ILP TCP ${this.remote}: closed at shutdown after the drain timeout; ${this.request.rows} row(s) received since its last commit are not committed`);
    }
    this.finish();
  }

  private onData(chunk: Buffer): void {
    switch (this.state) {
      case 'handshake':
        this.onHandshakeData(chunk);
        return;
      case 'streaming':
        this.ingest(chunk);
        return;
      case 'ending':
      case 'closed':
        return; // the stream is over for us: what is parsed gets committed, nothing more is read
      default:
        assertNever(this.state, 'connection state');
    }
  }

  private onHandshakeData(chunk: Buffer): void {
    assert(this.handshake !== undefined, 'a connection in the handshake state has a handshake');
    const step = this.handshake.receive(chunk);
    switch (step.kind) {
      case 'wait':
        if (step.reply !== undefined) this.socket.write(step.reply);
        return;
      case 'refused':
        log.info(`ILP TCP ${this.remote}: authentication failed, closing: ${step.reason}`);
        this.finish();
        return;
      case 'accepted':
        log.debug(() => `ILP TCP ${this.remote}: authenticated as '${step.keyId}'`);
        this.state = 'streaming';
        if (step.rest.length > 0) this.ingest(step.rest);
        return;
      default:
        assertNever(step, 'handshake step');
    }
  }

  private ingest(chunk: Buffer): void {
    let request = this.request;
    try {
      if (request === undefined) request = this.openRequest();
      request.feed(chunk);
    } catch (error) {
      this.fail(error, this.linesBefore);
      return;
    }
    if (request.rows === 0) return;
    if (this.timer === undefined) {
      const now = Date.now();
      const delayMs = msUntilCommitTick(now, this.settings.commitIntervalMs);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.state !== 'streaming') return;
        this.firedTick = now + delayMs;
        this.requestCommit();
      }, delayMs).unref();
    }
    // Enough for a commit of its own and the primary is not busy with ours: send it rather than wait for the tick.
    if (!this.committing && this.unitIsDue()) {
      this.requestCommit();
      return;
    }
    if (request.sizeBytes <= this.settings.uncommittedBytesMax) return;
    // Full while the previous unit is still being committed: read nothing more until that commit is answered.
    if (this.committing) this.socket.pause();
    this.requestCommit();
  }

  /** A new commit unit, starting with the unfinished line the previous one left. */
  private openRequest(): IlpRequest {
    // A unit is committed once its parsed rows pass uncommittedBytesMax, which bounds the rows room is made for.
    // It announces nothing to the commit ordering: it stays open for the commit interval whether or not rows
    // come, so requests waiting for it would wait out the bound (its commit is still ordered behind others').
    const request = new IlpRequest(this.settings.ingest, 'ns', this.settings.uncommittedBytesMax);
    this.request = request;
    this.requestStartedAt = process.hrtime.bigint();
    const carried = this.unfinishedLine;
    this.unfinishedLine = undefined;
    if (carried !== undefined) request.feed(carried);
    return request;
  }

  private onPeerGone(): void {
    if (this.state === 'handshake') this.finish();
    else if (this.state === 'streaming') this.startEnding();
  }

  private startEnding(): void {
    this.state = 'ending';
    this.requestCommit();
  }

  private requestCommit(): void {
    this.commitWanted = true;
    if (!this.committing) void this.runCommits().catch((error: unknown) => this.fail(error, 0));
  }

  /**
   * Commits until nothing more is wanted; then closes when ending. The socket is read while a unit's commit is
   * in flight, into the next unit (commitPending resumes it, ingest pauses it when that unit fills up).
   */
  private async runCommits(): Promise<void> {
    this.committing = true;
    try {
      while ((this.commitWanted || this.unitIsDue()) && this.state !== 'closed') {
        this.commitWanted = false;
        await this.commitPending();
      }
    } finally {
      this.committing = false;
    }
    if (this.state === 'streaming') this.socket.resume();
    else if (this.state === 'ending') this.finish();
    else if (this.state === 'closed') this.resolveClosed();
  }

  /** The unit being parsed is worth a commit of its own now that none is in flight. */
  private unitIsDue(): boolean {
    return this.state === 'streaming' && this.request !== undefined && this.request.sizeBytes >= this.earlyCommitBytes;
  }

  private async commitPending(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const request = this.request;
    if (request === undefined || request.rows === 0) return;
    this.request = undefined;
    this.unfinishedLine = request.takeUnfinishedLine();
    this.linesBefore += request.lines;
    const tick = this.firedTick;
    this.firedTick = undefined;
    let staged: IlpCommitRequest | undefined;
    try {
      staged = request.commitRequest();
    } catch (error) {
      request.discard();
      this.fail(asStorageError(error), 0);
      return;
    }
    assert(staged !== undefined, 'a commit unit with rows stages them');
    // The unit is staged and the next one is empty: read into it while this one commits (paused when the
    // previous unit filled up before its turn came).
    if (this.state === 'streaming') this.socket.resume();
    if (await this.sendCommit({ ...staged, tcp: true, ...(tick === undefined ? {} : { tick }) })) request.committed();
    else request.discard();
  }

  /** Sends one commit unit; an overloaded primary (503 SVC_OVERLOADED) is retried with backoff. False when it failed. */
  private async sendCommit(staged: IlpCommitRequest): Promise<boolean> {
    const startedAt = this.requestStartedAt;
    let delayMs = ilpTcpCommitRetryDelayMinMs;
    for (;;) {
      try {
        const result = await this.settings.writer.ilpCommit(staged);
        ilpChannel.publish({ transport: 'tcp', rows: result.rowsCommitted, commitMs: Number(process.hrtime.bigint() - startedAt) / 1e6 });
        return true;
      } catch (error) {
        // Only an overloaded primary is worth waiting for; SVC_IPC (503 too) means it went away or is stuck.
        if (!(error instanceof SvcError && error.httpStatus === 503 && error.code === 'SVC_OVERLOADED') || this.abandoned || this.state === 'closed') {
          this.fail(error, 0);
          return false;
        }
        log.debug(() => `ILP TCP ${this.remote}: commit refused (${error.message}); retrying in ${delayMs} ms`);
      }
      await sleep(delayMs);
      delayMs = Math.min(ilpTcpCommitRetryDelayMaxMs, delayMs * 2);
    }
  }

  /** Logs why, drops what was not committed, closes. `lineOffset` turns a commit unit's line numbers into the connection's. */
  private fail(error: unknown, lineOffset: number): void {
    if (this.state === 'closed') return;
    // Anything but a typed operating or user error is a bug: the unhandled-error subscriber writes its C record.
    if (!(error instanceof SvcError) || error.code === 'SVC_INTERNAL') unhandledErrorChannel.publish({ source: 'ilp-tcp', origin: 'local', error });
    log.error(describeFailure(this.remote, error, lineOffset));
    this.request?.discard();
    this.request = undefined;
    this.unfinishedLine = undefined;
    this.finish();
  }

  private finish(): void {
    if (this.state === 'closed') return;
    const ending = this.state === 'ending';
    this.state = 'closed';
    clearTimeout(this.timer);
    this.timer = undefined;
    const unfinished = this.unfinishedLine ?? this.request?.takeUnfinishedLine();
    if (ending && unfinished !== undefined && unfinished.length > 0) {
      log.info(`ILP TCP ${this.remote}: the stream ended inside a line; its ${unfinished.length} byte(s) are dropped`);
    }
    this.request?.discard();
    this.request = undefined;
    this.unfinishedLine = undefined;
    this.socket.destroy();
    // A commit in flight is still answered: `closed` waits for it (runCommits resolves it then).
    if (!this.committing) this.resolveClosed();
  }
}
