// The part of a fragment request that repeats run after run (the fragment statement and the table version it
// reads) crosses to a thread once and is named by its key afterwards: cloning it cost a thread about as much as
// its wake-up on every run of a short query. Each thread keeps the contexts it was sent in a small LRU cache; the
// pool keeps, per thread, a mirror of that cache's keys, updated in the order the thread receives its requests
// (one port, in order), so both evict alike and the pool knows exactly when a request may leave its context out.
import type { FragmentContext } from './fragment-messages.js';
import { LruCache } from '../../core/lru-cache.js';
import { assert } from '../../core/assert.js';

/** Contexts a thread holds (distinct statement texts times table versions it ran lately). */
export const FRAGMENT_CONTEXTS_MAX = 32;

/** The key of a context: equal for the same statement text over the same table version. */
export function fragmentContextKey(context: FragmentContext): string {
  const { dir, meta, txn } = context.snapshot;
  return `${context.planKey}\u0000${dir}\u0000${txn.tableId}:${txn.txn}:${meta.structureVersion}`;
}

/** The pool's mirror of one thread's contexts. */
export class SentContexts {
  private readonly keys = new LruCache<string, true>(FRAGMENT_CONTEXTS_MAX);

  /** Whether the thread holds `key` when it receives the request about to go; it will hold it after, either way. */
  heldForNext(key: string): boolean {
    if (this.keys.get(key) === true) return true;
    this.keys.set(key, true);
    return false;
  }
}

/** A thread's contexts. */
export class HeldContexts {
  private readonly contexts = new LruCache<string, FragmentContext>(FRAGMENT_CONTEXTS_MAX);

  /** The context of a request: the one it carries (kept for later requests), else the one kept under `key`. */
  resolve(key: string, sent: FragmentContext | undefined): FragmentContext {
    if (sent !== undefined) {
      this.contexts.set(key, sent);
      return sent;
    }
    const held = this.contexts.get(key);
    assert(held !== undefined, 'a thread holds every context the pool left out of a request (the pool mirrors its cache)');
    return held;
  }
}
