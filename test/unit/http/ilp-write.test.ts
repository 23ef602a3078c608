// The /write route against a writer that refuses or fails commits (which a real primary only does under
// overload or on storage faults): the client gets the retryable 503 or the 500, and the request's staged file
// under db/.staging/ is gone either way: a worker reuses a staged file only after its commit succeeded, since
// without an answer the primary may still read it.
import test from 'ava';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, mkdirSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { handleIlpWrite, type IlpRouteDeps } from '../../../src/http/routes/ilp-write.js';
import { Catalog } from '../../../src/storage/catalog.js';
import { SvcError } from '../../../src/core/errors.js';
import type { IlpAnnouncement, IlpCommitRequest, IlpCommitResult, WriterClient } from '../../../src/engine/writer-client.js';
import { postIlp } from '../../helpers/ilp-http.js';

/** A WriterClient whose ILP commits fail with `error`, remembering the staged files it was handed. */
class RefusingWriter implements WriterClient {
  readonly stagedFiles: string[] = [];
  readonly announced: IlpAnnouncement[] = [];
  readonly withdrawn: number[] = [];
  readonly committedAnnouncements: (number | undefined)[] = [];
  constructor(private readonly error: SvcError) {}
  executeWrite(): never {
    throw new Error('not used by /write');
  }
  importCommit(): never {
    throw new Error('not used by /write');
  }
  ilpCommit(request: IlpCommitRequest): Promise<IlpCommitResult> {
    this.stagedFiles.push(request.stagedFile);
    this.committedAnnouncements.push(request.announceId);
    return Promise.reject(this.error);
  }
  ilpAnnounce(announcement: IlpAnnouncement): void {
    this.announced.push(announcement);
  }
  ilpWithdraw(id: number): void {
    this.withdrawn.push(id);
  }
}

async function withRoute(writer: WriterClient, run: (port: number, dbDir: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'svc-ilp-route-'));
  const dbDir = join(root, 'db');
  mkdirSync(dbDir);
  const deps: IlpRouteDeps = {
    catalog: new Catalog(dbDir), writer, dbDir, readOnly: false,
    ilp: { httpEnabled: true, tcpEnabled: false, lineBytesMax: 65536, autoCreateTables: true, autoCreateColumns: true, partitionBy: 'DAY' },
  };
  const server: Server = createServer((req, res) => void handleIlpWrite(req, res, deps));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run((server.address() as AddressInfo).port, dbDir);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  }
}

const REFUSALS = [
  ['the primary\'s queue is full (503)', new SvcError('SVC_OVERLOADED', 'the commit queue is full [pending=512]', 503), 503],
  ['the commit failed in storage (500)', new SvcError('SVC_STORAGE', 'disk full', 500), 500],
] as const;

for (const [label, error, status] of REFUSALS) {
  test(`a commit refused because ${label} leaves no staged file behind`, async (t) => {
    const writer = new RefusingWriter(error);
    await withRoute(writer, async (port, dbDir) => {
      const response = await postIlp(port, Buffer.from('t,s=a v=1i,d=1.5 1000\nt,s=b v=2i 2000\n'));
      t.is(response.status, status, response.text);
      t.is(writer.stagedFiles.length, 1, 'the commit reached the writer with a staged file');
      t.false(existsSync(writer.stagedFiles[0] as string), 'the staged file was deleted');
      t.deepEqual(readdirSync(join(dbDir, '.staging')), []);
    });
  });
}

test('a body still arriving after its first lines announces where its rows start, and withdraws when its commit is refused', async (t) => {
  const writer = new RefusingWriter(new SvcError('SVC_OVERLOADED', 'the commit queue is full [pending=512]', 503));
  await withRoute(writer, async (port) => {
    const response = await postIlp(port, [Buffer.from('t,s=a v=1i 7000000\n'), Buffer.from('t,s=b v=2i 9000000\n')], { pauseMs: 50 });
    t.is(response.status, 503, response.text);
    t.deepEqual(writer.announced.map((announcement) => announcement.starts), [[{ table: 't', firstMicros: 7000 }]], 'nanoseconds floored to µs');
    const id = writer.announced[0]?.id;
    t.deepEqual(writer.committedAnnouncements, [id], 'the commit names its announcement');
    t.deepEqual(writer.withdrawn, [id], 'the refused request no longer holds later ones');
  });
});

test('a body parsed whole from its first chunk commits without an announcement', async (t) => {
  const writer = new RefusingWriter(new SvcError('SVC_STORAGE', 'disk full', 500));
  await withRoute(writer, async (port) => {
    const response = await postIlp(port, Buffer.from('t,s=a v=1i 7000000\nt,s=b v=2i 9000000\n'));
    t.is(response.status, 500, response.text);
    t.deepEqual(writer.announced, []);
    t.deepEqual(writer.committedAnnouncements, [undefined]);
    t.deepEqual(writer.withdrawn, []);
  });
});

test('a body whose second chunk holds a bad line withdraws its announcement and commits nothing', async (t) => {
  const writer = new RefusingWriter(new SvcError('SVC_STORAGE', 'disk full', 500));
  await withRoute(writer, async (port) => {
    const response = await postIlp(port, [Buffer.from('t,s=a v=1i 7000000\n'), Buffer.from('t,s=b v=oops 9000000\n')], { pauseMs: 50 });
    t.is(response.status, 400, response.text);
    t.is(writer.announced.length, 1);
    t.deepEqual(writer.withdrawn, [writer.announced[0]?.id]);
    t.deepEqual(writer.stagedFiles, [], 'nothing reached the commit');
  });
});
