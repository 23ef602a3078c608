// The primary's side of ILP ingestion in one process: narrow bodies of 50,000 rows are parsed and staged as a
// worker does (IlpRequest), then committed in groups by commitIlpGroup, as the writer's queue does when
// requests wait together. CPU ms per 1M rows (user + system: file writes count) of the staging and of the
// commit, for bodies arriving in time order and arriving as concurrent connections deliver them (adjacent
// bodies swapped within a window), under commit mode nosync (no WAL record for a one-table group) beside
// async (the record is written, as every group wrote it before). Also how many commits needed an O3 merge.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { commitIlpGroup } from '../../src/engine/ilp-commit.js';
import type { IlpCommitRequest } from '../../src/engine/writer-client.js';
import { IlpRequest } from '../../src/ilp/ilp-request.js';
import { realFiles } from '../../src/core/files.js';
import type { CommitMode } from '../../src/config/keys.js';
import { commitChannel } from '../../src/core/diagnostics.js';
import { ilpBodies, standardIlpRow } from '../lib/ilp-bodies.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 2_000_000);
const groupSize = Number(process.env['BENCH_GROUP'] ?? 4);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
const bodies = ilpBodies(rows, 50_000, standardIlpRow);

/** Bodies in the order 8 connections deliver them: each window of 8 finishes parsing in a shuffled order. */
function deliveryOrder(count: number, windowSize: number): number[] {
  const order: number[] = [];
  let seed = 7;
  for (let from = 0; from < count; from += windowSize) {
    const window = Array.from({ length: Math.min(windowSize, count - from) }, (_, k) => from + k);
    for (let k = window.length - 1; k > 0; k--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const other = seed % (k + 1);
      [window[k], window[other]] = [window[other] as number, window[k] as number];
    }
    order.push(...window);
  }
  return order;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function run(mode: CommitMode, order: readonly number[]): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'svc-ilp-commit-'));
  const engine = new Engine({ rootDir: root, files: realFiles, commitMode: mode, walSegmentBytesMax: 256 << 20, uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000 });
  engine.recover();
  let o3 = 0;
  let commits = 0;
  const unsubscribe = commitChannel.subscribe((event) => {
    commits++;
    if (event.outOfOrder) o3++;
  });
  try {
    let stageMs = 0;
    let commitMs = 0;
    for (let from = 0; from < order.length; from += groupSize) {
      let started = process.cpuUsage();
      const group: IlpCommitRequest[] = order.slice(from, from + groupSize).map((index) => stage(engine, bodies[index] as Buffer));
      stageMs += cpuMs(started);
      started = process.cpuUsage();
      for (const outcome of commitIlpGroup(engine, group)) if (outcome instanceof Error) throw outcome;
      commitMs += cpuMs(started);
      // Lets async mode's WAL fsyncs run, as they do between turns of the writer's queue.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const perMillion = (ms: number): string => (ms / (rows / 1e6)).toFixed(0);
    return `| ${mode} | ${perMillion(stageMs)} | ${perMillion(commitMs)} | ${commits} | ${o3} |`;
  } finally {
    unsubscribe();
    engine.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function stage(engine: Engine, body: Buffer): IlpCommitRequest {
  const request = new IlpRequest({
    dbDir: engine.dbDir, catalog: engine.catalog, lineBytesMax: 1 << 20, autoCreateTables: true, autoCreateColumns: true,
    partitionBy: 'DAY', spillBytes: 32 << 20,
  }, 'ns', body.length);
  for (let at = 0; at < body.length; at += 65536) request.feed(body.subarray(at, Math.min(body.length, at + 65536)));
  request.finish();
  const staged = request.commitRequest();
  if (staged === undefined) throw new Error('a body with rows stages them');
  return staged;
}

const inOrder = bodies.map((_, k) => k);
const delivered = deliveryOrder(bodies.length, 8);
const lines = ['| commit mode | staging CPU ms / 1M rows | commit CPU ms / 1M rows | commits | O3 commits |', '|---|---:|---:|---:|---:|'];
for (let round = 0; round < rounds; round++) {
  for (const [name, order] of [['in time order', inOrder], ['as 8 connections deliver', delivered]] as const) {
    for (const mode of ['async', 'nosync'] as const) lines.push(`${await run(mode, order)} ${name}`.replace(/ \|$/, ` | ${name}`));
  }
}
process.stdout.write(`\nILP commit, ${rows.toLocaleString('en-US')} narrow rows, groups of ${groupSize} requests of 50,000 rows\n${lines.join('\n')}\n`);
