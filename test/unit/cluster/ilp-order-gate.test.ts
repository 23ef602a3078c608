// The ILP order gate alone: which ready requests wait for announced ones still being parsed, in which order
// they are let through, and what ends a wait (the earlier request's arrival, its withdrawal, its worker's exit,
// the bound).
import test from 'ava';
import { IlpOrderGate } from '../../../src/cluster/ilp-order-gate.js';

const WAIT_MS = 40;

function starts(firstMicros: number, table = 'cpu'): { table: string; firstMicros: number }[] {
  return [{ table, firstMicros }];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

test('a request waits for an announced earlier one of its table, then both go earliest first', (t) => {
  const gate = new IlpOrderGate(60_000);
  const order: string[] = [];
  gate.announce('worker-1', 1, starts(100));
  gate.admit('worker-2', 7, starts(200), () => order.push('later'));
  t.deepEqual(order, [], 'held while the earlier request is parsed');
  t.is(gate.heldCount, 1);
  gate.admit('worker-1', 1, starts(100), () => order.push('earlier'));
  t.deepEqual(order, ['earlier', 'later']);
  t.is(gate.heldCount, 0);
});

test('only an announcement of the same table starting earlier holds a request', (t) => {
  const gate = new IlpOrderGate(60_000);
  const order: string[] = [];
  gate.announce('worker-1', 1, starts(100, 'other'));
  gate.announce('worker-1', 2, starts(300));
  gate.admit('worker-2', 1, starts(200, 'CPU'), () => order.push('cpu'));
  gate.admit('worker-2', 2, [], () => order.push('no timestamp'));
  t.deepEqual(order, ['cpu', 'no timestamp']);
});

test('a withdrawn announcement and a worker gone release what they held', (t) => {
  const gate = new IlpOrderGate(60_000);
  const order: string[] = [];
  gate.announce('worker-1', 1, starts(100));
  gate.announce('worker-2', 1, starts(150));
  gate.admit('local', undefined, starts(200), () => order.push('held'));
  gate.withdraw('worker-1', 1);
  t.deepEqual(order, [], 'worker-2 still parses an earlier request');
  gate.ownerGone('worker-2');
  t.deepEqual(order, ['held']);
});

test('a request waits at most the bound, and the announcement that held it holds nothing after', async (t) => {
  const gate = new IlpOrderGate(WAIT_MS);
  const order: string[] = [];
  gate.announce('worker-1', 1, starts(100));
  const started = Date.now();
  await new Promise<void>((resolve) => gate.admit('worker-2', 1, starts(200), () => { order.push('first'); resolve(); }));
  t.true(Date.now() - started >= WAIT_MS - 5, 'released by the bound');
  gate.admit('worker-2', 2, starts(300), () => order.push('second'));
  t.deepEqual(order, ['first', 'second'], 'the stale announcement was dropped');
  await sleep(WAIT_MS * 2);
  t.is(gate.heldCount, 0);
});

test('a bound of 0 turns the ordering off: nothing is held, announcements are not kept', (t) => {
  const gate = new IlpOrderGate(0);
  const order: string[] = [];
  gate.announce('worker-1', 1, starts(100));
  gate.admit('worker-2', 1, starts(200), () => order.push('later'));
  t.deepEqual(order, ['later'], 'proceeds before admit returns');
  t.is(gate.heldCount, 0);
});

test('a slow request that outlived the bound once delays later ones no more, even before it arrives', async (t) => {
  const gate = new IlpOrderGate(WAIT_MS);
  const order: string[] = [];
  gate.announce('worker-1', 1, starts(100));
  gate.admit('worker-2', 1, starts(200), () => order.push('first'));
  await sleep(WAIT_MS / 2);
  gate.admit('worker-2', 2, starts(300), () => order.push('second'));
  t.deepEqual(order, [], 'both held while the slow one is young');
  await sleep(WAIT_MS);
  t.deepEqual(order, ['first', 'second'], 'the first expiry drops the announcement and frees both, earliest first');
  gate.admit('worker-1', 1, starts(100), () => order.push('slow'));
  t.deepEqual(order, ['first', 'second', 'slow'], 'the slow one commits on arrival (as an out-of-order merge)');
});
