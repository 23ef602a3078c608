// Delivers alerts to Alertmanager (POST /api/v2/alerts) from a bounded queue, one at a time, off the logging path:
// enqueue() only pushes, so a dead or hung Alertmanager can never block a logger or grow memory past the queue bound
// (when full, the oldest alert is dropped and counted). Delivery follows QuestDB's rules: the first target is random,
// a failed attempt fails over to the next target, a single target waits reconnectDelay between attempts, and after
// 2 × targets attempts the alert is dropped with an I record. Improvements: every attempt has a timeout; an HTTP
// status is checked (2xx = delivered; 4xx other than 408/429 = the alert itself is bad, so no failover); after
// giving up, the sender pauses reconnectDelay before the next alert so a dead cluster is not hammered.
// Its own records are I (and E for rejected alerts), never C, so they cannot become alerts themselves.
import http from 'node:http';
import { assert } from '../core/assert.js';
import type { AlertTarget } from './alert-targets.js';
import { truncateMessage } from './layout.js';
import { getLogger } from './logger.js';

export const ALERT_LOGGER_NAME = 'alert-writer';
const ALERT_PATH = '/api/v2/alerts';
/** Characters of an Alertmanager response or a dropped alert quoted in log records. */
const QUOTED_TEXT_LENGTH_MAX = 500;

export interface AlertSenderOptions {
  readonly targets: readonly AlertTarget[];
  readonly reconnectDelayMs: number;
  readonly sendTimeoutMs: number;
  readonly responseBytesMax: number;
  readonly queueAlertsMax: number;
  /** The request body for a queued record line, built at send time; undefined = it cannot fit, drop it. */
  readonly buildBody: (line: string, nowMillis: number) => string | undefined;
  /** Picks the first target; Math.random unless a test needs a fixed order. */
  readonly random?: () => number;
}

export interface AlertSenderStats {
  readonly queued: number;
  readonly sent: number;
  readonly failedAttempts: number;
  readonly givenUp: number;
  readonly rejected: number;
  readonly droppedQueueFull: number;
  readonly droppedTooBig: number;
}

type AttemptResult =
  | { readonly kind: 'accepted' | 'rejected'; readonly status: number; readonly body: string }
  | { readonly kind: 'failed'; readonly reason: string };

export class AlertSender {
  private readonly options: AlertSenderOptions;
  private readonly agents: http.Agent[];
  private readonly log = getLogger(ALERT_LOGGER_NAME);
  private readonly queue: string[] = [];
  private current: number;
  private running = false;
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  private wakeSleeper: (() => void) | undefined;
  private counts = { sent: 0, failedAttempts: 0, givenUp: 0, rejected: 0, droppedQueueFull: 0, droppedTooBig: 0 };
  private reportedQueueDrops = 0;

  constructor(options: AlertSenderOptions) {
    assert(options.targets.length > 0, 'target parsing always yields at least the default target');
    assert(options.queueAlertsMax > 0, 'a zero-length queue would drop every alert');
    this.options = options;
    // One keep-alive connection per target, as QuestDB keeps one socket open.
    this.agents = options.targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    const random = options.random ?? Math.random;
    this.current = Math.min(options.targets.length - 1, Math.floor(random() * options.targets.length));
  }

  enqueue(line: string): void {
    if (this.closed) return;
    if (this.queue.length >= this.options.queueAlertsMax) {
      this.queue.shift();
      this.counts.droppedQueueFull++;
    }
    this.queue.push(line);
    if (!this.running) {
      this.running = true;
      void this.run();
    }
  }

  stats(): AlertSenderStats {
    return { queued: this.queue.length, ...this.counts };
  }

