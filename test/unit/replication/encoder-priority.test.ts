// The segment encoder thread lowers its own CPU priority, and only its own: on Linux setpriority(2) with pid 0
// applies to the calling thread, so the thread that starts the encoder (and every other thread of the
// process) keeps its nice value. At normal priority nothing is lowered.
import test from 'ava';
import { SegmentEncoder } from '../../../src/replication/segment-encoder.js';
import type { PartPlan } from '../../../src/replication/capture-parts.js';
import { threadNiceValues } from '../../helpers/thread-nice.js';

const LOWEST_NICE = 19;

function onePlan(): PartPlan {
  const bytes = Buffer.from('one small file');
  return {
    operations: [{ op: 'write', path: 'db/t/_meta', offset: 0, length: bytes.length, whole: true }],
    ranges: [{ source: { kind: 'memory', bytes }, position: 0, length: bytes.length, valueBytes: 1 }],
  };
}

/**
 * Threads an encoder of `lowPriority` started at the lowest nice value while encoding one plan, and threads
 * that existed before it whose nice value changed.
 */
async function niceChangesOfEncoder(lowPriority: boolean): Promise<{ lowered: number[]; changedBefore: number[] }> {
  const encoder = new SegmentEncoder({ lowPriority, store: null });
  try {
    const before = threadNiceValues('self');
    await encoder.encode(1, onePlan());
    const after = threadNiceValues('self');
    const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === LOWEST_NICE).map(([tid]) => tid);
    const changedBefore = [...before].filter(([tid, nice]) => after.has(tid) && after.get(tid) !== nice).map(([tid]) => tid);
    return { lowered, changedBefore };
  } finally {
    await encoder.close();
  }
}

test.serial('at low priority exactly the new encoder thread runs at nice 19, every other thread as before', async (t) => {
  if (process.platform !== 'linux') return t.pass('per-thread priority is Linux-only');
  const { lowered, changedBefore } = await niceChangesOfEncoder(true);
  t.is(lowered.length, 1, `threads lowered: ${lowered.join(', ')}`);
  t.deepEqual(changedBefore, []);
});

test.serial('at normal priority no thread is lowered', async (t) => {
  if (process.platform !== 'linux') return t.pass('per-thread priority is Linux-only');
  const { lowered, changedBefore } = await niceChangesOfEncoder(false);
  t.deepEqual(lowered, []);
  t.deepEqual(changedBefore, []);
});
