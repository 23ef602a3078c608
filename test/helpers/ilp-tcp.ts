// Raw ILP TCP connections for tests that need exact bytes (handshakes, split lines, bad lines) and to see the
// server close a connection, plus polling helpers: the transport has no replies, so tests watch for effects.
import { connect, type Socket } from 'node:net';

export interface RawIlpSocket {
  write(data: string | Buffer): void;
  /** Half-closes our side: the server commits what it has and closes. */
  end(): void;
  destroy(): void;
  /** True when the connection is closed within `timeoutMs` (by the server, unless we ended it). */
  closed(timeoutMs: number): Promise<boolean>;
  closedByServer(): boolean;
  /** The next line received, without its `\n`; undefined if none arrives in time. */
  readLine(timeoutMs: number): Promise<Buffer | undefined>;
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}

export function openRawIlpSocket(port: number): Promise<RawIlpSocket> {
  const socket = connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  let isClosed = false;
  let weEnded = false;
  socket.on('data', (chunk: Buffer) => { received = Buffer.concat([received, chunk]); });
  socket.on('error', () => undefined); // a reset from the server is one way it closes
  socket.on('close', () => { isClosed = true; });
  const raw: RawIlpSocket = {
    write: (data) => { socket.write(data); },
    end: () => { weEnded = true; socket.end(); },
    destroy: () => { weEnded = true; socket.destroy(); },
    closed: (timeoutMs) => waitUntil(() => isClosed, timeoutMs, 10),
    closedByServer: () => isClosed && !weEnded,
    async readLine(timeoutMs) {
      if (!(await waitUntil(() => received.includes(10), timeoutMs, 10))) return undefined;
      const end = received.indexOf(10);
      const line = received.subarray(0, end);
      received = received.subarray(end + 1);
      return line;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(raw));
    socket.once('error', reject);
  });
}

/** Resolves once the port accepts connections (the probe is closed again, and given time to be released). */
export async function waitUntilListening(port: number, timeoutMs = 10_000): Promise<void> {
  const listening = await waitUntil(async () => {
    try {
      const probe = await openRawIlpSocket(port);
      probe.destroy();
      return true;
    } catch {
      return false;
    }
  }, timeoutMs);
  if (!listening) throw new Error(`nothing listens on ILP TCP port ${port}`);
  // The server drops the probe once it sees the close; until then it counts against the connection limit.
  await new Promise((resolve) => setTimeout(resolve, 200));
}
