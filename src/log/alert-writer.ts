// io.svc.log.LogAlertSocketWriter: turns each record it takes (CRITICAL by default) into an alert from the template
// and hands it to the AlertSender. write() only enqueues, so logging stays fast whatever Alertmanager does.
// Records of the writer's own logger are never alerted, even if someone configures it at ERROR, so its failure
// reports cannot feed back into more alerts. On close it waits a bounded time for queued alerts (a crash's last C
// record is the one most worth delivering), then drops the rest.
import type { LogRecordPayload } from './log-record.js';
import type { LogWriter } from './log-writer.js';
import type { AlertTarget } from './alert-targets.js';
import type { AlertTemplate } from './alert-template.js';
import { ALERT_LOGGER_NAME, AlertSender, type AlertSenderStats } from './alert-sender.js';
import { getLogger } from './logger.js';

export interface AlertWriterOptions {
  readonly name: string;
  readonly template: AlertTemplate;
  readonly targets: readonly AlertTarget[];
  readonly reconnectDelayMs: number;
  readonly sendTimeoutMs: number;
  readonly inBufferBytes: number;
  readonly outBufferBytes: number;
  readonly queueAlertsMax: number;
  /** How long close() waits for queued alerts. */
  readonly closeDrainMs?: number;
  readonly random?: () => number;
}

const DEFAULT_CLOSE_DRAIN_MS = 3000;

export class AlertWriter implements LogWriter {
  readonly kind = 'alert' as const;
  private readonly options: AlertWriterOptions;
  private readonly sender: AlertSender;
  private closed = false;

  constructor(options: AlertWriterOptions) {
    this.options = options;
    const { template, outBufferBytes } = options;
    this.sender = new AlertSender({
      targets: options.targets,
      reconnectDelayMs: options.reconnectDelayMs,
      sendTimeoutMs: options.sendTimeoutMs,
      responseBytesMax: options.inBufferBytes,
      queueAlertsMax: options.queueAlertsMax,
      buildBody: (line, nowMillis) => template.renderWithin(line, nowMillis, outBufferBytes),
      ...(options.random === undefined ? {} : { random: options.random }),
    });
    const log = getLogger(ALERT_LOGGER_NAME);
    options.targets.forEach((target, index) => log.info(`Added alert manager [${index}]: ${target.label}`));
  }

  describe(): string {
    return `alerts to ${this.options.targets.map((target) => target.label).join(', ')} (template ${this.options.template.source})`;
  }

  write(line: string, record: LogRecordPayload): void {
    if (this.closed || record.logger === ALERT_LOGGER_NAME) return;
    this.sender.enqueue(line);
  }

  stats(): AlertSenderStats {
    return this.sender.stats();
  }

  flushSync(): void {
    // Alerts go over the network asynchronously; there is nothing to write synchronously.
  }

  reopen(): void {
    // No files.
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sender.drain(this.options.closeDrainMs ?? DEFAULT_CLOSE_DRAIN_MS);
    this.sender.close();
  }
}
