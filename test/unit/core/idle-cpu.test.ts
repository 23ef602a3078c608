// machineIdleShare: a fraction of the CPU time counted between samples, re-read only once a window has passed,
// and it sees a core kept busy (the share falls below what an idle machine shows).
import test from 'ava';
import { cpus } from 'node:os';
import { machineIdleShare } from '../../../src/core/idle-cpu.js';

function spin(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* keeps this core busy */ }
}

test('the idle share is a fraction, kept within a sample window and read again after it', (t) => {
  const start = Date.now();
  machineIdleShare(start);
  spin(300);
  const busy = machineIdleShare(start + 300);
  t.true(busy >= 0 && busy <= 1, String(busy));
  t.is(machineIdleShare(start + 350), busy, 'within the window the last share is kept');
  // This process kept one core busy for the whole window: at most the other cores' time can have been idle.
  const cores = cpus().length;
  t.true(busy <= (cores - 1) / cores + 0.1, `one core was busy, yet the idle share was ${busy}`);
});
