// How much the primary's TCP hold keeps back (engine/tcp-row-hold.ts, commitsEverything): rows above the
// watermark are held while holding them, about three copies per group they wait, costs less than the merge it
// avoids, about one copy of the newest partition, or while they are no more than the group commits now. A
// backfill whose groups reach back over most of a small partition commits everything (and merges); rows
// stamped with the clock arriving a little skewed into a large partition are held and then appended.
import test from 'ava';
import type { Engine } from '../../../src/engine/engine.js';
import { commitHeldRows, commitIlpGroup } from '../../../src/engine/ilp-commit.js';
import { TcpRowHold } from '../../../src/engine/tcp-row-hold.js';
import { ilpTcpHeldBytesMax } from '../../../src/core/limits.js';
import { stageIlp, withIlpEngine } from '../../helpers/ilp-stage.js';

const BASE_MICROS = Date.UTC(2024, 0, 1) * 1000;

/** Rows of table `held` at µs offsets [from, to) from BASE_MICROS, one per µs, v the offset. */
function rows(from: number, to: number): string {
  const lines: string[] = [];
  for (let at = from; at < to; at++) lines.push(`held v=${at}i ${(BASE_MICROS + at) * 1000}\n`);
  return lines.join('');
}

/** One group of TCP units through the hold; returns the rows each unit committed. */
function commitTcpGroup(engine: Engine, hold: TcpRowHold, units: readonly string[]): number[] {
  const requests = units.map((lines) => ({ ...stageIlp(engine, lines), tcp: true }));
  return commitIlpGroup(engine, requests, { hold, mayHold: true }).map((outcome) => {
    if (outcome instanceof Error) throw outcome;
    return outcome.rowsCommitted;
  });
}

function tableRows(engine: Engine): number {
  return engine.writer('held')?.txn.rowCount ?? 0;
}

/** A hold whose lag is twice what the groups reached (no floor). */
function newHold(): TcpRowHold {
  return new TcpRowHold({ ageMaxMs: 600_000, bytesMax: ilpTcpHeldBytesMax, lagFloorMicros: 0 }, Date.now());
}

test('a group that would hold more than it commits and more than a third of a small partition commits everything', (t) => {
  withIlpEngine((engine) => {
    const hold = newHold();
    commitTcpGroup(engine, hold, [rows(0, 200_000)]);
    t.is(tableRows(engine), 200_000);
    // Reaches 99,999 µs below the newest row (199,999): the lag is twice that, so the watermark is 200,001 and
    // 199,998 rows are above it, 100,002 at or below; the partition holds 200,000 rows, a third of it 66,666.
    commitTcpGroup(engine, hold, [rows(100_000, 400_000)]);
    t.is(hold.heldRows, 0, 'nothing held');
    t.is(tableRows(engine), 500_000);
  });
});

test('rows above the watermark are held while fewer than a third of the partition, then appended in order', (t) => {
  withIlpEngine((engine) => {
    const hold = newHold();
    commitTcpGroup(engine, hold, [rows(0, 900_000)]);
    // The same reach into a partition of 900,000 rows: the watermark is 900,001 and the 199,998 rows above it
    // are held, fewer than 300,000.
    commitTcpGroup(engine, hold, [rows(800_000, 1_100_000)]);
    t.is(hold.heldRows, 199_998);
    t.is(tableRows(engine), 1_000_002);
    t.deepEqual(commitHeldRows(engine, hold), []);
    t.is(hold.heldRows, 0);
    const writer = engine.writer('held');
    const [entry] = writer?.txn.partitions ?? [];
    if (writer === undefined || entry === undefined) throw new Error('table held has a partition');
    const values = writer.readPartition(entry).columns[writer.meta.columns.findIndex((column) => column.name === 'v')];
    if (values?.kind !== 'fixed') throw new Error('v is fixed-width');
    const committed = Array.from({ length: entry.rowCount }, (_, row) => Number(values.bytes.readBigInt64LE(row * 8)));
    t.is(committed.length, 1_200_000);
    t.true(committed.every((value, row) => row === 0 || value >= (committed[row - 1] as number)), 'stored in time order');
  });
});
