// Raw ILP over HTTP for the protocol tests and the fuzzer (no client library): POST a body whole, in timed
// chunks (Transfer-Encoding: chunked), or from a stream; read back status, headers and the JSON error body.
import { request, Agent, type IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

export interface IlpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

export interface IlpPostOptions {
  readonly path?: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly agent?: Agent;
  /** Pause between chunks so each arrives in its own TCP segment. */
  readonly pauseMs?: number;
}

/** The parts of QuestDB's ILP error body, in their order: {code, message, line?, errorId}. */
export interface IlpErrorBody {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly errorId: string;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Sends `chunks` as one request body: Content-Length when it is a single chunk, otherwise chunked transfer with
 * each chunk written separately.
 */
export function postIlp(port: number, chunks: Buffer | readonly Buffer[] | Readable, options: IlpPostOptions = {}): Promise<IlpResponse> {
  return new Promise((resolve, reject) => {
    const single = Buffer.isBuffer(chunks) ? chunks : undefined;
    const headers: Record<string, string> = { ...(single === undefined ? {} : { 'Content-Length': String(single.length) }), ...options.headers };
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? '/write', headers, ...(options.agent === undefined ? {} : { agent: options.agent }) }, (res) => {
      const received: Buffer[] = [];
      res.on('data', (chunk: Buffer) => received.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(received).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (single !== undefined) {
      req.end(single);
    } else if (Array.isArray(chunks)) {
      void (async () => {
        for (const chunk of chunks as readonly Buffer[]) {
          if (chunk.length === 0) continue;
          req.write(chunk);
          if (options.pauseMs !== undefined) await sleep(options.pauseMs);
        }
        req.end();
      })();
    } else {
      (chunks as Readable).pipe(req);
    }
  });
}

/** Narrows a response body to QuestDB's error shape, failing on anything else (keys in a different order included). */
export function ilpErrorBody(text: string): IlpErrorBody {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`not a JSON object: ${text}`);
  const record = parsed as Record<string, unknown>;
  const keys = Object.keys(record).join(',');
  if (keys !== 'code,message,line,errorId' && keys !== 'code,message,errorId') throw new Error(`unexpected keys ${keys}: ${text}`);
  const { code, message, line, errorId } = record;
  if (typeof code !== 'string' || typeof message !== 'string' || typeof errorId !== 'string') throw new Error(`bad field types: ${text}`);
  if (line !== undefined && (typeof line !== 'number' || !Number.isInteger(line) || line < 1)) throw new Error(`bad line: ${text}`);
  if (!/^[0-9a-f]+-\d+$/.test(errorId)) throw new Error(`bad errorId: ${text}`);
  return line === undefined ? { code, message, errorId } : { code, message, line, errorId };
}
