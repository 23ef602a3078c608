// Worker side of connection rebalancing on :9000. Counts this worker's busy kept-alive connections (a request
// in flight, or one in flight within connectionBusyWindowMs: an idle dashboard's socket is not busy) and those
// leaving it, reports the counts when they change (checked once per interval), and carries out the primary's
// order to close `count` of them: a request in flight gets `Connection: close` on its response at once (large
// bodies: a connection may send only a few requests in all, so waiting for its next one could miss the whole
// run), then further requests until the count is met. The client reconnects and the kernel hands the new
// connection to whichever worker accepts first, most likely one less busy than this one.
// Invariants: the header goes only on a response whose request body was received in full (a request without
// a body, or one whose body ended before its response began), never after an early answer that left body
// unread; this worker always keeps one busy connection; at most one order is held at a time. A leaving
// connection counts as leaving, not busy, from its marking until connectionLeftWindowMs after it closed, so
// the primary neither sheds it twice nor misses it while it reconnects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { connectionBusyWindowMs, connectionLeftWindowMs, connectionRebalanceIntervalMs, connectionShedOrderTtlMs } from '../core/limits.js';
import { httpConnectionChannel } from '../core/diagnostics.js';
import { assert } from '../core/assert.js';
import { hasBody } from '../http/request-limits.js';

interface ConnectionActivity {
  /** When its last request started or ended (ms). */
  lastRequestMs: number;
  requestsInFlight: number;
  /** The latest request, until its response closes. */
  current: IncomingMessage | undefined;
  currentResponse: ServerResponse | undefined;
  /** Its current response will carry (or carries) Connection: close. */
  leaving: boolean;
}

export interface ConnectionCounts {
  readonly busy: number;
  readonly leaving: number;
  readonly settledOrder: number;
}

export type ConnectionReport = (counts: ConnectionCounts) => void;

export class ConnectionShedder {
  private readonly connections = new Map<Socket, ConnectionActivity>();
  /** Busy connections not leaving, as of the last tick less those marked since. */
  private busy = 0;
  private reportedBusy = -1;
  private reportedLeaving = -1;
  /** When leaving connections closed (ms), for connectionLeftWindowMs. */
  private leftMs: number[] = [];
  /** The order being carried out, when it arrived (ms), and the connections it still asks for; 0 when none. */
  private order = 0;
  private orderArrivedMs = 0;
  private closesWanted = 0;
  private settledOrder = 0;
  private settledUnreported = false;

  /** `report` undefined: count for the metrics only (rebalancing off). The count lives as long as the process. */
  constructor(private readonly report: ConnectionReport | undefined) {
    setInterval(() => this.tick(Date.now()), connectionRebalanceIntervalMs).unref();
  }

  /** The primary's order to close `count` busy connections; a newer order replaces one not yet carried out. */
  shed(order: number, count: number): void {
    if (this.order !== 0) this.settle();
    this.order = order;
    this.orderArrivedMs = Date.now();
    this.closesWanted = count;
    for (const activity of this.connections.values()) {
      if (this.closesWanted === 0) break;
      const req = activity.current;
      const res = activity.currentResponse;
      if (activity.leaving || req === undefined || res === undefined || res.headersSent) continue;
      this.leave(activity, req, res);
    }
    if (this.closesWanted === 0) this.settle();
  }

  /** Called for every request before the application sees it: the header must be set before any response begins. */
  onRequest(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let activity = this.connections.get(socket);
    if (activity === undefined) {
      const added: ConnectionActivity = { lastRequestMs: 0, requestsInFlight: 0, current: undefined, currentResponse: undefined, leaving: false };
      this.connections.set(socket, added);
      socket.once('close', () => this.onClose(socket, added));
      activity = added;
    }
    const counted = activity;
    counted.lastRequestMs = Date.now();
    counted.requestsInFlight++;
    counted.current = req;
    counted.currentResponse = res;
    res.once('close', () => this.onResponseClose(counted, res));
    if (this.closesWanted > 0 && !counted.leaving) this.leave(counted, req, res);
    if (this.order !== 0 && this.closesWanted === 0) this.settle();
  }

  /** Marks the connection of this request as leaving: its response is sent with Connection: close. */
  private leave(activity: ConnectionActivity, req: IncomingMessage, res: ServerResponse): void {
    // The last busy connection stays: closing it would move the whole load rather than share it.
    if (this.busy < 2) return;
    this.busy--;
    this.closesWanted--;
    activity.leaving = true;
    if (!hasBody(req) || req.complete) {
      markClose(res);
      return;
    }
    req.once('end', () => {
      if (!res.headersSent) markClose(res);
    });
  }

  private onResponseClose(activity: ConnectionActivity, res: ServerResponse): void {
    activity.requestsInFlight--;
    // The busy window runs from the end of the last request too: a connection between two long requests is as
    // busy as one between two short ones, and must not drop out of the count at every request boundary.
    activity.lastRequestMs = Date.now();
    if (activity.currentResponse !== res) return;
    activity.current = undefined;
    activity.currentResponse = undefined;
    // An early answer (sent before the body ended) went out without the header: the connection stays.
    if (activity.leaving && res.getHeader('connection') !== 'close') activity.leaving = false;
  }

  private onClose(socket: Socket, activity: ConnectionActivity): void {
    this.connections.delete(socket);
    if (activity.leaving) this.leftMs.push(Date.now());
  }

  private settle(): void {
    this.settledOrder = this.order;
    this.settledUnreported = true;
    this.order = 0;
    this.closesWanted = 0;
  }

  private tick(nowMs: number): void {
    let busy = 0;
    let leaving = 0;
    for (const activity of this.connections.values()) {
      if (activity.leaving) leaving++;
      else if (activity.requestsInFlight > 0 || nowMs - activity.lastRequestMs < connectionBusyWindowMs) busy++;
    }
    this.leftMs = this.leftMs.filter((closedMs) => nowMs - closedMs < connectionLeftWindowMs);
    leaving += this.leftMs.length;
    assert(busy <= this.connections.size, 'busy connections are open connections');
    this.busy = busy;
    if (this.order !== 0 && (busy < 2 || nowMs - this.orderArrivedMs > connectionShedOrderTtlMs)) this.settle();
    if (busy === this.reportedBusy && leaving === this.reportedLeaving && !this.settledUnreported) return;
    this.reportedBusy = busy;
    this.reportedLeaving = leaving;
    this.settledUnreported = false;
    httpConnectionChannel.publish({ kind: 'busy', busy });
    this.report?.({ busy, leaving, settledOrder: this.settledOrder });
  }
}

function markClose(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  httpConnectionChannel.publish({ kind: 'rebalanced' });
}
