// The ILP TCP listener in process, with a recording WriterClient in place of the primary: commits at the
// interval and past the uncommitted bound (one at a time, lines cut by a commit carried whole into the next, the
// next unit parsed while one is being committed),
// an overloaded primary retried without losing rows, a line cut off by the end of the stream dropped, a
// commit the primary refuses closing the connection, and close() committing what connections hold.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../../../src/storage/catalog.js';
import { SvcError } from '../../../src/core/errors.js';
import { readStagedChunks } from '../../../src/storage/staged-chunks.js';
import type { IlpCommitRequest, IlpCommitResult, WriterClient } from '../../../src/engine/writer-client.js';
import { startIlpTcpServer, type RunningIlpTcpServer } from '../../../src/ilp/tcp-server.js';
import { openRawIlpSocket, waitUntil } from '../../helpers/ilp-tcp.js';

/** Records each commit's rows per table; refuses the first `refusals` commits with the given error. */
class RecordingWriter implements WriterClient {
  readonly commits: Map<string, number>[] = [];
  inFlight = 0;
  inFlightMax = 0;
  attempts = 0;

  /** While set, commits wait for it (a primary busy with a long commit). */
  gate: Promise<void> | undefined;

  constructor(private refusals: SvcError[] = [], private readonly delayMs = 0) {}

  ilpAnnounce(): void {
    // Ordering across connections is the primary's business; this writer commits in arrival order.
  }

  ilpWithdraw(): void {
    // As ilpAnnounce.
  }

  rows(table: string): number {
    return this.commits.reduce((sum, commit) => sum + (commit.get(table) ?? 0), 0);
  }

  async ilpCommit(request: IlpCommitRequest): Promise<IlpCommitResult> {
    this.attempts++;
    this.inFlight++;
    this.inFlightMax = Math.max(this.inFlightMax, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      await this.gate;
      const refusal = this.refusals.shift();
      if (refusal !== undefined) throw refusal;
      const chunks = readStagedChunks(request.stagedFile, request.tables.map((batch) => batch.chunk));
      rmSync(request.stagedFile);
      const commit = new Map<string, number>();
      request.tables.forEach((batch, k) => commit.set(batch.table, (commit.get(batch.table) ?? 0) + (chunks[k]?.rowCount ?? 0)));
      this.commits.push(commit);
      return { rowsCommitted: [...commit.values()].reduce((a, b) => a + b, 0), tablesCreated: 0 };
    } finally {
      this.inFlight--;
    }
  }

  executeWrite(): never {
    throw new Error('not used');
  }

  importCommit(): never {
    throw new Error('not used');
  }
}

interface Harness {
  readonly server: RunningIlpTcpServer;
  readonly writer: RecordingWriter;
  close(): Promise<void>;
}

async function startHarness(writer: RecordingWriter, options: { commitIntervalMs?: number; uncommittedBytesMax?: number } = {}): Promise<Harness> {
  const dbDir = mkdtempSync(join(tmpdir(), 'svc-ilp-tcp-'));
  const server = await startIlpTcpServer({
    host: '127.0.0.1', port: 0, connectionsMax: 8,
    connection: {
      ingest: {
        dbDir, catalog: new Catalog(dbDir), lineBytesMax: 4096, autoCreateTables: true, autoCreateColumns: true, partitionBy: 'DAY',
        spillBytes: Number.MAX_SAFE_INTEGER,
      },
      writer, commitIntervalMs: options.commitIntervalMs ?? 60_000, uncommittedBytesMax: options.uncommittedBytesMax ?? 1 << 20, authDb: undefined,
    },
  });
  return {
    server, writer,
    async close() {
      await server.close(1000);
      rmSync(dbDir, { recursive: true, force: true });
    },
  };
}

function lines(table: string, from: number, count: number): string {
  let text = '';
  for (let row = from; row < from + count; row++) text += `${table},k=key${row % 7} n=${row}i,x=${row}.25,note="row ${row}" ${row}000\n`;
  return text;
}

