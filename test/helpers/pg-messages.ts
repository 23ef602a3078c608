// Builders of PostgreSQL frontend messages for protocol-level tests (pg-protocol's testing/test-buffers.ts
// idea): each returns the exact bytes, so a test can send valid messages, break them on purpose, or split them.
import { connect, type Socket } from 'node:net';

export function cstring(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
}

function int16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value);
  return buffer;
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

/** `type, int32 length, body`; `lengthOverride` writes a wrong length on purpose. */
export function typedMessage(type: string, body: Buffer, lengthOverride?: number): Buffer {
  return Buffer.concat([Buffer.from(type, 'latin1'), int32(lengthOverride ?? body.length + 4), body]);
}

export function startupMessage(parameters: Record<string, string>): Buffer {
  const body = Buffer.concat([int32(196608), ...Object.entries(parameters).flatMap(([name, value]) => [cstring(name), cstring(value)]), Buffer.from([0])]);
  return Buffer.concat([int32(body.length + 4), body]);
}

export function passwordMessage(password: string): Buffer {
  return typedMessage('p', cstring(password));
}

export function queryMessage(sql: string): Buffer {
  return typedMessage('Q', cstring(sql));
}

export function parseMessage(name: string, sql: string, oids: readonly number[] = []): Buffer {
  return typedMessage('P', Buffer.concat([cstring(name), cstring(sql), int16(oids.length), ...oids.map(int32)]));
}

/** Bind with text parameters (null = NULL) and one result format for all columns. */
export function bindMessage(portal: string, statement: string, values: readonly (Buffer | null)[], resultFormat = 0): Buffer {
  const encoded = values.flatMap((value) => (value === null ? [int32(-1)] : [int32(value.length), value]));
  return typedMessage('B', Buffer.concat([cstring(portal), cstring(statement), int16(0), int16(values.length), ...encoded, int16(1), int16(resultFormat)]));
}

export function describeMessage(kind: 'S' | 'P', name: string): Buffer {
  return typedMessage('D', Buffer.concat([Buffer.from(kind), cstring(name)]));
}

export function executeMessage(portal: string, maxRows = 0): Buffer {
  return typedMessage('E', Buffer.concat([cstring(portal), int32(maxRows)]));
}

export function closeMessage(kind: 'S' | 'P', name: string): Buffer {
  return typedMessage('C', Buffer.concat([Buffer.from(kind), cstring(name)]));
}

export const syncMessage = (): Buffer => typedMessage('S', Buffer.alloc(0));
export const flushMessage = (): Buffer => typedMessage('H', Buffer.alloc(0));
export const terminateMessage = (): Buffer => typedMessage('X', Buffer.alloc(0));

export interface BackendFrame {
  readonly type: string;
  readonly body: Buffer;
}

/** Splits received bytes into backend frames; a trailing partial frame is left out. */
export function backendFrames(bytes: Buffer): BackendFrame[] {
  const frames: BackendFrame[] = [];
  let offset = 0;
  while (offset + 5 <= bytes.length) {
    const length = bytes.readInt32BE(offset + 1);
    if (offset + 1 + length > bytes.length) break;
    frames.push({ type: String.fromCharCode(bytes[offset] as number), body: bytes.subarray(offset + 5, offset + 1 + length) });
    offset += 1 + length;
  }
  return frames;
}

/** A raw connection that collects every byte the server sends. */
export interface RawPgSocket {
  readonly socket: Socket;
  received(): Buffer;
  /** Resolves when `test` holds for the received bytes, or the socket closed (then `closed` is true). */
  until(test: (bytes: Buffer) => boolean, timeoutMs: number): Promise<{ readonly closed: boolean; readonly timedOut: boolean }>;
}

export function openRawPgSocket(port: number): Promise<RawPgSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const waiters = new Set<() => void>();
    socket.on('data', (chunk: Buffer) => { chunks.push(chunk); for (const wake of waiters) wake(); });
    socket.on('close', () => { closed = true; for (const wake of waiters) wake(); });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({
      socket,
      received: () => Buffer.concat(chunks),
      until: (test, timeoutMs) => new Promise((done) => {
        const check = (): void => {
          if (closed || test(Buffer.concat(chunks))) finish(false);
        };
        const timer = setTimeout(() => finish(true), timeoutMs);
        const finish = (timedOut: boolean): void => {
          clearTimeout(timer);
          waiters.delete(check);
          done({ closed, timedOut });
        };
        waiters.add(check);
        check();
      }),
    }));
    socket.once('error', reject);
  });
}

/** Whether the received bytes hold a frame of this type. */
export function hasFrame(bytes: Buffer, type: string): boolean {
  return backendFrames(bytes).some((frame) => frame.type === type);
}