  /** Resolves true once the queue is empty and nothing is in flight, false if `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean> {
    if (!this.running && this.queue.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Drops what is queued, cuts any delay short and closes connections. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.wakeSleeper?.();
    for (const agent of this.agents) agent.destroy();
  }

  private async run(): Promise<void> {
    try {
      for (let line = this.queue.shift(); line !== undefined && !this.closed; line = this.queue.shift()) {
        await this.deliver(line);
        this.reportQueueDrops();
      }
    } catch (error) {
      this.log.error('alert sender stopped unexpectedly; queued alerts were dropped', error);
      this.queue.length = 0;
    } finally {
      this.running = false;
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async deliver(line: string): Promise<void> {
    const body = this.options.buildBody(line, Date.now());
    if (body === undefined) {
      this.counts.droppedTooBig++;
      this.log.error(`alert dropped: it does not fit outBufferSize even with its message cut: ${truncateMessage(line, QUOTED_TEXT_LENGTH_MAX)}`);
      return;
    }
    this.log.debug(() => `Sending: ${line}`);
    const targets = this.options.targets;
    const attemptsMax = 2 * targets.length;
    for (let attempt = 1; attempt <= attemptsMax && !this.closed; attempt++) {
      const index = this.current;
      const result = await this.post(index, body);
      // close() aborts the request in flight; that is not the target's failure.
      if (this.closed) return;
      if (result.kind !== 'failed') {
        this.reportOutcome(index, result.kind, result.status, result.body);
        return;
      }
      this.counts.failedAttempts++;
      const next = (index + 1) % targets.length;
      this.current = next;
      if (attempt === attemptsMax) break;
      const from = `[${index}] ${targets[index]?.label ?? '?'}`;
      if (next === index) {
        this.log.info(`Failing over from ${from} to ${from} with a delay of ${this.options.reconnectDelayMs} millis (as it is the same alert manager): ${result.reason}`);
        await this.sleep(this.options.reconnectDelayMs);
      } else {
        this.log.info(`Failing over from ${from} to [${next}] ${targets[next]?.label ?? '?'}: ${result.reason}`);
      }
    }
    if (this.closed) return;
    this.counts.givenUp++;
    this.log.info(`None of the configured alert managers are accepting alerts. Giving up sending after ${attemptsMax} attempts: ${truncateMessage(line, QUOTED_TEXT_LENGTH_MAX)}`);
    await this.sleep(this.options.reconnectDelayMs);
  }

  private reportOutcome(index: number, kind: 'accepted' | 'rejected', status: number, body: string): void {
    const label = `[${index}] ${this.options.targets[index]?.label ?? '?'}`;
    const quoted = truncateMessage(body.trim(), QUOTED_TEXT_LENGTH_MAX);
    if (kind === 'accepted') {
      this.counts.sent++;
      this.log.info(`Received ${label}: ${status} ${quoted}`);
    } else {
      // Another target would reject the same body, so there is no failover; the template needs fixing.
      this.counts.rejected++;
      this.log.error(`Alertmanager ${label} rejected the alert with HTTP ${status}: ${quoted}`);
    }
  }

  private reportQueueDrops(): void {
    const dropped = this.counts.droppedQueueFull - this.reportedQueueDrops;
    if (dropped === 0) return;
    this.reportedQueueDrops = this.counts.droppedQueueFull;
    this.log.info(`Dropped ${dropped} oldest alerts: the queue was full (queueAlertsMax=${this.options.queueAlertsMax})`);
  }

  private post(index: number, body: string): Promise<AttemptResult> {
    const target = this.options.targets[index];
    assert(target !== undefined, 'the current index is always taken modulo the target count');
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = http.request({
        host: target.host,
        port: target.port,
        method: 'POST',
        path: ALERT_PATH,
        agent: this.agents[index],
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body, 'utf8'), 'user-agent': 'svc/LogAlert' },
      });
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${this.options.sendTimeoutMs} ms`)), this.options.sendTimeoutMs);
      request.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          if (received < this.options.responseBytesMax) chunks.push(chunk.subarray(0, this.options.responseBytesMax - received));
          received += chunk.length;
        });
        response.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
        response.on('end', () => finish(classifyResponse(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      });
      request.end(body);
    });
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve();
      };
      // Unref'd: a pause between attempts must not keep an exiting process alive.
      const timer = setTimeout(done, ms).unref();
      this.wakeSleeper = done;
    });
  }
}

function classifyResponse(status: number, body: string): AttemptResult {
  if (status >= 200 && status < 300) return { kind: 'accepted', status, body };
  // 408 and 429 are about the server's state, not the alert: another target may take it.
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { kind: 'rejected', status, body };
  return { kind: 'failed', reason: `HTTP ${status}: ${truncateMessage(body.trim(), QUOTED_TEXT_LENGTH_MAX)}` };
}