test('past the uncommitted bound a connection commits, one commit at a time, and lines cut by a commit arrive whole', async (t) => {
  const harness = await startHarness(new RecordingWriter([], 5), { uncommittedBytesMax: 64 * 1024 });
  try {
    const socket = await openRawIlpSocket(harness.server.port);
    const body = Buffer.from(lines('big', 0, 20_000));
    // Odd-sized writes, so commits happen with a line cut in two.
    for (let at = 0; at < body.length; at += 7919) socket.write(body.subarray(at, at + 7919));
    socket.end();
    t.true(await waitUntil(() => harness.writer.rows('big') === 20_000, 15_000), `rows: ${harness.writer.rows('big')}`);
    t.true(harness.writer.commits.length > 5, `${harness.writer.commits.length} commits`);
    t.is(harness.writer.inFlightMax, 1);
  } finally {
    await harness.close();
  }
});

test('the next unit is parsed while one is being committed: a bad line in it closes the connection before that commit is answered', async (t) => {
  const writer = new RecordingWriter();
  let release = (): void => undefined;
  writer.gate = new Promise((resolve) => { release = resolve; });
  const harness = await startHarness(writer, { uncommittedBytesMax: 4096 });
  try {
    const socket = await openRawIlpSocket(harness.server.port);
    socket.write(lines('pipe', 0, 100));
    t.true(await waitUntil(() => writer.inFlight === 1, 5000), 'the first unit passed the bound and is being committed');
    socket.write('pipe,k=a n=notanumber\n');
    // Read while the commit waits: a connection paused for its commit would close only after the answer.
    t.true(await socket.closed(5000), 'closed while the first unit is still in flight');
    t.is(writer.commits.length, 0);
    release();
    t.true(await waitUntil(() => writer.commits.length === 1, 5000));
    t.is(writer.rows('pipe'), 100, 'the unit in flight is committed; nothing after it is');
  } finally {
    release();
    await harness.close();
  }
});

test('rows are committed at the interval while the connection stays open', async (t) => {
  const harness = await startHarness(new RecordingWriter(), { commitIntervalMs: 50 });
  try {
    const socket = await openRawIlpSocket(harness.server.port);
    socket.write(lines('tick', 0, 3));
    t.true(await waitUntil(() => harness.writer.rows('tick') === 3, 5000));
    socket.write(lines('tick', 3, 2));
    t.true(await waitUntil(() => harness.writer.rows('tick') === 5, 5000));
    t.is(harness.writer.commits.length, 2);
    t.false(socket.closedByServer());
    socket.destroy();
  } finally {
    await harness.close();
  }
});

test('an overloaded primary (503) is retried until it takes the rows; nothing is lost or doubled', async (t) => {
  const overloaded = (): SvcError => new SvcError('SVC_OVERLOADED', 'the commit queue is full', 503);
  const harness = await startHarness(new RecordingWriter([overloaded(), overloaded(), overloaded()]));
  try {
    const socket = await openRawIlpSocket(harness.server.port);
    socket.write(lines('busy', 0, 10));
    socket.end();
    t.true(await waitUntil(() => harness.writer.rows('busy') === 10, 10_000));
    t.is(harness.writer.attempts, 4);
    t.is(harness.writer.commits.length, 1);
  } finally {
    await harness.close();
  }
});

test('the end of the stream commits complete lines and drops a line it cuts off', async (t) => {
  const harness = await startHarness(new RecordingWriter());
  try {
    const socket = await openRawIlpSocket(harness.server.port);
    socket.write(`${lines('cut', 0, 2)}cut,k=a n=99`);
    socket.end();
    t.true(await waitUntil(() => harness.writer.commits.length === 1, 5000));
    await new Promise((resolve) => setTimeout(resolve, 100));
    t.is(harness.writer.rows('cut'), 2);
  } finally {
    await harness.close();
  }
});

test('a commit the primary refuses (a type conflict) closes the connection; later bytes are not committed', async (t) => {
  const harness = await startHarness(new RecordingWriter([new SvcError('SVC_ILP_INVALID', 'cast error', 400)]), { commitIntervalMs: 20 });
  try {
    const socket = await openRawIlpSocket(harness.server.port);
    socket.write(lines('conflict', 0, 2));
    t.true(await socket.closed(5000));
    t.is(harness.writer.commits.length, 0);
    t.is(harness.writer.attempts, 1);
  } finally {
    await harness.close();
  }
});

test('close() commits what open connections hold, then closes them', async (t) => {
  const harness = await startHarness(new RecordingWriter());
  const socket = await openRawIlpSocket(harness.server.port);
  socket.write(lines('pending', 0, 4));
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(harness.writer.commits.length, 0, 'the interval (60 s) has not passed');
  await harness.close();
  t.is(harness.writer.rows('pending'), 4);
  t.true(await socket.closed(1000));
});
