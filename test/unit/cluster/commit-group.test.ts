// CommitGroup: items waiting together commit as one group with one outcome each, and a turn's `filled` waits
// (bounded) for as many items as the previous group held before the group is taken.
import test from 'ava';
import { CommitGroup } from '../../../src/cluster/commit-group.js';

/** A group whose turns run when the test says, committing each item to its double; it records the groups. */
function doublingGroup(): { group: CommitGroup<number, number>; groups: number[][]; runTurn: () => void } {
  const groups: number[][] = [];
  const turns: (() => void)[] = [];
  const group = new CommitGroup<number, number>((turn) => turns.push(turn), (items) => {
    groups.push(items);
    return items.map((item) => (item < 0 ? new Error(`negative ${item}`) : item * 2));
  }, (error) => error);
  const runTurn = (): void => {
    const turn = turns.shift();
    if (turn === undefined) throw new Error('no turn was scheduled');
    turn();
  };
  return { group, groups, runTurn };
}

test('items waiting for one turn commit as one group, each with its own outcome', async (t) => {
  const { group, groups, runTurn } = doublingGroup();
  const outcomes = Promise.allSettled([group.add(1), group.add(-2), group.add(3)]);
  t.is(group.size, 3);
  runTurn();
  const settled = await outcomes;
  t.deepEqual(groups, [[1, -2, 3]]);
  t.deepEqual(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'rejected')), [2, 'rejected', 6]);
  t.is(group.size, 0);
});

test('filled resolves at once before any group and for a group as large as the previous one', async (t) => {
  const { group, runTurn } = doublingGroup();
  const started = Date.now();
  await group.filled(60_000);
  const first = Promise.all([group.add(1), group.add(2)]);
  runTurn();
  await first;
  const second = Promise.all([group.add(3), group.add(4)]);
  await group.filled(60_000);
  t.true(Date.now() - started < 30_000, 'neither call waited for its bound');
  runTurn();
  t.deepEqual(await second, [6, 8]);
});

test('filled waits for the previous group size and resolves on the arrival that reaches it', async (t) => {
  const { group, groups, runTurn } = doublingGroup();
  const first = Promise.all([group.add(1), group.add(2), group.add(3)]);
  runTurn();
  await first;
  const next = [group.add(4)];
  let filled = false;
  const waiting = group.filled(60_000).then(() => { filled = true; });
  next.push(group.add(5));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(filled, 'two of three items are waiting: the turn keeps waiting');
  next.push(group.add(6));
  await waiting;
  runTurn();
  t.deepEqual(await Promise.all(next), [8, 10, 12]);
  t.deepEqual(groups, [[1, 2, 3], [4, 5, 6]]);
});

test('filled gives up after its bound when fewer items arrive, and the next turn expects the smaller group', async (t) => {
  const { group, groups, runTurn } = doublingGroup();
  const first = Promise.all([group.add(1), group.add(2), group.add(3)]);
  runTurn();
  await first;
  const second = group.add(4);
  const started = process.hrtime.bigint();
  await group.filled(20);
  t.true(Number(process.hrtime.bigint() - started) / 1e6 >= 15, 'the turn waited for its bound');
  runTurn();
  t.is(await second, 8);
  const third = group.add(5);
  let filled = false;
  const waiting = group.filled(60_000).then(() => { filled = true; });
  await new Promise((resolve) => setImmediate(resolve));
  t.true(filled, 'a group of one follows a group of one without waiting');
  await waiting;
  runTurn();
  t.is(await third, 10);
  t.deepEqual(groups, [[1, 2, 3], [4], [5]]);
});
