// The pool's mirror of a thread's fragment contexts: a request leaves its context out only when the thread's
// cache holds it, through any order of keys and evictions, and the thread then finds it.
import test from 'ava';
import { FRAGMENT_CONTEXTS_MAX, HeldContexts, SentContexts, fragmentContextKey } from '../../../../src/sql/parallel/fragment-contexts.js';
import type { FragmentContext } from '../../../../src/sql/parallel/fragment-messages.js';
import type { TableMeta } from '../../../../src/storage/table-meta.js';
import type { TxnState } from '../../../../src/storage/txn-file.js';

/** A context whose only distinguishing part is its statement text and txn (the rest is never read here). */
function contextOf(text: string, txn: number): FragmentContext {
  const meta = { structureVersion: 1 } as unknown as TableMeta;
  const txnState = { tableId: 7, txn } as unknown as TxnState;
  return { planKey: text, statement: { kind: 'query' } as unknown as FragmentContext['statement'], snapshot: { dir: '/db/t', meta, txn: txnState } };
}

test('a context is sent once, then named; the thread resolves the named one to what it was sent', (t) => {
  const sent = new SentContexts();
  const held = new HeldContexts();
  const context = contextOf('select 1', 3);
  const key = fragmentContextKey(context);
  t.false(sent.heldForNext(key));
  t.is(held.resolve(key, context), context);
  t.true(sent.heldForNext(key));
  t.is(held.resolve(key, undefined), context);
});

test('another table version or text is another context', (t) => {
  t.not(fragmentContextKey(contextOf('q', 1)), fragmentContextKey(contextOf('q', 2)));
  t.not(fragmentContextKey(contextOf('q', 1)), fragmentContextKey(contextOf('r', 1)));
});

test('mirror and thread cache evict alike over a long mixed sequence of keys', (t) => {
  const sent = new SentContexts();
  const held = new HeldContexts();
  let state = 12345;
  let omitted = 0;
  for (let k = 0; k < 5000; k++) {
    // A deterministic mix of more texts than the caches hold, some repeated often, some rarely.
    state = (state * 1103515245 + 12345) % 2147483648;
    const context = contextOf(`q${state % (FRAGMENT_CONTEXTS_MAX * 2)}`, 1);
    const key = fragmentContextKey(context);
    const omit = sent.heldForNext(key);
    if (omit) omitted++;
    // Throws (an assertion) if the thread does not hold a context the mirror left out.
    t.is(held.resolve(key, omit ? undefined : context).planKey, context.planKey);
  }
  t.true(omitted > 1000, 'repeated texts are named, not sent again');
});
