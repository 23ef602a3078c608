// Raw HTTP over net sockets, for requests fetch cannot build (malformed headers, partial bodies, slow clients)
// and for watching what the server does with the connection (status line, close, keep-alive).
import { connect, type Socket } from 'node:net';
import { Buffer } from 'node:buffer';

export interface RawResponse {
  /** Status code of the first response, or undefined when the server closed without answering. */
  readonly status: number | undefined;
  readonly head: string;
  readonly body: string;
  /** True when the server ended or reset the connection. */
  readonly closed: boolean;
}

export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server sends until it closes, or until `waitMs` passes after the last byte. */
export function readResponse(socket: Socket, waitMs = 2000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      socket.removeAllListeners('data');
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: match === null ? undefined : Number(match[1]), head, body: split < 0 ? '' : text.slice(split + 4), closed });
    };
    const arm = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(finish, waitMs);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks).toString('latin1'))) finish();
      else arm();
    });
    socket.once('close', () => { closed = true; finish(); });
    socket.once('error', () => { closed = true; });
    arm();
  });
}

/** True once a whole response (head plus a Content-Length or chunked body) has arrived. */
function isComplete(text: string): boolean {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return false;
  const head = text.slice(0, split).toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length !== null) return text.length - split - 4 >= Number(length[1]);
  if (head.includes('transfer-encoding: chunked')) return text.endsWith('0\r\n\r\n');
  return false;
}

/** Sends raw bytes on a fresh connection and reads the answer; the socket is destroyed afterwards. */
export async function rawRequest(port: number, bytes: string | Buffer, waitMs = 2000): Promise<RawResponse> {
  const socket = await openSocket(port);
  const reading = readResponse(socket, waitMs);
  socket.write(bytes);
  const response = await reading;
  socket.destroy();
  return response;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
