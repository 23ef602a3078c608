// A committed group record that failed to apply stays pending in its table's writer until the next change to
// that table. ILP commits read staged files into memory the engine reuses from one group to the next
// (core/turn-memory.ts), so the pending record must not keep views of it: the next group's read
// overwrote them, and the record then applied that group's bytes as its own rows.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../../src/engine/engine.js';
import { commitIlpGroup } from '../../../src/engine/ilp-commit.js';
import { committedIdClientRows, stageIlp } from '../../helpers/ilp-stage.js';
import { realFiles, type FilesFacade } from '../../../src/core/files.js';

/** Ids are request * 1000 + row, and each row's symbol names its request. */
function ilpLines(table: string, request: number, rows: number, day: number): string {
  let text = '';
  for (let row = 0; row < rows; row++) text += `${table},client=c${request} id=${request * 1000 + row}i,value=${row / 4} ${Date.UTC(2024, 0, day) + row * 1000}000000\n`;
  return text;
}

/** Real files, except that while `failing` no column or symbol file of table ilp_b opens for writing (its WAL does). */
function filesFailingTableB(): { files: FilesFacade; setFailing: (on: boolean) => void } {
  let failing = false;
  const files: FilesFacade = {
    ...realFiles,
    openWrite(path: string): number {
      if (failing && path.includes('/ilp_b/') && !path.includes('/wal/')) throw Object.assign(new Error(`EIO: i/o error, open '${path}' (injected)`), { code: 'EIO' });
      return realFiles.openWrite(path);
    },
  };
  return { files, setFailing: (on) => { failing = on; } };
}

/** Every row of ilp_b as `id client`, in id order. */
function rowsOfB(engine: Engine): string[] {
  const writer = engine.writer('ilp_b');
  if (writer === undefined) throw new Error('ilp_b exists');
  const rows = committedIdClientRows(writer);
  return rows.sort((a, b) => a.id - b.id).map((row) => `${row.id} ${String(row.client)}`);
}

function expectedRows(request: number, rows: number): string[] {
  return Array.from({ length: rows }, (_, row) => `${request * 1000 + row} c${request}`);
}

test('a group record left pending applies its own rows after a later group reused the read memory', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-ilp-pending-'));
  try {
    const { files, setFailing } = filesFailingTableB();
    const engine = new Engine({ rootDir: root, files, commitMode: 'sync', walSegmentBytesMax: 1 << 20, uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000 });
    engine.recover();
    t.false(commitIlpGroup(engine, [stageIlp(engine, ilpLines('ilp_a', 0, 10, 1) + ilpLines('ilp_b', 0, 10, 1))])[0] instanceof Error);
    // Two tables: a group record each; ilp_a's applies, ilp_b's fails twice and stays pending.
    setFailing(true);
    const failed = commitIlpGroup(engine, [stageIlp(engine, ilpLines('ilp_a', 1, 40, 2) + ilpLines('ilp_b', 1, 50, 2))]);
    setFailing(false);
    t.true(failed[0] instanceof Error);
    t.is(engine.groupCommitContext().pendingGroupIds().length, 1, 'the group committed and ilp_b\'s record is pending');
    // The next group's staged file is read into the same memory, then ilp_b's writer applies the pending record.
    t.false(commitIlpGroup(engine, [stageIlp(engine, ilpLines('ilp_b', 2, 60, 3) + ilpLines('ilp_a', 2, 5, 3))])[0] instanceof Error);
    t.deepEqual(rowsOfB(engine), [...expectedRows(0, 10), ...expectedRows(1, 50), ...expectedRows(2, 60)]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
