// One PostgreSQL wire protocol connection, as a state machine: `startup` (start-up packet; SSLRequest and
// GSSENCRequest answered 'N'; CancelRequest served and closed) → `authenticating` → `ready` → `closed`.
// Messages are framed as they arrive and run one at a time in order; errors in the extended protocol discard
// messages until Sync. Memory is bounded: one message by pg.recv.buffer.size, queued input by pausing the
// socket, output by waiting for the socket to drain. Handshake and idle timeouts close the connection.
import type { Socket } from 'node:net';
import type { Catalog } from '../sql/compiler.js';
import type { WriterClient } from '../engine/writer-client.js';
import { SqlError } from '../core/errors.js';
import { pgQueryChannel, type QueryOutcome } from '../core/diagnostics.js';
import { getLogger } from '../log/logger.js';
import { MessageReader, parseMessageText, printableType, protocolError, type FrontendMessage } from './message-reader.js';
import { MessageWriter, type ErrorFields } from './message-writer.js';
import { parameterStatuses, parseStartupPacket, statementTimeoutOf } from './startup.js';
import { PasswordAuthentication, type AuthMethod, type PgUser } from './authentication.js';
import { ExtendedQuery } from './extended-query.js';
import { runSimpleQuery } from './simple-query.js';
import { StatementFailure } from './statement-failure.js';
import type { PgSession, Portal } from './portal.js';
import { errorFieldsOf, isProtocolError, outcomeOf } from './sql-state.js';
import { CopyIn } from './copy-in.js';
import { BodyReader } from './body-reader.js';
import type { BackendKey, CancelRegistry } from './cancel-registry.js';

const log = getLogger('pg');
/** Longest user name written to the log for a failed login. */
const LOGGED_USER_LENGTH_MAX = 64;

export interface PgConnectionSettings {
  readonly catalog: Catalog;
  readonly writer: WriterClient;
  /** The whole server refuses writes (pg.security.readonly or http.security.readonly). */
  readonly readOnly: boolean;
  readonly users: readonly PgUser[];
  readonly authMethod: AuthMethod;
  readonly statementTimeoutMs: number;
  /** Largest frontend message, length field included (pg.recv.buffer.size). */
  readonly messageBytesMax: number;
  readonly idleTimeoutMs: number;
  readonly handshakeTimeoutMs: number;
  readonly cancels: CancelRegistry;
  /** Where COPY FROM STDIN stages its rows (the db directory) and how many lines the import analyses. */
  readonly copy: { readonly dbDir: string; readonly analysisMaxLines: number };
  /** Called with a CancelRequest whose key is not registered here (another worker may own it). */
  readonly onForeignCancel?: (processId: number, secretKey: number) => void;
}

type State = 'startup' | 'authenticating' | 'ready' | 'closed';
type TransactionStatus = 'I' | 'T' | 'E';

export class PgConnection {
  readonly closed: Promise<void>;
  private state: State = 'startup';
  /** Set once a last ErrorResponse is on its way: the connection reads and answers nothing more. */
  private closing = false;
  private readonly reader: MessageReader;
  private readonly out = new MessageWriter();
  private readonly queue: FrontendMessage[] = [];
  private queuedBytes = 0;
  private pumping = false;
  private skipUntilSync = false;
  private transaction: TransactionStatus = 'I';
  private auth: PasswordAuthentication | undefined;
  private userName = '';
  private key: BackendKey | undefined;
  private session: PgSession | undefined;
  private extended: ExtendedQuery | undefined;
  private simplePortal: Portal | undefined;
  /** The COPY FROM STDIN a statement just started, and the one taking CopyData (with how it was started). */
  private startedCopy: CopyIn | undefined;
  private copy: { readonly copyIn: CopyIn; readonly origin: 'simple' | 'extended' } | undefined;
  private readonly handshakeTimer: NodeJS.Timeout;
  private resolveClosed: () => void = () => undefined;

