// Parses and stages one ILP request's lines as a worker does, for in-process engine tests that commit them,
// and reads back what such tests committed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { realFiles } from '../../src/core/files.js';
import type { IlpCommitRequest } from '../../src/engine/writer-client.js';
import { IlpRequest } from '../../src/ilp/ilp-request.js';
import type { TableWriter } from '../../src/storage/table-writer.js';

function recoveredEngine(root: string): Engine {
  const engine = new Engine({ rootDir: root, files: realFiles, commitMode: 'nosync', walSegmentBytesMax: 1 << 20, uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000 });
  engine.recover();
  return engine;
}

/** Runs `run` against a recovered in-process engine (commit mode nosync) over a temp root removed afterwards. */
export function withIlpEngine(run: (engine: Engine) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'svc-ilp-engine-'));
  try {
    run(recoveredEngine(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** withIlpEngine for work that waits (a WriterService's commits). */
export async function withIlpEngineAsync(run: (engine: Engine) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'svc-ilp-engine-'));
  try {
    await run(recoveredEngine(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function stageIlp(engine: Engine, lines: string): IlpCommitRequest {
  const ilp = new IlpRequest({
    dbDir: engine.dbDir, catalog: engine.catalog, lineBytesMax: 1 << 20, autoCreateTables: true, autoCreateColumns: true, partitionBy: 'DAY', spillBytes: 1 << 20,
  }, 'ns');
  ilp.feed(Buffer.from(lines));
  ilp.finish();
  const staged = ilp.commitRequest();
  if (staged === undefined) throw new Error('a request with rows stages them');
  return staged;
}

/** The committed rows of a table with LONG `id` and SYMBOL `client` columns, in partition and row order. */
export function committedIdClientRows(writer: TableWriter): { id: number; client: string | null }[] {
  const idIndex = writer.meta.columns.findIndex((column) => column.name === 'id');
  const clientIndex = writer.meta.columns.findIndex((column) => column.name === 'client');
  const rows: { id: number; client: string | null }[] = [];
  for (const entry of writer.txn.partitions) {
    const chunk = writer.readPartition(entry);
    const ids = chunk.columns[idIndex];
    const clients = chunk.columns[clientIndex];
    if (ids?.kind !== 'fixed' || clients?.kind !== 'fixed') throw new Error('id and client are fixed-width columns');
    for (let row = 0; row < chunk.rowCount; row++) {
      rows.push({ id: Number(ids.bytes.readBigInt64LE(row * 8)), client: writer.symbolText(clientIndex, clients.bytes.readInt32LE(row * 4)) });
    }
  }
  return rows;
}
