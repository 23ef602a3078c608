// A lean HTTP/1.1 keep-alive client for benches that send many small GETs: one socket, one request at a time,
// the request line written as bytes and the answer read as status line, headers and a Content-Length or
// chunked body. node:http's client costs the bench process several hundred µs of CPU per request on a loaded
// machine, CPU the server under test then lacks on a 2-core box; a native client (curl, a Go or Java driver)
// costs a fraction of that, and this one is closer to those. A response with `Connection: close` (the server
// moving a busy connection to another worker) is honoured: the next request goes out on a new socket.
import { connect, type Socket } from 'node:net';

/** Bounds a response head, so a broken answer fails the bench instead of growing a buffer. */
const headBytesMax = 64 * 1024;

interface Waiter {
  readonly resolve: (status: number) => void;
  readonly reject: (error: Error) => void;
}

export class KeepAliveGet {
  private socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private waiter: Waiter | undefined;
  /** The last response said `Connection: close`: the next request opens a new socket. */
  private closing = false;
  /** Sockets opened again after the server closed one (what connection rebalancing cost this client). */
  reconnects = 0;

  private constructor(private readonly port: number, socket: Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  static async open(port: number): Promise<KeepAliveGet> {
    return new KeepAliveGet(port, await connectSocket(port));
  }

  /** Sends `GET path` and resolves with the status code once the whole body has arrived. */
  async get(path: string): Promise<number> {
    if (this.waiter !== undefined) throw new Error('one request at a time on a connection');
    if (this.closing) {
      this.closing = false;
      this.socket.destroy();
      this.buffered = Buffer.alloc(0);
      this.socket = await connectSocket(this.port);
      this.attach(this.socket);
      this.reconnects++;
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 'latin1');
    });
  }

  private attach(socket: Socket): void {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => { if (socket === this.socket) this.onData(chunk); });
    socket.on('error', (error) => { if (socket === this.socket) this.fail(error); });
    socket.on('close', () => { if (socket === this.socket) this.fail(new Error('the server closed the connection')); });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    let parsed: ReturnType<typeof parseResponse>;
    try {
      parsed = parseResponse(this.buffered);
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (parsed === undefined) {
      if (this.buffered.length > headBytesMax && this.buffered.indexOf('\r\n\r\n') < 0) this.fail(new Error('response head too large'));
      return;
    }
    this.buffered = this.buffered.subarray(parsed.bytes);
    if (parsed.close) this.closing = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve(parsed.status);
  }

  private fail(error: Error): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  }
}

function connectSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** The status, byte length and `Connection: close` of the first complete response in `data`; undefined while incomplete. */
function parseResponse(data: Buffer): { status: number; bytes: number; close: boolean } | undefined {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = data.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection:\s*close/i.test(head);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length !== null) {
    const bytes = headEnd + 4 + Number(length[1]);
    return data.length >= bytes ? { status, bytes, close } : undefined;
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error(`response without a length: ${head}`);
  const end = data.indexOf('\r\n0\r\n\r\n', headEnd + 2);
  return end < 0 ? undefined : { status, bytes: end + 7, close };
}
