// Orders ILP commits of one table by time across workers. A worker announces a long request's first timestamp
// per table as soon as it parsed the first line; a request that is ready to commit while an announced request
// of the same table starting earlier is still being parsed waits here (at most line.http.commit.order.wait), so
// the earlier one commits first and the later one appends instead of merging the partition it lands in.
// Invariants: only announcements whose request has not arrived hold anything, so a held request never waits for
// another held one; an announcement that made a request wait the whole bound is dropped as stale, so a slow
// sender costs the others one bound at most; holding only delays, it never changes what commits (every held
// request is released, in first-timestamp order). A bound of 0 turns the gate off: nothing is held.
import { assert } from '../core/assert.js';
import { ilpAnnouncementsMax } from '../core/limits.js';
import type { IlpTableStart } from '../engine/writer-client.js';

interface Announcement {
  readonly owner: string;
  readonly starts: readonly IlpTableStart[];
}

interface Held {
  readonly starts: readonly IlpTableStart[];
  readonly release: () => void;
  /** Set while the request waits for an earlier one. */
  timer: NodeJS.Timeout | undefined;
}

/** A's first timestamp of some table lies below B's first timestamp of the same table. */
function startsEarlier(a: readonly IlpTableStart[], b: readonly IlpTableStart[]): boolean {
  for (const mine of b) {
    for (const other of a) {
      if (other.firstMicros < mine.firstMicros && other.table.toLowerCase() === mine.table.toLowerCase()) return true;
    }
  }
  return false;
}

function earliestOf(starts: readonly IlpTableStart[]): number {
  return starts.reduce((min, start) => Math.min(min, start.firstMicros), Infinity);
}

export class IlpOrderGate {
  /** Requests still being parsed, by `<owner>:<id>`. */
  private readonly announced = new Map<string, Announcement>();
  private held: Held[] = [];

  /** `waitMs`: longest a ready request is held (line.http.commit.order.wait); 0 holds nothing. */
  constructor(private readonly waitMs: number) {
    assert(Number.isInteger(waitMs) && waitMs >= 0, 'the commit order wait is a whole number of ms (checked by the config)');
  }

  /** Requests waiting here for an earlier one. */
  get heldCount(): number {
    return this.held.length;
  }

  /** A worker (`owner`) began parsing request `id`; past the bound the announcement is ignored (nothing waits for it). */
  announce(owner: string, id: number, starts: readonly IlpTableStart[]): void {
    if (this.waitMs === 0 || this.announced.size >= ilpAnnouncementsMax || starts.length === 0) return;
    this.announced.set(`${owner}:${id}`, { owner, starts });
  }

  /** Request `id` of `owner` failed or lost its client before its commit: nothing waits for it any longer. */
  withdraw(owner: string, id: number): void {
    if (this.announced.delete(`${owner}:${id}`)) this.recheck();
  }

  /** A worker went away: its requests will never arrive. */
  ownerGone(owner: string): void {
    let removed = false;
    for (const [key, announcement] of this.announced) {
      if (announcement.owner === owner) removed = this.announced.delete(key) || removed;
    }
    if (removed) this.recheck();
  }

  /**
   * Calls `proceed` when a ready request may go to the commit queue: at once (before returning) unless an
   * announced request of one of its tables starts earlier. `id` is the request's own announcement, if it made
   * one. Requests released together proceed earliest first, synchronously, so they queue in that order.
   */
  admit(owner: string, id: number | undefined, starts: readonly IlpTableStart[], proceed: () => void): void {
    if (id !== undefined) this.announced.delete(`${owner}:${id}`);
    if (this.waitMs === 0) {
      proceed();
      return;
    }
    // Released by the same pass as the held ones: requests its arrival frees queue behind it.
    const entry: Held = { starts, release: proceed, timer: undefined };
    this.held.push(entry);
    this.recheck();
    if (this.held.includes(entry)) entry.timer = setTimeout(() => this.expire(entry), this.waitMs);
  }

  private blocked(starts: readonly IlpTableStart[]): boolean {
    for (const announcement of this.announced.values()) {
      if (startsEarlier(announcement.starts, starts)) return true;
    }
    return false;
  }

  /** A request waited the whole bound: what held it is taken as stale (a stalled client, a lost message). */
  private expire(entry: Held): void {
    for (const [key, announcement] of this.announced) {
      if (startsEarlier(announcement.starts, entry.starts)) this.announced.delete(key);
    }
    this.recheck();
    assert(!this.held.includes(entry), 'a request whose blockers were all dropped is released');
  }

  /** Releases every held request nothing holds any longer, earliest first, so they queue in time order. */
  private recheck(): void {
    const free = this.held.filter((entry) => !this.blocked(entry.starts));
    if (free.length === 0) return;
    this.held = this.held.filter((entry) => !free.includes(entry));
    free.sort((a, b) => earliestOf(a.starts) - earliestOf(b.starts));
    for (const entry of free) {
      clearTimeout(entry.timer);
      entry.release();
    }
  }
}
