// Reads of ILP TCP connections into one buffer the process reuses, instead of a new ArrayBuffer per read (what
// a socket's 'data' events get). Under sustained ingest a worker reads 50-100 MB/s; every read's ArrayBuffer
// lived until a garbage collection, and the worker, which allocates little on its own heap, reached those
// through V8's external-memory limit: a full mark-compact every 100-200 ms, whose marking took the worker's
// main thread and helper threads a fifth of the cores (README "Ingestion", TCP). The accepted socket's
// native handle moves to a new Socket that reads into the shared buffer; the accepted one stays as a shell
// that closes when the new one does, so whatever counts connections by it (a listener, the worker's report
// to the primary) still sees the close. A chunk handed on is valid only during the call: whoever keeps bytes
// past it copies them (the line parser's carried line, the handshake's pending bytes).
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import { assert } from '../core/assert.js';
import { ilpTcpReadBufferBytes } from '../core/limits.js';

/** One per process: a chunk is handed on and parsed before the next read of any connection lands in it. */
let sharedBuffer: Buffer | undefined;

/**
 * Node's own way to wrap an existing handle (child_process and net.Server build accepted sockets so); `onread`
 * is a documented constructor option that this version of the typings lists only for connect().
 */
interface HandleOptions extends SocketConstructorOpts {
  readonly handle: object;
  readonly onread: OnReadOpts;
}

/** The socket's native handle, when it can move: nothing read into the stream yet, not destroyed. */
function movableHandle(socket: Socket): object | undefined {
  if (socket.destroyed || socket.readableLength > 0) return undefined;
  const handle: unknown = Reflect.get(socket, '_handle');
  return typeof handle === 'object' && handle !== null ? handle : undefined;
}

/**
 * The socket to serve `socket`'s connection by, its bytes going to `onChunk` from the shared buffer; where the
 * handle cannot move (something was read already, or this Node.js does not take it), `socket` itself with a
 * 'data' listener. Every supported Node.js line runs the ILP TCP tests (scripts/test-node-lines.sh).
 */
export function readIntoSharedBuffer(socket: Socket, onChunk: (chunk: Buffer) => void): Socket {
  const adopted = adoptHandle(socket, onChunk);
  if (adopted !== undefined) return adopted;
  socket.on('data', onChunk);
  return socket;
}

/** A new Socket over `socket`'s handle reading into the shared buffer; undefined (and `socket` as it was) when the handle cannot move. */
function adoptHandle(socket: Socket, onChunk: (chunk: Buffer) => void): Socket | undefined {
  const handle = movableHandle(socket);
  if (handle === undefined) return undefined;
  const buffer = sharedBuffer ?? Buffer.allocUnsafeSlow(ilpTcpReadBufferBytes);
  sharedBuffer = buffer;
  Reflect.set(socket, '_handle', null);
  const options: HandleOptions = {
    handle, readable: true, writable: true,
    onread: {
      buffer,
      callback: (bytes: number, into: Uint8Array): boolean => {
        assert(into === buffer && bytes <= buffer.length, 'reads land in the shared buffer');
        onChunk(buffer.subarray(0, bytes));
        return true;
      },
    },
  };
  const adopted = new Socket(options);
  if (Reflect.get(adopted, '_handle') !== handle) {
    // A Node.js that no longer wraps a handle so: the accepted socket keeps it and reads as it did.
    Reflect.set(socket, '_handle', handle);
    adopted.destroy();
    return undefined;
  }
  adopted.once('close', () => socket.destroy());
  return adopted;
}
