// Per-worker request bounds applied before any route runs: how many requests are in progress at once
// (excess → 503 at once, not a queue), and how large a request body may be on every path except /imp
// (uploads stream to disk and have no limit, by the spec). Bodies on other paths are never used, so they
// are read and discarded while counted; one past the limit ends the request with 413 and closes the socket.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestLimits {
  readonly concurrentRequestsMax: number;
  readonly bodyBytesMax: number;
}

function sendLimitError(res: ServerResponse, status: number, code: string, message: string, close: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `{"error":${JSON.stringify(message)},"code":"${code}"}`;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...(status === 503 ? { 'Retry-After': '1' } : {}),
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(body);
}

/** Counts requests in progress; a slot is held from arrival until the response finishes or the socket closes. */
export class ConcurrencyGate {
  private active = 0;

  constructor(private readonly max: number) {}

  get inProgress(): number {
    return this.active;
  }

  /** Takes a slot for the request, or answers 503 and returns false. */
  admit(res: ServerResponse): boolean {
    if (this.active >= this.max) {
      sendLimitError(res, 503, 'SVC_OVERLOADED', `too many concurrent requests [max=${this.max}]`, false);
      return false;
    }
    this.active++;
    let released = false;
    res.once('close', () => {
      if (released) return;
      released = true;
      this.active--;
    });
    return true;
  }
}

/**
 * Bounds the body of a request whose route does not read it. Returns false after answering 413 when the
 * declared length is over the limit; a chunked body is counted as it arrives and cut off the same way.
 */
export function limitUnusedBody(req: IncomingMessage, res: ServerResponse, bodyBytesMax: number): boolean {
  const declared = req.headers['content-length'];
  const length = declared === undefined ? 0 : Number(declared);
  if (length > bodyBytesMax) {
    sendLimitError(res, 413, 'SVC_PAYLOAD_TOO_LARGE', `request body is too large [max=${bodyBytesMax} bytes]`, true);
    req.resume();
    res.once('finish', () => req.socket.destroySoon());
    return false;
  }
  if (req.headers['transfer-encoding'] === undefined) return true;
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received <= bodyBytesMax) return;
    req.removeAllListeners('data');
    sendLimitError(res, 413, 'SVC_PAYLOAD_TOO_LARGE', `request body is too large [max=${bodyBytesMax} bytes]`, true);
    req.socket.destroySoon();
  });
  return true;
}
