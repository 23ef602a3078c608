// Frames the bytes of a PostgreSQL connection into messages. Before start-up completes a message has no type
// byte (`int32 length, body`); after it, `byte type, int32 length, body`. Lengths are checked against the
// connection's bound before any body is buffered, so a peer cannot make the server hold more than that.
import { SvcError } from '../core/errors.js';

export interface FrontendMessage {
  /** The type byte as a character ('Q', 'P', ...); '' for a start-up phase message. */
  readonly type: string;
  readonly body: Buffer;
}

/** Smallest valid length field: the length counts itself. */
const LENGTH_FIELD_BYTES = 4;

export function protocolError(message: string): SvcError {
  return new SvcError('SVC_PG_PROTOCOL', message, 400);
}

export class MessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** True once the start-up message was read: later messages carry a type byte. */
  private typed = false;

  /** `messageBytesMax` bounds one message, length field included. */
  constructor(private readonly messageBytesMax: number) {}

  /** Switches to typed messages (after the start-up packet). */
  startTyped(): void {
    this.typed = true;
  }

  get bufferedBytes(): number {
    return this.buffered;
  }

  /** Adds received bytes and returns the complete messages they finish. Throws SVC_PG_PROTOCOL on a bad length. */
  push(chunk: Buffer): FrontendMessage[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: FrontendMessage[] = [];
    for (;;) {
      const message = this.next();
      if (message === undefined) return messages;
      messages.push(message);
      // The start-up packet switches framing; the caller calls startTyped() before pushing more, but bytes
      // already buffered after it (pipelined by the client) must be framed typed: stop here and let it decide.
      if (message.type === '') return messages;
    }
  }

  /** Frames what is buffered already (after startTyped()). */
  drain(): FrontendMessage[] {
    return this.push(Buffer.alloc(0));
  }

  private next(): FrontendMessage | undefined {
    const headerBytes = this.typed ? 1 + LENGTH_FIELD_BYTES : LENGTH_FIELD_BYTES;
    if (this.buffered < headerBytes) return undefined;
    const head = this.peek(headerBytes);
    const length = head.readInt32BE(this.typed ? 1 : 0);
    if (length < LENGTH_FIELD_BYTES) throw protocolError(`invalid message length [length=${length}]`);
    if (length > this.messageBytesMax) throw protocolError(`message too large [length=${length}, max=${this.messageBytesMax}] [pg.recv.buffer.size]`);
    const total = (this.typed ? 1 : 0) + length;
    if (this.buffered < total) return undefined;
    const whole = this.take(total);
    return { type: this.typed ? String.fromCharCode(whole[0]) : '', body: whole.subarray(headerBytes) };
  }

  private peek(bytes: number): Buffer {
    const first = this.chunks[0];
    if (first.length >= bytes) return first;
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }

  private take(bytes: number): Buffer {
    const joined = this.peek(bytes);
    const taken = joined.subarray(0, bytes);
    const rest = joined.subarray(bytes);
    this.chunks[0] = rest;
    if (rest.length === 0) this.chunks.shift();
    this.buffered -= bytes;
    // A copy, so one small message does not pin a large received chunk while it waits to be processed.
    return Buffer.from(taken);
  }
}

/** The query text of a Parse message (for an error's position), '' when it cannot be read. */
export function parseMessageText(body: Buffer): string {
  const nameEnd = body.indexOf(0);
  const textEnd = nameEnd < 0 ? -1 : body.indexOf(0, nameEnd + 1);
  return textEnd < 0 ? '' : body.toString('utf8', nameEnd + 1, textEnd);
}

/** A message type byte as text for error messages (hex when not printable). */
export function printableType(type: string): string {
  const code = type.charCodeAt(0);
  return code >= 32 && code < 127 ? type : `0x${code.toString(16)}`;
}
