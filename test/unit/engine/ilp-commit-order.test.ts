// How one ILP group commit orders its requests for a table (engine/ilp-commit.ts, orderedUnits): requests that
// overlap each other in time commit as one insert the writer sorts and appends in place, a group with a request
// reaching below the committed rows is one out-of-order merge for all of them (one new partition version), and
// requests that follow each other append one after another whatever order they arrived in.
import test from 'ava';
import type { Engine } from '../../../src/engine/engine.js';
import { commitIlpGroup } from '../../../src/engine/ilp-commit.js';
import { stageIlp, withIlpEngine } from '../../helpers/ilp-stage.js';

/** `lines` rows of table `ord`: value v, timestamp in µs (the line protocol over HTTP defaults to ns). */
function body(rows: readonly (readonly [number, number])[]): string {
  return rows.map(([v, micros]) => `ord v=${v}i ${micros * 1000}\n`).join('');
}

/** Every committed (v, timestamp µs) pair in table order, and the partition's directory version. */
function committed(engine: Engine): { rows: [number, number][]; version: number } {
  const writer = engine.writer('ord');
  if (writer === undefined) throw new Error('no table ord');
  const [entry] = writer.txn.partitions;
  if (entry === undefined || writer.txn.partitions.length !== 1) throw new Error('one partition expected');
  const data = writer.readPartition(entry);
  const v = writer.meta.columns.findIndex((column) => column.name === 'v');
  const ts = writer.meta.timestampIndex;
  const values = data.columns[v];
  const times = data.columns[ts];
  if (values?.kind !== 'fixed' || times?.kind !== 'fixed') throw new Error('fixed-width columns');
  const rows: [number, number][] = [];
  for (let row = 0; row < entry.rowCount; row++) rows.push([Number(values.bytes.readBigInt64LE(row * 8)), Number(times.bytes.readBigInt64LE(row * 8))]);
  return { rows, version: entry.version };
}

function commitGroup(engine: Engine, bodies: readonly string[]): (number | string)[] {
  return commitIlpGroup(engine, bodies.map((text) => stageIlp(engine, text))).map((outcome) => (outcome instanceof Error ? outcome.message : outcome.rowsCommitted));
}

const BASE = Date.UTC(2024, 0, 1) * 1000;

test('requests that overlap each other in time commit sorted and appended in place (no new partition version)', (t) => {
  withIlpEngine((engine) => {
    t.deepEqual(commitGroup(engine, [body([[0, BASE]])]), [1]);
    const before = committed(engine).version;
    // Three connections stamping rows with one clock: each request in order, the three interleaved.
    t.deepEqual(commitGroup(engine, [
      body([[11, BASE + 10], [12, BASE + 40], [13, BASE + 70]]),
      body([[21, BASE + 20], [22, BASE + 50]]),
      body([[31, BASE + 30], [32, BASE + 60], [33, BASE + 80]]),
    ]), [3, 2, 3]);
    const after = committed(engine);
    t.deepEqual(after.rows.map(([v]) => v), [0, 11, 21, 31, 12, 22, 32, 13, 33]);
    t.is(after.version, before, 'appended in place: no merge wrote a new version');
  });
});

test('a request below the committed rows makes the group one merge: every row in order, one new version', (t) => {
  withIlpEngine((engine) => {
    t.deepEqual(commitGroup(engine, [body([[0, BASE], [1, BASE + 100]])]), [2]);
    const before = committed(engine).version;
    t.deepEqual(commitGroup(engine, [
      body([[5, BASE + 200], [6, BASE + 300]]),
      body([[2, BASE + 50], [7, BASE + 250]]),
      body([[8, BASE + 400]]),
    ]), [2, 2, 1]);
    const after = committed(engine);
    t.deepEqual(after.rows, [[0, BASE], [2, BASE + 50], [1, BASE + 100], [5, BASE + 200], [7, BASE + 250], [6, BASE + 300], [8, BASE + 400]]);
    t.not(after.version, before, 'merged into a new version');
  });
});

test('requests that follow each other append in time order whatever order they arrived in', (t) => {
  withIlpEngine((engine) => {
    t.deepEqual(commitGroup(engine, [body([[0, BASE]])]), [1]);
    const before = committed(engine).version;
    t.deepEqual(commitGroup(engine, [body([[3, BASE + 30], [4, BASE + 40]]), body([[1, BASE + 10], [2, BASE + 20]]), body([[5, BASE + 50]])]), [2, 2, 1]);
    const after = committed(engine);
    t.deepEqual(after.rows.map(([v]) => v), [0, 1, 2, 3, 4, 5]);
    t.is(after.version, before);
  });
});
