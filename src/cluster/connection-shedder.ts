// Worker side of connection rebalancing on :9000. Counts this worker's busy kept-alive connections (a request
// in flight, or one started within connectionBusyWindowMs: an idle dashboard's socket is not busy), reports the
// count when it changes (checked once per interval), and carries out the primary's order to close one: the
// next request gets `Connection: close` on its response, so the client reconnects and the kernel hands the new
// connection to whichever worker accepts first, an idle one rather than this busy one.
// Invariants: the header goes only on a response whose request body was received in full (a request without
// a body, or one whose body ended before its response began), never after an early answer that left body
// unread; never on this worker's last busy connection; at most one order is held at a time.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { connectionBusyWindowMs, connectionRebalanceIntervalMs, connectionShedOrderTtlMs } from '../core/limits.js';
import { httpConnectionChannel } from '../core/diagnostics.js';
import { hasBody } from '../http/request-limits.js';

interface ConnectionActivity {
  lastRequestMs: number;
  requestsInFlight: number;
}

export type ConnectionReport = (busy: number, settledOrder: number) => void;

export class ConnectionShedder {
  private readonly connections = new Map<Socket, ConnectionActivity>();
  private busy = 0;
  private reportedBusy = -1;
  /** The order being carried out, when it arrived (ms); 0 when none is held. */
  private order = 0;
  private orderArrivedMs = 0;
  private settledOrder = 0;
  private settledUnreported = false;

  /** `report` undefined: count for the metrics only (rebalancing off). The count lives as long as the process. */
  constructor(private readonly report: ConnectionReport | undefined) {
    setInterval(() => this.tick(Date.now()), connectionRebalanceIntervalMs).unref();
  }

  /** The primary's order to close one busy connection; a newer order replaces one not yet carried out. */
  shedOne(order: number): void {
    if (this.order !== 0) this.settle();
    this.order = order;
    this.orderArrivedMs = Date.now();
  }

  /** Called for every request before the application sees it: the header must be set before any response begins. */
  onRequest(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let activity = this.connections.get(socket);
    if (activity === undefined) {
      activity = { lastRequestMs: 0, requestsInFlight: 0 };
      this.connections.set(socket, activity);
      socket.once('close', () => this.connections.delete(socket));
    }
    const counted = activity;
    counted.lastRequestMs = Date.now();
    counted.requestsInFlight++;
    res.once('close', () => { counted.requestsInFlight--; });
    if (this.order !== 0 && this.busy >= 2) this.closeAfter(req, res);
  }

  /** Carries out the order on this request's response; settles it either way (a miss is retried next interval). */
  private closeAfter(req: IncomingMessage, res: ServerResponse): void {
    this.settle();
    if (!hasBody(req)) {
      markClose(res);
      return;
    }
    req.once('end', () => {
      if (!res.headersSent) markClose(res);
    });
  }

  private settle(): void {
    this.settledOrder = this.order;
    this.settledUnreported = true;
    this.order = 0;
  }

  private tick(nowMs: number): void {
    let busy = 0;
    for (const activity of this.connections.values()) {
      if (activity.requestsInFlight > 0 || nowMs - activity.lastRequestMs < connectionBusyWindowMs) busy++;
    }
    this.busy = busy;
    if (this.order !== 0 && (busy < 2 || nowMs - this.orderArrivedMs > connectionShedOrderTtlMs)) this.settle();
    if (busy === this.reportedBusy && !this.settledUnreported) return;
    this.reportedBusy = busy;
    this.settledUnreported = false;
    httpConnectionChannel.publish({ kind: 'busy', busy });
    this.report?.(busy, this.settledOrder);
  }
}

function markClose(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  httpConnectionChannel.publish({ kind: 'rebalanced' });
}