  constructor(private readonly socket: Socket, private readonly settings: PgConnectionSettings) {
    this.reader = new MessageReader(settings.messageBytesMax);
    this.closed = new Promise((resolve) => { this.resolveClosed = resolve; });
    this.handshakeTimer = setTimeout(() => this.closeWith('handshake timeout'), settings.handshakeTimeoutMs);
    socket.setNoDelay(true);
    socket.setTimeout(settings.idleTimeoutMs, () => { if (!this.pumping) this.closeWith('idle timeout'); });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.shutdown());
    socket.on('close', () => this.shutdown());
  }

  /** Closes at once (server shutdown, or the peer went away); a running query is cancelled. */
  shutdown(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.handshakeTimer);
    this.cancelRunning('connection closed');
    this.extended?.closeAllPortals();
    this.copy?.copyIn.abort();
    this.startedCopy?.abort();
    if (this.key !== undefined) this.settings.cancels.release(this.key.processId);
    this.socket.destroy();
    this.resolveClosed();
  }

  /** Closes unless a message is being processed (server shutdown lets running statements finish). */
  closeIfIdle(): void {
    if (!this.pumping) this.shutdown();
  }

  private closeWith(reason: string): void {
    if (this.state === 'closed') return;
    log.info(() => `connection closed [remote=${this.remote()}, reason=${reason}]`);
    this.shutdown();
  }

  /** A method, not a field test: handlers called above may have closed the connection meanwhile. */
  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private remote(): string {
    return `${this.socket.remoteAddress ?? '?'}:${this.socket.remotePort ?? '?'}`;
  }

  private cancelRunning(reason: string): void {
    const portal = this.extended?.running ?? this.simplePortal;
    if (portal !== undefined) {
      portal.control.cancelled = true;
      portal.control.reason = reason;
    }
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'closed' || this.closing) return;
    try {
      let messages = this.reader.push(chunk);
      for (;;) {
        for (const message of messages) {
          if (message.type === '') this.onStartupPacket(message.body);
          else this.enqueue(message);
        }
        if (messages[messages.length - 1]?.type !== '' || this.isClosed()) break;
        messages = this.reader.drain();
        if (messages.length === 0) break;
      }
    } catch (error) {
      this.fatal(error);
      return;
    }
    void this.pump();
  }

  private enqueue(message: FrontendMessage): void {
    this.queue.push(message);
    this.queuedBytes += message.body.length + 5;
    // Input waits in the kernel once a message's worth is queued: a client pipelining faster than we answer
    // cannot grow this process's memory past the bound.
    if (this.queuedBytes > this.settings.messageBytesMax) this.socket.pause();
  }

  private onStartupPacket(body: Buffer): void {
    if (this.state !== 'startup') throw protocolError('unexpected start-up packet');
    const packet = parseStartupPacket(body);
    switch (packet.kind) {
      case 'ssl': case 'gssenc':
        // No TLS or GSS encryption: 'N' tells the client to go on in plain text (sslmode=prefer falls back).
        this.socket.write('N');
        return;
      case 'cancel':
        if (!this.settings.cancels.cancel(packet.processId, packet.secretKey)) this.settings.onForeignCancel?.(packet.processId, packet.secretKey);
        this.shutdown();
        return;
      case 'startup': {
        this.reader.startTyped();
        this.userName = packet.parameters.get('user') ?? '';
        const timeoutMs = statementTimeoutOf(packet.parameters.get('options')) ?? this.settings.statementTimeoutMs;
        this.startSession(timeoutMs, packet.parameters.get('application_name') ?? '');
        this.state = 'authenticating';
        this.auth = new PasswordAuthentication(this.settings.authMethod, this.userName, this.settings.users);
        this.auth.start(this.out);
        void this.flush();
        return;
      }
    }
  }

  private applicationName = '';

  private startSession(statementTimeoutMs: number, applicationName: string): void {
    this.applicationName = applicationName;
    this.session = {
      catalog: this.settings.catalog,
      writer: this.settings.writer,
      readOnly: this.settings.readOnly,
      statementTimeoutMs,
      onTransaction: (keyword) => { this.transaction = keyword === 'BEGIN' || keyword === 'START' ? 'T' : 'I'; },
      beginCopy: (statement) => {
        const copyIn = new CopyIn(statement, { catalog: this.settings.catalog, writer: this.settings.writer, ...this.settings.copy });
        this.startedCopy = copyIn;
        // CopyInResponse: text format overall and per column.
        this.out.begin('G');
        this.out.int8(0);
        this.out.int16(copyIn.columnCount);
        for (let k = 0; k < copyIn.columnCount; k++) this.out.int16(0);
        this.out.end();
      },
      flush: () => this.flush(),
    };
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.isClosed() && !this.closing) {
        const message = this.queue.shift() as FrontendMessage;
        this.queuedBytes -= message.body.length + 5;
        if (this.queuedBytes <= this.settings.messageBytesMax) this.socket.resume();
        await this.dispatch(message);
      }
      if (!this.isClosed() && !this.closing) await this.flush();
    } catch (error) {
      this.fatal(error);
    } finally {
      this.pumping = false;
    }
  }

  private async dispatch(message: FrontendMessage): Promise<void> {
    if (this.state === 'authenticating') {
      this.authenticate(message);
      return;
    }
    if (message.type === 'X') {
      this.shutdown();
      return;
    }
    if (this.copy !== undefined) {
      await this.copyMessage(this.copy, message);
      return;
    }
    switch (message.type) {
      case 'Q': await this.simpleQuery(message.body); return;
      case 'S': this.sync(); return;
      case 'H': await this.flush(); return;
      case 'P': case 'B': case 'D': case 'E': case 'C': await this.extendedMessage(message); return;
      // CopyData/CopyDone/CopyFail after a COPY failed: the client may still be sending; PostgreSQL ignores them.
      case 'd': case 'c': case 'f': return;
      default: throw protocolError(`unsupported message type '${printableType(message.type)}'`);
    }
  }

  private authenticate(message: FrontendMessage): void {
    const auth = this.auth;
    if (message.type !== 'p' || auth === undefined) throw protocolError(`expected a password message, got '${printableType(message.type)}'`);
    const step = auth.onPasswordMessage(message.body, this.out);
    if (step.kind === 'continue') return;
    if (step.kind === 'failed') {
      log.error(() => `authentication failed [remote=${this.remote()}, user=${JSON.stringify(this.userName.slice(0, LOGGED_USER_LENGTH_MAX))}, method=${this.settings.authMethod}]`);
      this.endWith({ severity: 'FATAL', sqlState: '28P01', message: 'invalid username/password' });
      return;
    }
    clearTimeout(this.handshakeTimer);
    const session = this.session;
    if (session === undefined) throw protocolError('no session after start-up');
    this.session = { ...session, readOnly: session.readOnly || step.readOnly };
    this.extended = new ExtendedQuery(this.session);
    this.state = 'ready';
    for (const [name, value] of parameterStatuses(this.applicationName)) this.out.parameterStatus(name, value);
    this.key = this.settings.cancels.register({ cancel: () => this.cancelRunning('canceling statement due to user request') });
    this.out.backendKeyData(this.key.processId, this.key.secretKey);
    this.out.readyForQuery(this.transaction);
  }

  private async simpleQuery(body: Buffer): Promise<void> {
    const session = this.session;
    if (session === undefined) throw protocolError('query before start-up');
    let outcome: QueryOutcome = 'ok';
    try {
      const ended = await runSimpleQuery(body, this.out, session, (portal) => { this.simplePortal = portal; });
      if (ended === 'copy') {
        this.enterCopy('simple');
        return;
      }
    } catch (error) {
      if (!(error instanceof StatementFailure)) throw error;
      if (isProtocolError(error.error)) throw error.error;
      outcome = outcomeOf(error.error);
      this.out.errorResponse(errorFieldsOf(error.error, error.queryText, error.offset));
      if (this.transaction === 'T') this.transaction = 'E';
    }
    pgQueryChannel.publish({ outcome });
    this.out.readyForQuery(this.transaction);
    await this.flush();
  }

  private async extendedMessage(message: FrontendMessage): Promise<void> {
    const extended = this.extended;
    if (extended === undefined) throw protocolError('extended query before start-up');
    if (this.skipUntilSync) return;
    try {
      switch (message.type) {
        case 'P': extended.parse(message.body, this.out); return;
        case 'B': extended.bind(message.body, this.out); return;
        case 'D': extended.describe(message.body, this.out); return;
        case 'C': extended.close(message.body, this.out); return;
        default:
          if (await extended.execute(message.body, this.out) === 'copy') this.enterCopy('extended');
          else pgQueryChannel.publish({ outcome: 'ok' });
      }
    } catch (thrown) {
      const error = thrown instanceof StatementFailure ? thrown.error : thrown;
      if (isProtocolError(error)) throw error;
      if (message.type === 'E') pgQueryChannel.publish({ outcome: outcomeOf(error) });
      const text = thrown instanceof StatementFailure ? thrown.queryText : message.type === 'P' ? parseMessageText(message.body) : '';
      this.out.errorResponse(errorFieldsOf(error, text));
      this.skipUntilSync = true;
      if (this.transaction === 'T') this.transaction = 'E';
    }
  }

  private enterCopy(origin: 'simple' | 'extended'): void {
    const copyIn = this.startedCopy;
    if (copyIn === undefined) throw protocolError('COPY started without its state');
    this.startedCopy = undefined;
    this.copy = { copyIn, origin };
  }

  /**
   * Copy-in mode: CopyData feeds the import, CopyDone commits it, CopyFail abandons it; Flush and Sync are
   * ignored meanwhile (PostgreSQL's rule), anything else is a protocol violation.
   */
  private async copyMessage(copy: { readonly copyIn: CopyIn; readonly origin: 'simple' | 'extended' }, message: FrontendMessage): Promise<void> {
    if (message.type === 'H' || message.type === 'S') return;
    if (message.type !== 'd' && message.type !== 'c' && message.type !== 'f') {
      throw protocolError(`unexpected message type '${printableType(message.type)}' during COPY FROM STDIN`);
    }
    let outcome: QueryOutcome = 'ok';
    try {
      if (message.type === 'd') {
        await copy.copyIn.push(message.body);
        return;
      }
      this.copy = undefined;
      if (message.type === 'f') {
        copy.copyIn.abort();
        throw new SqlError(`COPY from stdin failed: ${new BodyReader(message.body).cstring().slice(0, 256)}`, 0, 'SVC_SQL_CANCELLED');
      }
      this.out.commandComplete(`COPY ${await copy.copyIn.finish()}`);
    } catch (error) {
      this.copy = undefined;
      copy.copyIn.abort();
      outcome = outcomeOf(error);
      this.out.errorResponse(errorFieldsOf(error));
      if (copy.origin === 'extended') this.skipUntilSync = true;
    }
    pgQueryChannel.publish({ outcome });
    if (copy.origin === 'simple') this.out.readyForQuery(this.transaction);
    await this.flush();
  }

  private sync(): void {
    this.skipUntilSync = false;
    if (this.transaction === 'I') this.extended?.closeAllPortals();
    this.out.readyForQuery(this.transaction);
  }

  /** Sends a FATAL ErrorResponse for a protocol violation (or a bug) and closes the connection. */
  private fatal(error: unknown): void {
    if (this.state === 'closed' || this.closing) return;
    const fields = errorFieldsOf(error);
    log.info(() => `connection closed [remote=${this.remote()}, reason=${fields.message}]`);
    this.endWith({ ...fields, severity: 'FATAL' });
  }

  /** Sends what is buffered plus a last ErrorResponse, then closes; nothing more is read or answered. */
  private endWith(fields: ErrorFields): void {
    this.closing = true;
    this.out.errorResponse(fields);
    this.socket.end(this.out.take(), () => this.shutdown());
    setTimeout(() => this.shutdown(), 1000).unref();
  }

  /** Writes buffered output; waits while the socket's send buffer is full (bounded output memory). */
  flush(): Promise<void> {
    if (this.out.bufferedBytes === 0 || this.socket.destroyed) return Promise.resolve();
    const written = this.socket.write(this.out.take());
    if (written) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }
}
