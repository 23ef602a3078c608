// Requests of one ILP group commit that write the same table with different column sets: each request's rows
// are laid out in the table's columns with nulls where it sent nothing, and the group's chunks must then
// concatenate. A tag (SYMBOL) one request sends and another leaves out travels as text in the first and must
// be text nulls in the second: a key-form null made the whole group fail its layout assertion (HTTP 500).
import test from 'ava';
import type { Engine } from '../../../src/engine/engine.js';
import { commitIlpGroup } from '../../../src/engine/ilp-commit.js';
import { stageIlp, withIlpEngine } from '../../helpers/ilp-stage.js';

/** The symbol text of every row of `column`, partition by partition. */
function symbolValues(engine: Engine, table: string, column: string): (string | null)[] {
  const writer = engine.writer(table);
  if (writer === undefined) throw new Error(`no table ${table}`);
  const index = writer.meta.columns.findIndex((candidate) => candidate.name === column);
  const values: (string | null)[] = [];
  for (const entry of writer.txn.partitions) {
    const data = writer.readPartition(entry).columns[index];
    if (data?.kind !== 'fixed') throw new Error('a committed SYMBOL column holds int32 keys');
    for (let row = 0; row < data.bytes.length / 4; row++) {
      const key = data.bytes.readInt32LE(row * 4);
      values.push(key < 0 ? null : writer.symbolText(index, key));
    }
  }
  return values;
}

test('requests with and without a tag commit together into one table', (t) => {
  withIlpEngine((engine) => {
    const setup = commitIlpGroup(engine, [stageIlp(engine, 'lay,host=a v=1i 1000000\n')]);
    t.false(setup[0] instanceof Error, String(setup[0]));
    const outcomes = commitIlpGroup(engine, [
      stageIlp(engine, 'lay v=2i 2000000\n'),
      stageIlp(engine, 'lay,host=b v=3i 3000000\n'),
      stageIlp(engine, 'lay,region=eu v=4i 4000000\n'),
    ]);
    t.deepEqual(outcomes.map((outcome) => (outcome instanceof Error ? outcome.message : outcome.rowsCommitted)), [1, 1, 1]);
    const alone = commitIlpGroup(engine, [stageIlp(engine, 'lay v=5i 5000000\n')]);
    t.false(alone[0] instanceof Error, 'a group whose requests all leave the tag out');
    t.deepEqual(symbolValues(engine, 'lay', 'host'), ['a', null, 'b', null, null]);
    t.deepEqual(symbolValues(engine, 'lay', 'region'), [null, null, null, 'eu', null]);
  });
});

test('a new table created by one request of the group and written without its tag by another', (t) => {
  withIlpEngine((engine) => {
    const outcomes = commitIlpGroup(engine, [stageIlp(engine, 'fresh,host=x v=1i 1000000\n'), stageIlp(engine, 'fresh v=2i 2000000\n')]);
    t.deepEqual(outcomes.map((outcome) => (outcome instanceof Error ? outcome.message : outcome.rowsCommitted)), [1, 1]);
    t.deepEqual(symbolValues(engine, 'fresh', 'host'), ['x', null]);
  });
});
