// Builders shared by the log tests: temporary roots, records, and stand-in Alertmanagers (accepting, resetting,
// hanging, rejecting) on loopback with the times of their requests, plus a port nobody listens on.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogLevelLetter } from '../../../src/log/levels.js';
import type { LogRecordPayload } from '../../../src/log/log-record.js';

export function makeTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `svc-log-${prefix}-`));
}

/** A server root whose conf/log.conf holds `lines`. */
export function makeRootWithLogConf(prefix: string, lines: readonly string[]): string {
  const root = makeTempDir(prefix);
  mkdirSync(join(root, 'conf'), { recursive: true });
  writeFileSync(join(root, 'conf', 'log.conf'), `${lines.join('\n')}\n`);
  return root;
}

export function makeRecord(level: LogLevelLetter, logger: string, message: string, timestampMicros = 1_736_071_872_123_456): LogRecordPayload {
  return { timestampMicros, level, logger, message, pid: process.pid };
}

export const RECORD_LINE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z [ACEID] \S+ /;

export type FakeBehaviour = 'accept' | 'reset' | 'hang' | 'reject';

export interface FakeAlertmanager {
  readonly port: number;
  readonly bodies: string[];
  /** Date.now() of each request that reached the server (connection for 'reset'). */
  readonly requestTimes: number[];
  close(): Promise<void>;
}

export async function startFakeAlertmanager(behaviour: FakeBehaviour): Promise<FakeAlertmanager> {
  const bodies: string[] = [];
  const requestTimes: number[] = [];
  const server = http.createServer((request, response) => {
    requestTimes.push(Date.now());
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (behaviour === 'accept') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
      } else if (behaviour === 'reject') {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":400,"message":"bad alert"}');
      } else if (behaviour === 'reset') {
        request.socket.destroy();
      }
      // 'hang': never answer.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: addressPort(server),
    bodies,
    requestTimes,
    close: () =>
      new Promise((resolve) => {
        // Stop accepting first, then cut what is open (a hanging request would otherwise keep close() waiting).
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port with no listener (bound once, then released), so connecting is refused. */
export async function findDeadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = addressPort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function addressPort(server: net.Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return address.port;
}

/** Waits until `check` holds, polling; throws with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
